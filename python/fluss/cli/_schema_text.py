"""The schema text of ``fluss create --schema``: SQL-style column declarations parsed into the
``pyarrow.Schema`` that ``fluss.Schema`` takes, and the reverse (``fluss describe`` prints a
table's columns in the same syntax, so its output can be pasted back into ``--schema``).

Syntax (keywords and type names in any case)::

    schema  := item ("," item)*
    item    := column | "PRIMARY KEY" "(" name ("," name)* ")"
    column  := name type ["NOT NULL" | "NULL"] ["COMMENT" 'text']
    type    := BOOLEAN | TINYINT | SMALLINT | INT | INTEGER | BIGINT | FLOAT | DOUBLE
             | STRING | CHAR[(n)] | BYTES | BINARY[(n)] | DECIMAL[(p[, s])] | DATE
             | TIME[(p)] | TIMESTAMP[(p)] [WITH LOCAL TIME ZONE] | TIMESTAMP_LTZ[(p)]
             | ARRAY<type [NOT NULL]> | MAP<type, type [NOT NULL]>
             | ROW<name type [NOT NULL], ...>   (also ROW(...))
    name    := identifier | `any text` (a backtick inside doubled)

Defaults as in Fluss SQL: CHAR and BINARY length 1, DECIMAL(10, 0), TIME(0), TIMESTAMP(6) and
TIMESTAMP_LTZ(6). Map keys are always NOT NULL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import pyarrow as pa

CHAR_LENGTH_KEY = b"fluss.char_length"
PRECISION_KEY = b"fluss.precision"
COMMENT_KEY = b"comment"

_SIMPLE: Dict[str, pa.DataType] = {
    "BOOLEAN": pa.bool_(),
    "BOOL": pa.bool_(),
    "TINYINT": pa.int8(),
    "SMALLINT": pa.int16(),
    "INT": pa.int32(),
    "INTEGER": pa.int32(),
    "BIGINT": pa.int64(),
    "FLOAT": pa.float32(),
    "DOUBLE": pa.float64(),
    "STRING": pa.string(),
    "BYTES": pa.binary(),
    "DATE": pa.date32(),
}
_KNOWN = ("BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, STRING, CHAR(n), BYTES, BINARY(n), "
          "DECIMAL(p, s), DATE, TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p), ARRAY<T>, MAP<K, V>, ROW<name T, ...>")

_TOKEN = re.compile(r"\s*(?:(?P<ident>[A-Za-z_][A-Za-z0-9_$]*)|(?P<quoted>`(?:[^`]|``)*`)|(?P<number>\d+)"
                    r"|(?P<string>'(?:[^']|'')*')|(?P<punct>[(),<>])|(?P<bad>\S))")


class SchemaTextError(ValueError):
    """A schema text that does not parse; the message names the position (1-based character) and
    what was found there."""


@dataclass
class _Token:
    kind: str  # ident, quoted, number, string, punct, end
    text: str
    pos: int  # 1-based character position in the text

    @property
    def upper(self) -> str:
        """The token's text in upper case (keywords and type names are case-insensitive)."""
        return self.text.upper()


def _tokenize(text: str) -> List[_Token]:
    """The tokens of ``text``; SchemaTextError at the first character that starts no token."""
    tokens: List[_Token] = []
    pos = 0
    while True:
        m = _TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:
            break
        kind = m.lastgroup
        start = m.start(kind)
        if kind == "bad":
            raise SchemaTextError(f"unexpected character {m.group(kind)!r} at character {start + 1}")
        tokens.append(_Token(kind, m.group(kind), start + 1))
        pos = m.end()
    if text[pos:].strip():
        raise SchemaTextError(f"unexpected text at character {pos + 1}: {text[pos:pos + 20]!r}")
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


def _unquote(token: _Token) -> str:
    """A name: an identifier as written, a backticked name without its backticks."""
    if token.kind == "quoted":
        return token.text[1:-1].replace("``", "`")
    return token.text


def _unit_for_precision(p: int) -> str:
    """The Arrow time unit holding Fluss precision ``p`` (0..9): s, ms, us or ns."""
    return "s" if p == 0 else "ms" if p <= 3 else "us" if p <= 6 else "ns"


class _Parser:
    """A recursive-descent parser over the tokens of one schema text."""

    def __init__(self, text: str):
        self.tokens = _tokenize(text)
        self.i = 0

    # ---- token helpers

    def peek(self) -> _Token:
        """The current token (not consumed)."""
        return self.tokens[self.i]

    def take(self) -> _Token:
        """Consumes and returns the current token."""
        t = self.tokens[self.i]
        if t.kind != "end":
            self.i += 1
        return t

    def fail(self, what: str, token: Optional[_Token] = None) -> SchemaTextError:
        """A SchemaTextError: ``what`` was expected at ``token`` (default: the current one)."""
        t = token or self.peek()
        found = "the end of the text" if t.kind == "end" else repr(t.text)
        return SchemaTextError(f"expected {what} at character {t.pos}, found {found}")

    def keyword(self, *words: str) -> bool:
        """Consumes the keywords ``words`` in sequence when they come next; whether they did."""
        for k, w in enumerate(words):
            t = self.tokens[min(self.i + k, len(self.tokens) - 1)]
            if t.kind != "ident" or t.upper != w:
                return False
        self.i += len(words)
        return True

    def expect_keyword(self, *words: str) -> None:
        """Consumes ``words`` or raises naming them."""
        if not self.keyword(*words):
            raise self.fail(" ".join(words))

    def punct(self, ch: str) -> bool:
        """Consumes the punctuation ``ch`` when it comes next; whether it did."""
        t = self.peek()
        if t.kind == "punct" and t.text == ch:
            self.i += 1
            return True
        return False

    def expect_punct(self, ch: str) -> None:
        """Consumes ``ch`` or raises naming it."""
        if not self.punct(ch):
            raise self.fail(f"'{ch}'")

    def name(self, what: str) -> str:
        """A column or field name (identifier or backticked)."""
        t = self.peek()
        if t.kind not in ("ident", "quoted"):
            raise self.fail(what)
        self.take()
        return _unquote(t)

    def number(self, what: str) -> int:
        """A non-negative integer."""
        t = self.peek()
        if t.kind != "number":
            raise self.fail(what)
        self.take()
        return int(t.text)

    def optional_args(self, what: str, count: int) -> List[int]:
        """``(n)`` or ``(n, m)`` (at most ``count`` numbers) when a '(' comes next; [] otherwise."""
        if not self.punct("("):
            return []
        args = [self.number(what)]
        while len(args) < count and self.punct(","):
            args.append(self.number(what))
        self.expect_punct(")")
        return args

    # ---- grammar

    def schema(self) -> Tuple[pa.Schema, List[str]]:
        """The whole text: (schema, primary-key column names from a PRIMARY KEY clause)."""
        fields: List[pa.Field] = []
        pk: List[str] = []
        while True:
            if self.keyword("PRIMARY", "KEY"):
                if pk:
                    raise SchemaTextError("PRIMARY KEY is given twice")
                self.expect_punct("(")
                pk.append(self.name("a primary-key column name"))
                while self.punct(","):
                    pk.append(self.name("a primary-key column name"))
                self.expect_punct(")")
            else:
                fields.append(self.column())
            if self.punct(","):
                continue
            if self.peek().kind != "end":
                raise self.fail("',' or the end of the schema")
            break
        if not fields:
            raise SchemaTextError("the schema has no column")
        names = [f.name for f in fields]
        for n in names:
            if names.count(n) > 1:
                raise SchemaTextError(f"column '{n}' is declared twice")
        for k in pk:
            if k not in names:
                raise SchemaTextError(f"PRIMARY KEY column '{k}' is not a column of the schema")
        return pa.schema(fields), pk

    def column(self) -> pa.Field:
        """``name type [NOT NULL] [COMMENT 'text']``."""
        name = self.name("a column name")
        if self.peek().kind == "end" or (self.peek().kind == "punct" and self.peek().text == ","):
            raise self.fail(f"a type for column '{name}'")
        field = self.field_type(name)
        if self.keyword("COMMENT"):
            t = self.peek()
            if t.kind != "string":
                raise self.fail("a quoted comment ('text')")
            self.take()
            meta = dict(field.metadata or {})
            meta[COMMENT_KEY] = t.text[1:-1].replace("''", "'").encode()
            field = field.with_metadata(meta)
        return field

    def field_type(self, name: str) -> pa.Field:
        """A type with its optional ``NOT NULL`` / ``NULL``, as the field ``name``."""
        dtype, meta = self.type_()
        nullable = True
        if self.keyword("NOT", "NULL"):
            nullable = False
        elif self.keyword("NULL"):
            nullable = True
        return pa.field(name, dtype, nullable, meta or None)

    def type_(self) -> Tuple[pa.DataType, Dict[bytes, bytes]]:
        """One type: (Arrow type, field metadata the type needs, e.g. CHAR's length)."""
        t = self.peek()
        if t.kind != "ident":
            raise self.fail("a type")
        word = t.upper
        self.take()
        if word in _SIMPLE:
            return _SIMPLE[word], {}
        if word == "CHAR":
            args = self.optional_args("a CHAR length", 1)
            n = args[0] if args else 1
            if n < 1:
                raise SchemaTextError(f"CHAR({n}) at character {t.pos}: the length must be at least 1")
            return pa.string(), {CHAR_LENGTH_KEY: str(n).encode()}
        if word == "BINARY":
            args = self.optional_args("a BINARY length", 1)
            n = args[0] if args else 1
            if n < 1:
                raise SchemaTextError(f"BINARY({n}) at character {t.pos}: the length must be at least 1")
            return pa.binary(n), {}
        if word in ("DECIMAL", "NUMERIC", "DEC"):
            args = self.optional_args("a DECIMAL precision and scale", 2)
            p = args[0] if args else 10
            s = args[1] if len(args) > 1 else 0
            if not 1 <= p <= 38 or not 0 <= s <= p:
                raise SchemaTextError(f"DECIMAL({p}, {s}) at character {t.pos}: the precision must be 1..38 "
                                      f"and the scale 0..precision")
            return pa.decimal128(p, s), {}
        if word in ("TIME", "TIMESTAMP", "TIMESTAMP_LTZ"):
            args = self.optional_args(f"a {word} precision", 1)
            p = args[0] if args else (0 if word == "TIME" else 6)
            if not 0 <= p <= 9:
                raise SchemaTextError(f"{word}({p}) at character {t.pos}: the precision must be 0..9")
            meta = {} if p in (0, 3, 6, 9) else {PRECISION_KEY: str(p).encode()}
            unit = _unit_for_precision(p)
            if word == "TIME":
                return (pa.time32(unit) if unit in ("s", "ms") else pa.time64(unit)), meta
            ltz = word == "TIMESTAMP_LTZ"
            if word == "TIMESTAMP":
                if self.keyword("WITH", "LOCAL", "TIME", "ZONE"):
                    ltz = True
                else:
                    self.keyword("WITHOUT", "TIME", "ZONE")
            return pa.timestamp(unit, tz="UTC" if ltz else None), meta
        if word == "ARRAY":
            self.expect_punct("<")
            item = self.field_type("item")
            self.expect_punct(">")
            return pa.list_(item), {}
        if word == "MAP":
            self.expect_punct("<")
            key_type, key_meta = self.type_()
            if self.keyword("NOT", "NULL"):
                pass
            self.expect_punct(",")
            value = self.field_type("value")
            self.expect_punct(">")
            return pa.map_(pa.field("key", key_type, False, key_meta or None), value), {}
        if word == "ROW":
            close = ">" if self.punct("<") else ")" if self.punct("(") else ""
            if not close:
                raise self.fail("'<' after ROW")
            fields: List[pa.Field] = []
            while True:
                fname = self.name("a ROW field name")
                fields.append(self.field_type(fname))
                if self.punct(","):
                    continue
                self.expect_punct(close)
                break
            names = [f.name for f in fields]
            for n in names:
                if names.count(n) > 1:
                    raise SchemaTextError(f"ROW field '{n}' is declared twice")
            return pa.struct(fields), {}
        raise SchemaTextError(f"unknown type {t.text!r} at character {t.pos} (known: {_KNOWN})")


def parse_schema(text: str) -> Tuple[pa.Schema, List[str]]:
    """Parses a schema text (see the module doc), e.g. ``"id BIGINT NOT NULL, name STRING,
    PRIMARY KEY (id)"``.

    Returns:
        (the ``pyarrow.Schema``, the column names of its PRIMARY KEY clause, [] without one).

    Raises:
        SchemaTextError: naming the character position and what was expected there, an unknown
            type, a repeated column, or a primary-key column that is not in the schema.
    """
    return _Parser(text).schema()


def parse_names(text: str, what: str) -> List[str]:
    """A comma-separated list of column names (identifiers or backticked), e.g. for
    ``--primary-key id,region``. Raises SchemaTextError naming ``what`` for anything else."""
    p = _Parser(text)
    try:
        names = [p.name(what)]
        while p.punct(","):
            names.append(p.name(what))
        if p.peek().kind != "end":
            raise p.fail("',' or the end")
    except SchemaTextError as e:
        raise SchemaTextError(f"{what}: {e}") from None
    return names


# ---------------------------------------------------------------------------- rendering


def _name(name: str) -> str:
    """``name`` as written in schema text: bare when it is an identifier, else backticked."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        return name
    return "`" + name.replace("`", "``") + "`"


def _precision(field: pa.Field, unit: str) -> int:
    """The Fluss precision of a time or timestamp field: its metadata's, else its unit's."""
    meta = field.metadata or {}
    if PRECISION_KEY in meta:
        return int(meta[PRECISION_KEY])
    return {"s": 0, "ms": 3, "us": 6, "ns": 9}[unit]


def render_type(field: pa.Field, with_null: bool = True) -> str:
    """The schema-text spelling of ``field``'s type, e.g. ``DECIMAL(10, 2) NOT NULL`` or
    ``ROW<a INT, b ARRAY<STRING>>``; NOT NULL when the field is not nullable (and
    ``with_null``). An Arrow type with no Fluss equivalent is spelled as Arrow spells it."""
    t = field.type
    meta = field.metadata or {}
    s: str
    if pa.types.is_boolean(t):
        s = "BOOLEAN"
    elif t == pa.int8():
        s = "TINYINT"
    elif t == pa.int16():
        s = "SMALLINT"
    elif t == pa.int32():
        s = "INT"
    elif t == pa.int64():
        s = "BIGINT"
    elif t == pa.float32():
        s = "FLOAT"
    elif t == pa.float64():
        s = "DOUBLE"
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        s = f"CHAR({int(meta[CHAR_LENGTH_KEY])})" if CHAR_LENGTH_KEY in meta else "STRING"
    elif pa.types.is_fixed_size_binary(t):
        s = f"BINARY({t.byte_width})"
    elif pa.types.is_binary(t) or pa.types.is_large_binary(t):
        s = "BYTES"
    elif pa.types.is_decimal(t):
        s = f"DECIMAL({t.precision}, {t.scale})"
    elif t == pa.date32():
        s = "DATE"
    elif pa.types.is_time(t):
        s = f"TIME({_precision(field, t.unit)})"
    elif pa.types.is_timestamp(t):
        kind = "TIMESTAMP_LTZ" if t.tz is not None else "TIMESTAMP"
        s = f"{kind}({_precision(field, t.unit)})"
    elif pa.types.is_list(t):
        s = f"ARRAY<{render_type(t.value_field)}>"
    elif pa.types.is_map(t):
        s = f"MAP<{render_type(t.key_field, with_null=False)}, {render_type(t.item_field)}>"
    elif pa.types.is_struct(t):
        s = "ROW<" + ", ".join(f"{_name(t.field(i).name)} {render_type(t.field(i))}"
                               for i in range(t.num_fields)) + ">"
    else:
        s = str(t)
    if with_null and not field.nullable:
        s += " NOT NULL"
    return s


def render_column(field: pa.Field) -> str:
    """``name TYPE [NOT NULL] [COMMENT '...']``: one column as ``--schema`` takes it."""
    text = f"{_name(field.name)} {render_type(field)}"
    meta = field.metadata or {}
    if COMMENT_KEY in meta:
        text += " COMMENT '" + meta[COMMENT_KEY].decode(errors="replace").replace("'", "''") + "'"
    return text
