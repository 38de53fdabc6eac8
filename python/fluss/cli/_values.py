"""How the CLI spells values (``fluss tail``) and reads them back (``fluss produce``).

Text spelling, the same in every output format: ISO-8601 for dates, times and timestamps
(fraction digits by the column's unit: none, 3 or 6; TIMESTAMP_LTZ with ``+00:00``), decimals exactly as their digits, BYTES/BINARY in base64,
FLOAT with the shortest digits that read back as the same float32. JSON lines keep numbers,
booleans, nulls, arrays and rows as JSON (decimals as strings, NaN and infinities as the strings
``"NaN"``, ``"Infinity"``, ``"-Infinity"``), maps as objects keyed by the key's text. In CSV and
the table format a null is an empty cell / ``null`` and a nested value is its JSON text.

``fluss produce`` reads what ``fluss tail --format jsonl|csv`` writes: base64 bytes, ISO dates
and times (any number of fraction digits); every other type as pyarrow.csv / pyarrow.json convert it.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import decimal
import json
import math
import struct
from typing import Any, Callable, Dict, List, Optional

import pyarrow as pa
import pyarrow.compute as pc


def _float32_text(v: float) -> str:
    """The shortest decimal text that reads back as the float32 ``v`` (``95.5``, ``0.1``)."""
    if math.isnan(v) or math.isinf(v):
        return _non_finite(v)
    want = struct.pack("<f", v)
    for digits in range(1, 10):
        text = f"{v:.{digits}g}"
        if struct.pack("<f", float(text)) == want:
            return repr(float(text))
    return repr(v)


def _non_finite(v: float) -> str:
    """``NaN``, ``Infinity`` or ``-Infinity``."""
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def to_json(value: Any, dtype: pa.DataType) -> Any:
    """``value`` (as a record scanner returns it for a column of Arrow type ``dtype``) as a
    JSON-serialisable object, per the module doc."""
    if value is None:
        return None
    if pa.types.is_floating(dtype):
        v = float(value)
        if math.isnan(v) or math.isinf(v):
            return _non_finite(v)
        return float(_float32_text(v)) if dtype == pa.float32() else v
    if isinstance(value, bool) or isinstance(value, int) or isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (datetime.datetime, datetime.time)):
        unit = getattr(dtype, "unit", "us")
        return value.isoformat(timespec={"s": "seconds", "ms": "milliseconds"}.get(unit, "microseconds"))
    if isinstance(value, datetime.date):
        return value.isoformat()
    if pa.types.is_list(dtype):
        return [to_json(v, dtype.value_type) for v in value]
    if pa.types.is_map(dtype):
        pairs = value.items() if isinstance(value, dict) else value
        return {scalar_text(k, dtype.key_type): to_json(v, dtype.item_type) for k, v in pairs}
    if pa.types.is_struct(dtype):
        return {dtype.field(i).name: to_json(value.get(dtype.field(i).name), dtype.field(i).type)
                for i in range(dtype.num_fields)}
    return str(value)


def json_text(value: Any) -> str:
    """Compact JSON text of a ``to_json`` result (non-ASCII characters kept)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def scalar_text(value: Any, dtype: pa.DataType, null: str = "") -> str:
    """``value`` of Arrow type ``dtype`` as one cell of text: ``null`` for None, a nested value
    as its JSON text, FLOAT's shortest float32 digits, every other scalar as ``to_json`` spells
    it (``true``/``false`` for booleans)."""
    if value is None:
        return null
    if pa.types.is_nested(dtype):
        return json_text(to_json(value, dtype))
    if isinstance(value, bool):
        return "true" if value else "false"
    if pa.types.is_floating(dtype):
        v = float(value)
        if math.isnan(v) or math.isinf(v):
            return _non_finite(v)
        return _float32_text(v) if dtype == pa.float32() else repr(v)
    j = to_json(value, dtype)
    return j if isinstance(j, str) else str(j)


# ---------------------------------------------------------------------------- reading back


def _needs_python(dtype: pa.DataType, fmt: str) -> bool:
    """Whether pyarrow's ``fmt`` reader (csv or jsonl) cannot produce ``dtype`` as the CLI
    spells it, so the column is read as text and converted here: binaries (base64) for both,
    dates and times for JSON, and any nested type holding one."""
    if pa.types.is_binary(dtype) or pa.types.is_large_binary(dtype) or pa.types.is_fixed_size_binary(dtype):
        return True
    if pa.types.is_time(dtype) or (fmt == "jsonl" and pa.types.is_date(dtype)):
        return True
    if pa.types.is_list(dtype):
        return _needs_python(dtype.value_type, fmt)
    if pa.types.is_struct(dtype):
        return any(_needs_python(dtype.field(i).type, fmt) for i in range(dtype.num_fields))
    return False


def to_float32(column: pa.Array) -> pa.Array:
    """A float64 column as FLOAT: each value rounded to the nearest float32, as the client's
    append does. Raises ValueError for a finite value beyond FLOAT's range (Arrow's cast would
    make it infinite)."""
    narrow = column.cast(pa.float32())
    beyond = pc.and_(pc.is_inf(narrow), pc.invert(pc.is_inf(column)))
    if pc.any(beyond).as_py():
        first = column.filter(beyond)[0].as_py()
        raise ValueError(f"value {first!r} is beyond the range of FLOAT")
    return narrow


def read_type(dtype: pa.DataType, fmt: str) -> pa.DataType:
    """The Arrow type to ask pyarrow's ``fmt`` reader for where the table has ``dtype``: the same
    type, a timestamp of at least microseconds (text with microsecond digits, as ``tail``
    writes it, does not parse into seconds or milliseconds; the batch is cast back when every
    value fits), or a string type at each level that ``convert_column`` turns into ``dtype``."""
    if pa.types.is_timestamp(dtype) and dtype.unit in ("s", "ms"):
        return pa.timestamp("us", tz=dtype.tz)
    if pa.types.is_float32(dtype):
        return pa.float64()  # parsed wide, so that a value beyond FLOAT is refused (to_float32)
    if pa.types.is_list(dtype):
        f = dtype.value_field
        return pa.list_(pa.field(f.name, read_type(f.type, fmt), f.nullable))
    if pa.types.is_struct(dtype):
        return pa.struct([pa.field(f.name, read_type(f.type, fmt), f.nullable)
                          for f in (dtype.field(i) for i in range(dtype.num_fields))])
    if not _needs_python(dtype, fmt):
        return dtype
    return pa.string()


def _iso_decoder(parse: Callable[[str], Any], what: str,
                 refuse: Callable[[Any], Optional[str]]) -> Callable[[Any], Any]:
    """A decoder of ISO-8601 text with ``parse``: an empty text (an empty CSV cell) is None; a
    text that does not parse, or a value for which ``refuse`` gives a reason, raises ValueError
    naming the text and saying it is not ``what`` (or the reason)."""
    def decode(v: Any) -> Any:
        if v == "":
            return None
        try:
            value = parse(v)
        except (TypeError, ValueError):
            raise ValueError(f"{v!r} is not {what}") from None
        reason = refuse(value)
        if reason:
            raise ValueError(f"{v!r} is {reason}")
        return value
    return decode


def _decoder(dtype: pa.DataType) -> Callable[[Any], Any]:
    """A function turning a value read as ``read_type(dtype)`` into a Python value of ``dtype``."""
    if pa.types.is_binary(dtype) or pa.types.is_large_binary(dtype) or pa.types.is_fixed_size_binary(dtype):
        def b64(v: Any) -> Any:
            try:
                return base64.b64decode(v, validate=True)
            except (binascii.Error, ValueError):
                raise ValueError(f"{v!r} is not base64 (BYTES and BINARY values are read as base64)") from None
        return b64
    if pa.types.is_date(dtype):
        return _iso_decoder(datetime.date.fromisoformat, "an ISO-8601 date (YYYY-MM-DD)", lambda d: None)
    if pa.types.is_time(dtype):
        # Microseconds a value of the column's unit is a multiple of: a finer one is refused, as
        # the client's append refuses it (pa.array would truncate it).
        keep_us = {"s": 1_000_000, "ms": 1000}.get(dtype.unit, 1)

        def finer(t: datetime.time) -> Optional[str]:
            return f"finer than the column's {dtype} keeps" if t.microsecond % keep_us else None
        return _iso_decoder(datetime.time.fromisoformat, "an ISO-8601 time (HH:MM:SS[.fff])", finer)
    if pa.types.is_list(dtype):
        inner = _decoder(dtype.value_type)
        return lambda v: [None if x is None else inner(x) for x in v]
    if pa.types.is_struct(dtype):
        fields = [(dtype.field(i).name, _decoder(dtype.field(i).type)) for i in range(dtype.num_fields)]
        return lambda v: {n: (None if v.get(n) is None else d(v[n])) for n, d in fields}
    return lambda v: v


def convert_column(column: pa.Array, dtype: pa.DataType, fmt: str) -> pa.Array:
    """``column`` as read with ``read_type(dtype, fmt)``, converted to ``dtype`` value by value.
    A column of another type (a Parquet file's own binary, date or time column) is taken as it
    is. Raises ValueError naming the first value that does not convert."""
    if not _needs_python(dtype, fmt) or column.type != read_type(dtype, fmt):
        return column
    decode = _decoder(dtype)
    values: List[Optional[Any]] = [None if v is None else decode(v) for v in column.to_pylist()]
    return pa.array(values, type=dtype)


def map_columns(schema: pa.Schema) -> Dict[str, pa.DataType]:
    """The columns of ``schema`` holding a MAP at some level: pyarrow.json cannot read them."""
    def has_map(t: pa.DataType) -> bool:
        if pa.types.is_map(t):
            return True
        if pa.types.is_list(t):
            return has_map(t.value_type)
        if pa.types.is_struct(t):
            return any(has_map(t.field(i).type) for i in range(t.num_fields))
        return False
    return {f.name: f.type for f in schema if has_map(f.type)}
