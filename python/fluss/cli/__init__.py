"""The ``fluss`` command line (``python -m fluss``, or the ``fluss`` entry point):

``fluss databases``; ``fluss tables DB``; ``fluss describe DB.TABLE``; ``fluss create DB`` /
``fluss create DB.TABLE --schema 'id BIGINT, name STRING' [...]``; ``fluss drop DB.TABLE`` /
``fluss drop DB [--cascade]``; ``fluss tail DB.TABLE [--from ...] [--format ...]``; ``fluss
produce DB.TABLE FILE``. ``fluss COMMAND --help`` describes each.
"""

from __future__ import annotations

from ._app import build_parser, main

__all__ = ["build_parser", "main"]
