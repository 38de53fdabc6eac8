"""Arrow C Data Interface capsules from the native module, as pyarrow objects (no copies)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple, cast

import pyarrow as pa

if TYPE_CHECKING:
    import pandas as pd


class _ArrowCapsule:
    """Holds a native Arrow C Data Interface capsule so pyarrow can import it."""

    def __init__(self, capsule: object) -> None:
        self._capsule = capsule

    def __arrow_c_schema__(self) -> object:
        return self._capsule

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        return self._capsule


def _schema_from_capsule(capsule: object) -> pa.Schema:
    return pa.schema(_ArrowCapsule(capsule))


def _to_pandas(table: pa.Table, method: str) -> pd.DataFrame:
    """``table.to_pandas()``; FlussError (-2) naming ``method`` when pandas is not installed
    (it is an optional dependency: ``pip install fluss-cpp[pandas]``)."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        from ._errors import FlussError
        raise FlussError(f"{method}: pandas is not installed (pip install pandas); to_arrow returns "
                         f"the same data as a pyarrow.Table") from None
    return cast("pd.DataFrame", table.to_pandas())


def _table_from_capsule(capsule: object) -> pa.Table:
    # Not pa.table(): it first asks whether its argument is a pandas DataFrame, which imports
    # pandas (~0.3 s on the first call in a process).
    return pa.RecordBatchReader.from_stream(_ArrowCapsule(capsule)).read_all()


class _BatchCapsules:
    """Holds the (schema, array) capsule pair of one native record batch so pyarrow can import
    it."""

    def __init__(self, capsules: Tuple[object, object]) -> None:
        self._c = capsules

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]:
        return self._c
