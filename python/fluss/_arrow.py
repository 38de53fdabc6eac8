"""Arrow C Data Interface capsules from the native module, as pyarrow objects (no copies)."""

from __future__ import annotations

import pyarrow as pa


class _ArrowCapsule:
    """Holds a native Arrow C Data Interface capsule so pyarrow can import it."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_schema__(self):
        return self._capsule

    def __arrow_c_stream__(self, requested_schema=None):
        return self._capsule


def _schema_from_capsule(capsule) -> pa.Schema:
    return pa.schema(_ArrowCapsule(capsule))


def _table_from_capsule(capsule) -> pa.Table:
    # Not pa.table(): it first asks whether its argument is a pandas DataFrame, which imports
    # pandas (~0.3 s on the first call in a process).
    return pa.RecordBatchReader.from_stream(_ArrowCapsule(capsule)).read_all()


class _BatchCapsules:
    """Holds the (schema, array) capsule pair of one native record batch so pyarrow can import
    it."""

    def __init__(self, capsules):
        self._c = capsules

    def __arrow_c_array__(self, requested_schema=None):
        return self._c
