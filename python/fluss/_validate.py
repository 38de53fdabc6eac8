"""Argument checks shared by the descriptors and Config: each names the owner and the argument
in the FlussError (-2) it raises, before anything is sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, List, Optional

from ._errors import FlussError
from ._native import _fluss


# Largest bucket_count: the server's default max.bucket.num (fluss::kMaxBucketCount, which says
# why the client refuses more); checked here already so that TableDescriptor raises.
_MAX_BUCKETS = _fluss.MAX_BUCKET_COUNT


def _column_list(owner: str, arg: str, value: Any, columns: Optional[List[str]] = None) -> List[str]:
    """``value`` (None, or a list/tuple of distinct str column names) as a list; with
    ``columns``, every name must be one of them. FlussError (-2) naming ``owner`` and ``arg``."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)):
        raise FlussError(f"{owner}: {arg} must be a list of column names, e.g. [{value!r}], "
                         f"not the single string {value!r}")
    if not isinstance(value, (list, tuple)):
        raise FlussError(f"{owner}: {arg} must be a list of column names, got {type(value).__name__}")
    out: List[str] = []
    for name in value:
        if not isinstance(name, str):
            raise FlussError(f"{owner}: {arg} must hold column names (str), got {name!r}")
        if name in out:
            raise FlussError(f"{owner}: {arg} names column '{name}' twice")
        if columns is not None and name not in columns:
            raise FlussError(f"{owner}: {arg} column '{name}' is not in the schema")
        out.append(name)
    return out


def _as_text(value: object) -> Optional[str]:
    """``value`` as the text the server and the core's config parser take: a str as is, a bool as
    ``"true"``/``"false"``, an int or float by ``str``; None for any other type (the caller
    raises, naming the key)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value
    return None


def _string_map(owner: str, arg: str, value: Any) -> Dict[str, str]:
    """``value`` (None, or a dict of str keys to str/int/float/bool values) as ``{str: str}``
    (bools as ``"true"``/``"false"``). FlussError (-2) naming ``owner`` and ``arg``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise FlussError(f"{owner}: {arg} must be a dict of str to str, got {type(value).__name__}")
    out: Dict[str, str] = {}
    for k, v in value.items():
        if not isinstance(k, str):
            raise FlussError(f"{owner}: {arg} key {k!r} must be a str")
        text = _as_text(v)
        if text is None:
            raise FlussError(f"{owner}: {arg} '{k}': value {v!r} must be a str, int, float or bool")
        out[k] = text
    return out


def _optional_str(owner: str, arg: str, value: object) -> Optional[str]:
    if value is not None and not isinstance(value, str):
        raise FlussError(f"{owner}: {arg} must be a str or None, got {type(value).__name__}")
    return value
