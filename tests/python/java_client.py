"""Runs the official Java client (tests/java/run-reader.sh: ReadTable, PkTool, AppendTable) from
the tests.

``java_tool()`` builds tests/java once per test run and fails the test (never skips it) when
java or mvn is missing or the build fails; ``run_java(args, stdin_lines)`` runs it and returns
its stdout lines, failing with its stderr when it exits non-zero.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import math
import shutil
import struct
import subprocess

import pyarrow as pa
import pytest

from conftest import ROOT

TOOL = ROOT / "tests" / "java" / "run-reader.sh"

_built = False


def java_tool() -> str:
    global _built
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found on PATH: the Java client tests need Java 17+ and Maven")
    if not _built:
        out = subprocess.run([str(TOOL), "--build"], capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            pytest.fail(f"building tests/java failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
        _built = True
    return str(TOOL)


async def run_java(args: list[str], stdin_lines: list[str] | None = None, timeout: float = 300) -> list[str]:
    """Runs ``run-reader.sh *args`` (built first) with the given lines on stdin; its stdout lines."""
    tool = java_tool()
    proc = await asyncio.create_subprocess_exec(
        tool, *args, stdin=asyncio.subprocess.PIPE if stdin_lines is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    data = "".join(line + "\n" for line in stdin_lines).encode("utf-8") if stdin_lines is not None else None
    try:
        stdout, stderr = await asyncio.wait_for(proc.communicate(data), timeout=timeout)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    assert proc.returncode == 0, f"Java client failed ({proc.returncode}): {args}:\n{stderr.decode()[-4000:]}"
    return stdout.decode("utf-8").splitlines()


def same_value(a, b) -> bool:
    """Equal with the same Python type at every level: floats bit for bit (NaN equals NaN, -0.0
    is not 0.0); decimals with the same digits and exponent; datetimes (or pandas Timestamps,
    as a nanosecond column may come back) at the same instant to the nanosecond, both naive or
    both at the same UTC offset; lists, tuples and dicts element by element, in order."""
    if isinstance(a, dt.datetime) and isinstance(b, dt.datetime):
        return (a.utcoffset() == b.utcoffset() and a == b
                and getattr(a, "nanosecond", 0) == getattr(b, "nanosecond", 0))
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b)
    if isinstance(a, decimal.Decimal):
        return str(a) == str(b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    return a == b


# ---- the JSON encoding of values that the Java tools read and print (tests/java/.../Json.java)

UTC = dt.timezone.utc


def f32(x: float) -> float:
    """x rounded to the nearest float32 (what a FLOAT column stores)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _ts_text(d: dt.datetime) -> str:
    return d.replace(microsecond=0, tzinfo=None).isoformat() + f".{d.microsecond:06d}000"


def to_java(t: pa.DataType, v):
    """The Java tools' JSON value (as json.loads returns it) for the Python value ``v`` of a column
    of Arrow type ``t``: what they print for the stored value, and what they read back.

    Nested values as our client takes them: ARRAY a list (or tuple), MAP a dict or a list of
    (key, value) pairs, ROW a dict by field name or a list (or tuple) by position; in the Java
    encoding ARRAY is a JSON list, MAP a list of [key, value] lists (in the given order), ROW an
    object of every field in field order."""
    if v is None:
        return None
    if pa.types.is_map(t):
        pairs = v.items() if isinstance(v, dict) else v
        return [[to_java(t.key_type, k), to_java(t.item_type, x)] for k, x in pairs]
    if pa.types.is_list(t):
        return [to_java(t.value_type, e) for e in v]
    if pa.types.is_struct(t):
        fields = [t.field(i) for i in range(t.num_fields)]
        if isinstance(v, dict):
            return {f.name: to_java(f.type, v[f.name]) for f in fields}
        assert len(v) == len(fields), f"{len(v)} values for {t}"
        return {f.name: to_java(f.type, x) for f, x in zip(fields, v)}
    if pa.types.is_floating(t):
        v = f32(v) if pa.types.is_float32(t) else float(v)
        return v if math.isfinite(v) else ("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))
    if pa.types.is_date(t):
        return v.isoformat()
    if pa.types.is_time(t):
        return v.isoformat(timespec="milliseconds")
    if pa.types.is_timestamp(t):
        return _ts_text(v.astimezone(UTC)) + "Z" if t.tz else _ts_text(v)
    if pa.types.is_decimal(t):
        with decimal.localcontext() as ctx:
            ctx.prec = 100  # exact for DECIMAL(38, s)
            return format(v.quantize(decimal.Decimal(1).scaleb(-t.scale)), "f")
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return bytes(v).hex()
    return v


def to_java_row(schema: pa.Schema, row: dict, names=None) -> dict:
    """``row`` (column -> Python value) as the Java tools print it: ``names`` (default all
    columns) in that order."""
    return {n: to_java(schema.field(n).type, row[n]) for n in (names or schema.names)}
