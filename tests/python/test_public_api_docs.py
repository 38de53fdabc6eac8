"""Every public class and function of ``fluss`` (``fluss.__all__``) is documented: it has a
docstring, so does every public method and property of its classes, each method's docstring
names every argument it takes, the classes users construct name their constructor's arguments,
and a class's public slot attributes are named in its docstring. No cluster needed.

Also: the members type checkers see for ``fluss.ErrorCode`` (``python/fluss/_errors.py``, under
``TYPE_CHECKING``) are the core's table of codes, which the runtime enum is made from.
"""

from __future__ import annotations

import ast
import enum
import inspect
import pathlib
import re
import types
from typing import Any, Iterator, List, Optional, Tuple

import pytest

import fluss
from fluss._native import _fluss

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Classes users make themselves: their constructor's arguments must be named in the class or
# __init__ docstring. (The others are made by the package: connections, tables, writers,
# scanners, infos; their constructors take native objects.)
CONSTRUCTED_BY_USERS = {"Config", "TablePath", "TableDescriptor", "Schema", "DatabaseDescriptor", "TableBucket",
                        "FlussError", "FlussTimeoutError"}


def _public_objects() -> List[Tuple[str, Any]]:
    return [(name, getattr(fluss, name)) for name in fluss.__all__
            if inspect.isclass(getattr(fluss, name)) or callable(getattr(fluss, name))]


def _own_classes(cls: type) -> List[type]:
    """``cls`` and its bases defined in this package (not list, int, Exception, Enum, ...)."""
    return [c for c in cls.__mro__ if c.__module__ == "fluss" or c.__module__.startswith("fluss.")]


def _members(cls: type) -> Iterator[Tuple[str, Any]]:
    """Public methods, properties and slot attributes of ``cls`` defined in this package
    (enum members excluded), each once, as found on the class's own dicts."""
    seen = set()
    for c in _own_classes(cls):
        for name, value in vars(c).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(cls, enum.EnumMeta) and isinstance(value, cls):
                continue  # an enum member
            seen.add(name)
            yield name, value


def _parameters(fn: Any) -> Optional[List[str]]:
    """The parameter names of ``fn`` (without self/cls), or None when none can be read."""
    fn = inspect.unwrap(fn.__func__ if isinstance(fn, (staticmethod, classmethod)) else fn)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        nb = getattr(fn, "__nb_signature__", None)  # a nanobind function: its own signature text
        if not nb:
            return None
        text = nb[0][0]
        inner = text[text.index("(") + 1:text.rindex(")")]
        names = [re.split(r"[:=]", p)[0].strip().lstrip("*") for p in inner.split(",") if p.strip()]
        return [n for n in names if n and n not in ("self", "cls", "/")]
    return [p.name for p in sig.parameters.values() if p.name not in ("self", "cls")]


def _missing(doc: str, names: List[str]) -> List[str]:
    return [n for n in names if not re.search(rf"\b{re.escape(n)}\b", doc)]


def _cases() -> List[Any]:
    cases = []
    for name, obj in _public_objects():
        cases.append(pytest.param(name, obj, None, id=name))
        if inspect.isclass(obj):
            for member, value in _members(obj):
                cases.append(pytest.param(name, obj, (member, value), id=f"{name}.{member}"))
    return cases


@pytest.mark.parametrize("name, obj, member", _cases())
def test_documented(name: str, obj: Any, member: Optional[Tuple[str, Any]]) -> None:
    if member is None:
        doc = inspect.getdoc(obj) or ""
        assert doc.strip(), f"fluss.{name} has no docstring"
        if inspect.isclass(obj) and name in CONSTRUCTED_BY_USERS:
            # the class's and its bases' docstrings (a subclass may inherit __init__)
            init_doc = "\n".join([inspect.getdoc(c) or "" for c in _own_classes(obj)] + [obj.__init__.__doc__ or ""])
            params = [p for p in (_parameters(obj.__init__) or []) if p not in ("args", "kwargs")]
            missing = _missing(init_doc, params)
            assert not missing, f"fluss.{name}(...): the docstring does not name the argument(s) {missing}"
        elif not inspect.isclass(obj):
            missing = _missing(doc, _parameters(obj) or [])
            assert not missing, f"fluss.{name}: the docstring does not name the argument(s) {missing}"
        return
    attr, value = member
    where = f"fluss.{name}.{attr}"
    if isinstance(value, types.MemberDescriptorType):  # a __slots__ attribute
        class_doc = inspect.getdoc(obj) or ""
        assert re.search(rf"\b{attr}\b", class_doc), f"{where} (an attribute) is not named in the docstring of {name}"
        return
    if isinstance(value, property) or type(value).__name__ in ("nb_property", "getset_descriptor"):
        assert (value.__doc__ or "").strip(), f"{where} (a property) has no docstring"
        return
    doc = inspect.getdoc(value) or getattr(value, "__doc__", None) or ""
    if isinstance(value, (staticmethod, classmethod)):
        doc = value.__func__.__doc__ or ""
    assert doc.strip(), f"{where} has no docstring"
    params = _parameters(value)
    if params:
        missing = _missing(doc, params)
        assert not missing, f"{where}: the docstring does not name the argument(s) {missing}"


def test_some_members_are_checked() -> None:
    # The walk above must reach the members (e.g. through the mro and the native class).
    ids = {c.id for c in _cases()}
    for expected in ("LogScanner.poll", "AppendWriter.append", "WriteResultHandle.wait", "Config.bootstrap_server",
                     "ScanRecords.records", "TableBucket.with_partition", "ChangeType.short_string"):
        assert expected in ids


def test_error_code_members_for_type_checkers_are_the_cores() -> None:
    tree = ast.parse((ROOT / "python" / "fluss" / "_errors.py").read_text())
    declared = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "ErrorCode":
            for stmt in node.body:
                if isinstance(stmt, ast.Assign):
                    declared[stmt.targets[0].id] = ast.literal_eval(stmt.value)
    assert declared == _fluss._error_codes()
    assert {m.name: m.value for m in fluss.ErrorCode} == declared
