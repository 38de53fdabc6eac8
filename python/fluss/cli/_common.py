"""What every sub-command shares: the user-facing error, ``DB.TABLE`` arguments, the
connection settings, and opening a connection."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, TextIO

import fluss

DEFAULT_BOOTSTRAP = "127.0.0.1:9123"
ENV_BOOTSTRAP = "FLUSS_BOOTSTRAP_SERVERS"


class CliError(Exception):
    """An error reported as one line ``fluss: error: <message>`` on stderr, exit code
    ``exit_code`` (1: the command failed; 2: a bad command line)."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def key_values(pairs: List[str], option: str) -> Dict[str, str]:
    """``key=value`` texts as a dict (the key stripped, the value as given). Raises CliError (2)
    naming ``option`` for a pair without ``=`` or with an empty key."""
    result: Dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise CliError(f"{option}: expected key=value, got {pair!r}", 2)
        result[key.strip()] = value
    return result


@dataclass
class Settings:
    """Connection settings from the global options.

    Attributes:
        bootstrap_servers: ``host:port[,host:port...]`` (``--bootstrap-servers``, else
            $FLUSS_BOOTSTRAP_SERVERS, else 127.0.0.1:9123).
        config: further ``fluss.Config`` keys from ``-c key=value`` (later ones win).
    """

    bootstrap_servers: str = DEFAULT_BOOTSTRAP
    config: Dict[str, str] = field(default_factory=dict)

    @staticmethod
    def of(bootstrap: Optional[str], pairs: List[str]) -> "Settings":
        """Settings from the option values: ``bootstrap`` (None: the environment or the
        default) and ``pairs`` of ``key=value`` text. Raises CliError (2) for a pair without
        ``=`` or with an empty key."""
        config = key_values(pairs, "-c/--config")
        servers = bootstrap or os.environ.get(ENV_BOOTSTRAP) or config.get("bootstrap.servers") or DEFAULT_BOOTSTRAP
        return Settings(servers, config)

    def fluss_config(self, extra: Optional[Dict[str, str]] = None) -> fluss.Config:
        """The ``fluss.Config``: the ``-c`` keys, ``extra`` over them, and bootstrap.servers.
        Raises FlussError naming a key that is unknown or whose value does not parse."""
        props: Dict[str, str] = dict(self.config)
        props.update(extra or {})
        props["bootstrap.servers"] = self.bootstrap_servers
        return fluss.Config(props)

    async def connect(self, extra: Optional[Dict[str, str]] = None) -> fluss.FlussConnection:
        """A connection to the cluster. Raises FlussError (1 NETWORK_EXCEPTION when no server
        answers)."""
        return await fluss.FlussConnection.connect(self.fluss_config(extra))


def table_path(text: str, argument: str = "DB.TABLE") -> fluss.TablePath:
    """``DB.TABLE`` as a TablePath (split at the first dot). Raises CliError (2) naming
    ``argument`` when either part is missing or empty."""
    db, dot, table = text.partition(".")
    if not dot or not db or not table:
        raise CliError(f"{argument}: expected DATABASE.TABLE, got {text!r}", 2)
    return fluss.TablePath(db, table)


def write_lines(out: TextIO, lines: List[str]) -> None:
    """Writes ``lines`` to ``out``, each ended by a newline, and flushes."""
    for line in lines:
        out.write(line + "\n")
    out.flush()


def align(rows: List[List[str]], indent: str = "") -> List[str]:
    """``rows`` of cells as lines with the columns left-aligned, two spaces apart (trailing
    spaces removed)."""
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(max(len(r) for r in rows))]
    return [(indent + "  ".join(c.ljust(widths[i]) for i, c in enumerate(r))).rstrip() for r in rows]
