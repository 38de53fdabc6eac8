"""Schema: a pyarrow schema with primary keys, and the Fluss names of its column types."""

from __future__ import annotations

from typing import List, Optional

import pyarrow as pa

from ._errors import FlussError
from ._validate import _column_list


def _type_string(t: pa.DataType) -> str:
    if pa.types.is_boolean(t):
        return "boolean"
    for check, name in (
        (pa.types.is_int8, "tinyint"),
        (pa.types.is_int16, "smallint"),
        (pa.types.is_int32, "int"),
        (pa.types.is_int64, "bigint"),
        (pa.types.is_float32, "float"),
        (pa.types.is_float64, "double"),
        (pa.types.is_date32, "date"),
    ):
        if check(t):
            return name
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_fixed_size_binary(t):
        return f"binary({t.byte_width})"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return "bytes"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    precision = {"s": 0, "ms": 3, "us": 6, "ns": 9}
    if pa.types.is_time(t):
        return f"time({precision[t.unit]})"
    if pa.types.is_timestamp(t):
        kind = "timestamp_ltz" if t.tz else "timestamp"
        return f"{kind}({precision[t.unit]})"
    return str(t)


class Schema:
    """A table schema: a ``pyarrow.Schema`` plus optional primary-key column names.

    Args:
        schema: the columns, a ``pyarrow.Schema``.
        primary_keys: a list (or tuple) of distinct column names, e.g. ``["id"]``; None or empty
            for a log table.

    Field nullability is kept (``nullable=False`` makes a NOT NULL column); primary-key columns
    are NOT NULL. A field metadata entry ``b"comment"`` becomes the column comment.

    Raises:
        FlussError: error_code -2, naming the argument, if ``schema`` is not a
            ``pyarrow.Schema``, or ``primary_keys`` is not a list of str (a single string such
            as ``"id"`` is rejected: pass ``["id"]``), repeats a name or names a missing column.
    """

    def __init__(self, schema: pa.Schema, primary_keys: Optional[List[str]] = None):
        if not isinstance(schema, pa.Schema):
            raise FlussError(f"Schema: expected a pyarrow.Schema, got {type(schema).__name__}")
        pks = _column_list("Schema", "primary_keys", primary_keys)
        for pk in pks:
            if pk not in schema.names:
                raise FlussError(f"Schema: primary key column '{pk}' is not in the schema")
        if pks:
            schema = pa.schema(
                [f.with_nullable(False) if f.name in pks else f for f in schema], metadata=schema.metadata
            )
        self._schema = schema
        self._primary_keys = pks

    @property
    def arrow_schema(self) -> pa.Schema:
        """The ``pyarrow.Schema``."""
        return self._schema

    def get_column_names(self) -> List[str]:
        return list(self._schema.names)

    def get_column_types(self) -> List[str]:
        """Fluss type names, e.g. ``int``, ``timestamp_ltz(6)``, ``decimal(10,2)``; NOT NULL
        columns end in `` NOT NULL``."""
        return [_type_string(f.type) + ("" if f.nullable else " NOT NULL") for f in self._schema]

    def get_columns(self) -> List[tuple]:
        return list(zip(self.get_column_names(), self.get_column_types()))

    def get_primary_keys(self) -> List[str]:
        return list(self._primary_keys)

    def __str__(self) -> str:
        cols = ", ".join(f"{n} {t}" for n, t in self.get_columns())
        pk = f", PRIMARY KEY ({', '.join(self._primary_keys)})" if self._primary_keys else ""
        return f"({cols}{pk})"

    __repr__ = __str__
