"""The native module ``fluss._fluss``, wired to the Python helpers it calls back.

Modules that call into the native module import it from here, so the helpers (error factory,
future factory, cancellation check) are set before the first native call, whatever the import
order.
"""

from __future__ import annotations

from . import _fluss
from ._async import as_coroutine, cancel_requested, future_from
from ._errors import _make_error

_fluss._set_helpers(_make_error, future_from, cancel_requested, as_coroutine)

__all__ = ["_fluss"]
