"""Config: the client configuration, checked by the core's parser when set."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ._errors import FlussError
from ._native import _fluss
from ._validate import _as_text


#: Keys whose values are secrets: ``repr(Config)`` shows them masked.
_SECRET_KEYS = frozenset({
    "client.security.sasl.password",
    "security.sasl.password",
    "client.security.sasl.jaas.config",  # holds the password
})
_MASK = "******"

_SEED_DEFAULTS = {
    "bootstrap.servers": "127.0.0.1:9123",
    "request.max.size": "10485760",
    "writer.acks": "all",
    "writer.retries": "2147483647",
    "writer.batch.size": "2097152",
}


class Config:
    """Client configuration.

    Args:
        properties: ``{key: value}``. Seed keys (defaults): ``bootstrap.servers``
            (``127.0.0.1:9123``, comma-separated ``host:port`` list), ``request.max.size``
            (10485760 bytes), ``writer.acks`` (``all``), ``writer.retries`` (2147483647),
            ``writer.batch.size`` (2097152 bytes). Java client keys are accepted too, e.g.
            ``client.request-timeout`` (30 s), ``client.connect-timeout`` (120 s),
            ``client.writer.batch-timeout`` (100 ms), ``client.writer.buffer.memory-size``
            (64 MiB), ``client.writer.buffer.wait-timeout``, ``client.writer.enable-idempotence``,
            ``client.writer.delivery-timeout`` (120 s: how long a write may be retried across
            leader changes before its handle and the next ``flush()`` fail),
            ``client.writer.dynamic-create-partition.enabled`` (false: a row for a partition
            that does not exist fails with PARTITION_NOT_EXISTS; true: the writer creates it),
            ``client.scanner.log.fetch.max-bytes`` (16 MiB),
            ``client.scanner.log.fetch.max-bytes-for-bucket`` (1 MiB),
            ``client.scanner.log.fetch.min-bytes`` (1), ``client.scanner.log.fetch.wait-max-time``
            (500 ms), ``client.scanner.log.check-crc`` (true: every fetched batch's CRC-32C is
            verified; a mismatch fails the read with CORRUPT_RECORD_EXCEPTION). Sizes take bytes or units (``64mb``); durations take milliseconds or units
            (``30 s``). Values may be str, int or bool.
            Authentication (SASL/PLAIN, as the Java client; the later pyfluss spellings in
            brackets): ``client.security.protocol`` [``security.protocol``] (``PLAINTEXT``, or
            ``SASL``: every connection authenticates before any other request),
            ``client.security.sasl.mechanism`` [``security.sasl.mechanism``] (``PLAIN``, the only
            one), ``client.security.sasl.username`` [``security.sasl.username``] and
            ``client.security.sasl.password`` [``security.sasl.password``], or instead
            ``client.security.sasl.jaas.config`` (``org.apache.fluss.security.auth.sasl.plain.
            PlainLoginModule required username="u" password="p";``).

    Raises:
        FlussError: for an unknown key or a value that does not parse, naming the key; also for
            SASL without both username and password, a username or password without SASL, an
            unknown protocol or mechanism, or a JAAS line that does not parse. No message
            contains the password.
    """

    def __init__(self, properties: Optional[Dict[str, Any]] = None) -> None:
        if properties is not None and not isinstance(properties, dict):
            raise FlussError(f"Config: properties must be a dict, got {type(properties).__name__}")
        self._props: Dict[str, str] = {}
        for key, value in (properties or {}).items():
            self._set(key, value)
        _fluss._validate_config(self._props)

    def _set(self, key: object, value: object) -> None:
        if not isinstance(key, str):
            raise FlussError(f"config key {key!r} must be a str")
        text = _as_text(value)
        if text is None:
            shown = f"of type {type(value).__name__}" if key in _SECRET_KEYS else repr(value)
            raise FlussError(f"config '{key}': value {shown} must be a str, int or bool")
        self._props[key] = text

    def _get(self, key: str) -> str:
        return self._props.get(key, _SEED_DEFAULTS.get(key, ""))

    def _update(self, key: str, value: object) -> None:
        old = dict(self._props)
        self._set(key, value)
        try:
            _fluss._validate_config(self._props)
        except FlussError:
            self._props = old
            raise

    @property
    def bootstrap_server(self) -> str:
        """``bootstrap.servers``: the servers to ask for cluster metadata."""
        return self._get("bootstrap.servers")

    @bootstrap_server.setter
    def bootstrap_server(self, value: str) -> None:
        self._update("bootstrap.servers", value)

    @property
    def request_max_size(self) -> int:
        """``request.max.size``: largest produce request in bytes."""
        return int(self._get("request.max.size"))

    @request_max_size.setter
    def request_max_size(self, value: int) -> None:
        self._update("request.max.size", value)

    @property
    def writer_batch_size(self) -> int:
        """``writer.batch.size``: bytes at which a bucket's batch is closed and sent."""
        return int(self._get("writer.batch.size"))

    @writer_batch_size.setter
    def writer_batch_size(self, value: int) -> None:
        self._update("writer.batch.size", value)

    @classmethod
    def known_keys(cls) -> "list[dict[str, Any]]":
        """Every key a Config accepts, from the core's table of keys (``fluss::ConfigKeys()``
        in ``include/fluss/config_keys.h``), the same table the parser reads keys with; the
        user guide's configuration reference is generated from it.

        Returns:
            A new list with one dict per key, in the reference's order (seed keys first, then
            writer, scanner, lookup, request and security keys), each with:
            ``key`` (str, the Java client's spelling), ``seed_key`` and ``pyfluss_key`` (str or
            None: the seed guide's and pyfluss 1.0's spellings, accepted too; a pyfluss
            spelling beside the Java one is refused), ``default`` (str or None when unset: a
            value Config accepts, bytes as plain bytes and durations as plain milliseconds),
            ``kind`` (``"text"``, ``"bytes"``, ``"milliseconds"``, ``"count"``, ``"bool"``,
            ``"enum"`` or ``"secret"``), ``min`` and ``max`` (int or None: the accepted range
            of a bytes or count key; for milliseconds the least value and the cap longer
            durations are cut to), ``values`` (list of str or None: what an enum or bool key
            accepts, any case) and ``description`` (str, one sentence naming the Java or
            Kafka option it follows).
        """
        return _fluss._config_keys()

    def to_dict(self) -> Dict[str, str]:
        """The properties given (defaults not included), secrets (the SASL password) in clear."""
        return dict(self._props)

    def __repr__(self) -> str:
        """``fluss.Config({...})`` of the properties given, the SASL password and JAAS line masked."""
        shown = {k: (_MASK if k in _SECRET_KEYS else v) for k, v in self._props.items()}
        return f"fluss.Config({shown!r})"
