"""The user guide's generated parts, rendered when the site is built (an mkdocs hook, named in
mkdocs.yml, run by ``tools/docs``).

Each marker ``<!-- fluss:NAME -->`` in a page is replaced by Markdown made from the installed
``fluss`` package, so the guide says what the built code does:

- ``config-keys``: the configuration reference, from the core's table of keys
  (``fluss.Config.known_keys()``, i.e. ``fluss::ConfigKeys()`` in ``include/fluss/config_keys.h``),
  the table the parser reads keys with;
- ``error-codes``: the Fluss error codes of ``fluss.ErrorCode``, with whether each is retriable
  (the third column of ``FLUSS_ERROR_CODES`` in ``include/fluss/error_codes.h``; the two must name
  the same codes, or the build fails);
- ``cli-help``: ``fluss --help`` as the installed CLI prints it.

A marker left unknown, or a page holding one twice, fails the build. The functions are plain
Python (no mkdocs import) so tests can call them: tests/python/test_config_reference.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!-- fluss:([a-z-]+) -->")

_KIND_TEXT = {
    "text": "text",
    "bytes": "bytes",
    "milliseconds": "milliseconds",
    "count": "count",
    "bool": "bool",
    "enum": "one of",
    "secret": "secret text",
}

_SECTIONS = [  # (title, test on the Java key), in the order of the reference
    ("Connection and requests", lambda k: not k.startswith(("client.writer.", "client.scanner.", "client.lookup.",
                                                            "client.security."))),
    ("Writers", lambda k: k.startswith("client.writer.")),
    ("Scanners", lambda k: k.startswith("client.scanner.")),
    ("Lookups", lambda k: k.startswith("client.lookup.")),
    ("Authentication", lambda k: k.startswith("client.security.")),
]


def _bytes_text(n: int) -> str:
    """``n`` bytes in the largest 1024-based unit that holds it exactly, e.g. ``2 MiB``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def _ms_text(n: int) -> str:
    """``n`` milliseconds in the largest unit that holds it exactly, e.g. ``2 min``."""
    for unit, size in (("h", 3_600_000), ("min", 60_000), ("s", 1000)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} ms"


def _default_text(k: dict) -> str:
    d = k["default"]
    if d is None:
        return "unset"
    if k["kind"] == "bytes":
        return f"`{d}` ({_bytes_text(int(d))})" if int(d) >= 1024 else f"`{d}` bytes"
    if k["kind"] == "milliseconds":
        n = int(d)
        if n == k["max"] and n > 2**31:
            return f"`{d}` (no limit)"
        return f"`{d}` ({_ms_text(n)})" if n >= 1000 else f"`{d}` ms"
    return f"`{d}`"


def _kind_text(k: dict) -> str:
    """The kind of value and what is accepted, e.g. ``bytes, 1 to 2147483647``."""
    kind = k["kind"]
    if kind == "enum":
        return "one of " + ", ".join(f"`{v}`" for v in k["values"])
    if kind == "bool":
        return "bool: " + ", ".join(f"`{v}`" for v in k["values"])
    if kind in ("bytes", "count"):
        return f"{kind}, {k['min']} to {k['max']}"
    if kind == "milliseconds":
        low = "at least 1" if k["min"] == 1 else "0 or more"
        if k["max"] < 2**31:  # an int32 on the wire
            return f"milliseconds, {low}; longer is taken as {k['max']}"
        return f"milliseconds, {low}"
    return _KIND_TEXT[kind]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _anchor(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def _also_spelled(k: dict) -> str:
    """The other spellings of a key, e.g. ```writer.batch.size` (seed), `writer.batch-size` (pyfluss 1.0)``."""
    seed, py = k["seed_key"], k["pyfluss_key"]
    if seed == py == k["key"]:
        return "the same in the seed guide and pyfluss 1.0"
    parts = []
    if seed and seed == py:
        parts.append(f"`{seed}` (seed guide and pyfluss 1.0)")
    else:
        if seed and seed != k["key"]:
            parts.append(f"`{seed}` (seed guide)")
        if py and py != k["key"]:
            parts.append(f"`{py}` (pyfluss 1.0)")
    return ", ".join(parts) if parts else "–"


def config_reference_markdown(keys: List[dict]) -> str:
    """The configuration reference as Markdown: a summary table of every key (linked to its
    entry, with default and kind of value), then one section per group (connection, writers,
    scanners, lookups, authentication) with an entry per key: heading with the Java spelling
    (anchor: the key with every run of other characters as ``-``), the description, the
    default, the value accepted and the other spellings. ``keys`` is
    ``fluss.Config.known_keys()``. Raises ValueError when a key fits no group."""
    groups = []
    placed = set()
    for title, fits in _SECTIONS:
        rows = [k for k in keys if fits(k["key"])]
        placed |= {k["key"] for k in rows}
        if rows:
            groups.append((title, rows))
    missing = [k["key"] for k in keys if k["key"] not in placed]
    if missing:
        raise ValueError(f"config keys in no section of the reference: {missing}")
    out: List[str] = ["| Key | Default | Value |", "|---|---|---|"]
    for _, rows in groups:
        for k in rows:
            out.append(f"| [`{k['key']}`](#{_anchor(k['key'])}) | {_cell(_default_text(k))} | {_cell(_kind_text(k))} |")
    out.append("")
    for title, rows in groups:
        out += [f"### {title}", ""]
        for k in rows:
            out += [f"#### `{k['key']}` {{ #{_anchor(k['key'])} }}", "",
                    k["description"], "",
                    f"- Default: {_default_text(k)}",
                    f"- Value: {_kind_text(k)}",
                    f"- Also spelled: {_also_spelled(k)}", ""]
    return "\n".join(out)


def header_retriable(header: Optional[Path] = None) -> Dict[str, tuple]:
    """``{name: (code, retriable)}`` from the ``FLUSS_ERROR_CODES`` X-macro table of
    ``include/fluss/error_codes.h`` (the core's one table of codes)."""
    text = (header or ROOT / "include" / "fluss" / "error_codes.h").read_text()
    rows = re.findall(r"X\((\w+),\s*(-?\d+),\s*(true|false)\)", text)
    return {name: (int(code), flag == "true") for name, code, flag in rows}


def error_codes_markdown(codes: Dict[str, int], table: Dict[str, tuple]) -> str:
    """The error-code table as Markdown: code, ``fluss.ErrorCode`` name, retriable. ``codes`` is
    ``{member name: value}`` of ``fluss.ErrorCode``; ``table`` is ``header_retriable()``.
    Raises ValueError when the two do not hold the same names and numbers."""
    from_header = {name: code for name, (code, _) in table.items()}
    if from_header != codes:
        raise ValueError(f"fluss.ErrorCode and include/fluss/error_codes.h differ: "
                         f"{sorted(set(codes.items()) ^ set(from_header.items()))}")
    out = ["| Code | `fluss.ErrorCode` | Retriable |", "|---:|---|---|"]
    for name, code in sorted(codes.items(), key=lambda item: item[1]):
        out.append(f"| {code} | `{name}` | {'yes' if table[name][1] else 'no'} |")
    return "\n".join(out) + "\n"


def cli_help_text() -> str:
    """``fluss --help`` of the installed CLI (argparse, formatted 100 columns wide), in a
    fenced block."""
    from fluss.cli import build_parser
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        text = build_parser().format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "```text\n$ fluss --help\n" + text.rstrip() + "\n```\n"


def render(name: str) -> str:
    """The Markdown that replaces ``<!-- fluss:NAME -->``; ValueError for an unknown name."""
    import fluss
    if name == "config-keys":
        return config_reference_markdown(fluss.Config.known_keys())
    if name == "error-codes":
        return error_codes_markdown({m.name: int(m) for m in fluss.ErrorCode}, header_retriable())
    if name == "cli-help":
        return cli_help_text()
    raise ValueError(f"unknown generated part <!-- fluss:{name} -->")


def expand(markdown: str, where: str = "page") -> str:
    """``markdown`` with every marker replaced by its rendering; ValueError for an unknown
    marker or one that appears twice in the page."""
    names = MARKER.findall(markdown)
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{where}: generated part(s) {twice} appear more than once")
    return MARKER.sub(lambda m: render(m.group(1)), markdown)


def on_page_markdown(markdown: str, page, config, files) -> str:  # the mkdocs hook
    """mkdocs hook: expands the markers of each page (see the module docstring); a part that
    cannot be made (an old or missing installed package, a table that disagrees) stops the
    build with a one-line error naming the page."""
    from mkdocs.exceptions import PluginError
    try:
        return expand(markdown, page.file.src_uri)
    except (ImportError, AttributeError, ValueError) as e:
        raise PluginError(f"{page.file.src_uri}: generated part failed: {type(e).__name__}: {e} "
                          f"(is the installed fluss package built from this tree?)") from e
