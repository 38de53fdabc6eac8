"""Schema: a pyarrow schema with primary keys, and the Fluss names of its column types."""

from __future__ import annotations

from typing import List, Optional, Tuple

import pyarrow as pa

from ._errors import FlussError
from ._native import _fluss
from ._validate import _column_list


def _column_types(schema: pa.Schema) -> List[str]:
    """The Fluss type name of each field (pyfluss spelling); FlussError naming the field for
    an Arrow type without a Fluss equivalent."""
    return list(_fluss._column_types(schema))


class Schema:
    """A table schema: a ``pyarrow.Schema`` plus optional primary-key column names.

    Args:
        schema: the columns, a ``pyarrow.Schema``.
        primary_keys: a list (or tuple) of distinct column names, e.g. ``["id"]``; None or empty
            for a log table.

    Arrow types map to Fluss types as follows: ``bool`` boolean; ``int8/16/32/64``
    tinyint/smallint/int/bigint; ``float32/64`` float/double; ``string``/``large_string``
    string (``char(n)`` with field metadata ``{"fluss.char_length": "n"}``);
    ``binary``/``large_binary`` bytes; ``binary(n)`` binary(n); ``decimal128(p, s)``
    decimal(p,s); ``date32`` date; ``time32(s|ms)``/``time64(us|ns)`` time(0|3|6|9);
    ``timestamp(unit)`` timestamp(0|3|6|9); ``timestamp(unit, tz)`` timestamp_ltz(0|3|6|9);
    ``list_(T)`` array<T>; ``map_(K, V)`` map<K,V> (keys NOT NULL); ``struct([...])``
    row<...>, nested in each other at any depth.

    Field nullability is kept at every level (``nullable=False`` makes a NOT NULL column, list
    item, map value or struct field); primary-key columns are NOT NULL. A field metadata entry
    ``b"comment"`` becomes the column comment.

    Raises:
        FlussError: error_code -2, naming the argument, if ``schema`` is not a
            ``pyarrow.Schema``, or ``primary_keys`` is not a list of str (a single string such
            as ``"id"`` is rejected: pass ``["id"]``), repeats a name or names a missing column;
            naming the field (and the path inside it, e.g. ``address.zip``) for an Arrow type
            with no Fluss equivalent (unsigned integers, ``float16``, ``large_list``,
            dictionaries, ``date64``, ...).
    """

    def __init__(self, schema: pa.Schema, primary_keys: Optional[List[str]] = None):
        if not isinstance(schema, pa.Schema):
            raise FlussError(f"Schema: expected a pyarrow.Schema, got {type(schema).__name__}")
        pks = _column_list("Schema", "primary_keys", primary_keys)
        for pk in pks:
            if pk not in schema.names:
                raise FlussError(f"Schema: primary key column '{pk}' is not in the schema")
        self._types = _column_types(schema)  # raises for a type without a Fluss equivalent
        if pks:
            schema = pa.schema(
                [f.with_nullable(False) if f.name in pks else f for f in schema], metadata=schema.metadata
            )
        self._schema = schema
        self._primary_keys = pks
        if pks:
            self._types = _column_types(schema)

    @property
    def arrow_schema(self) -> pa.Schema:
        """The ``pyarrow.Schema``."""
        return self._schema

    def get_column_names(self) -> List[str]:
        """The column names, in schema order."""
        return list(self._schema.names)

    def get_column_types(self) -> List[str]:
        """Fluss type names as the later pyfluss spells them, e.g. ``int``,
        ``timestamp_ltz(6)``, ``decimal(10,2)``, ``array<string>``, ``map<string,int>``,
        ``row<a int, b string>``; NOT NULL columns and nested levels end in `` NOT NULL``."""
        return list(self._types)

    def get_columns(self) -> List[Tuple[str, str]]:
        """``(name, Fluss type name)`` of each column, as ``get_column_names`` and ``get_column_types``."""
        return list(zip(self.get_column_names(), self.get_column_types()))

    def get_primary_keys(self) -> List[str]:
        """The primary-key column names, in key order; empty for a log table."""
        return list(self._primary_keys)

    def __str__(self) -> str:
        cols = ", ".join(f"{n} {t}" for n, t in self.get_columns())
        pk = f", PRIMARY KEY ({', '.join(self._primary_keys)})" if self._primary_keys else ""
        return f"({cols}{pk})"

    __repr__ = __str__
