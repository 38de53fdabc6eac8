"""SASL-suite fixtures: a real cluster whose client listener is SASL/PLAIN, with a PLAINTEXT
listener next to it (``tools/local-cluster start --sasl``; shared/docs/cluster.md section 4).

Which cluster: ``FLUSS_SASL_BOOTSTRAP_SERVERS`` (its SASL listener) and
``FLUSS_SASL_PLAIN_BOOTSTRAP_SERVERS`` (its plaintext listener), both or neither. With neither
this conftest starts its own (and leaves it running; ``tools/local-cluster stop`` with the same
LOCAL_CLUSTER_HOME stops it, tools/test does) in ``$FLUSS_SASL_HOME`` (default
<root>/.local-cluster/sasl), SASL port ``$FLUSS_SASL_PORT`` (9423: SASL 9423-9424, plaintext
9523-9524, internal 9623-9624) and ZooKeeper ``$FLUSS_SASL_ZK_PORT`` (2201), clear of the default
cluster (9123/2181) and the fault cluster (9223/2191). The suite is never skipped: without a
cluster it errors. The users are the cluster's: admin/admin-secret and alice/alice-secret.

The restart test acts on the cluster through tools/local-cluster, so it needs the local SASL
cluster (the one in $FLUSS_SASL_HOME, also when the variables name it); on another cluster it
is skipped, and fails when CI=true.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import subprocess
import sys
import uuid
from dataclasses import dataclass
from typing import Dict, List, Optional

import pytest

import fluss

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from served_tables import tables_the_coordinator_serves  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
LC = str(ROOT / "tools" / "local-cluster")
HOME = os.environ.get("FLUSS_SASL_HOME", str(ROOT / ".local-cluster" / "sasl"))
PORT = int(os.environ.get("FLUSS_SASL_PORT", "9423"))
ZK_PORT = int(os.environ.get("FLUSS_SASL_ZK_PORT", "2201"))
_LC_ENV = dict(os.environ, LOCAL_CLUSTER_HOME=HOME, LOCAL_CLUSTER_ZK_PORT=str(ZK_PORT))

#: The cluster's users (its security.sasl.plain.jaas.config, tools/local-cluster write_conf).
USERS = {"admin": "admin-secret", "alice": "alice-secret"}


def lc(*args: str, check: bool = True, timeout: float = 400) -> subprocess.CompletedProcess:
    """Runs tools/local-cluster on the local SASL cluster's home."""
    p = subprocess.run([LC, *args], env=_LC_ENV, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError(f"tools/local-cluster {' '.join(args)} exited {p.returncode}:\n{p.stderr[-3000:]}")
    return p


def _bootstrap_lines(stdout: str) -> Dict[str, str]:
    """{"bootstrap.servers": ..., "plaintext.bootstrap.servers": ...} from start/status output."""
    out = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep and key in ("bootstrap.servers", "plaintext.bootstrap.servers"):
            out[key] = value
    return out


@dataclass
class SaslCluster:
    sasl: str   #: bootstrap.servers of the SASL/PLAIN listener
    plain: str  #: bootstrap.servers of the PLAINTEXT listener of the same cluster
    local: bool  #: the local SASL cluster of $FLUSS_SASL_HOME (tools/local-cluster can act on it)

    def status(self) -> Dict[str, str]:
        """{process: up | frozen | down} of the local cluster."""
        out = {}
        for line in lc("status", check=False, timeout=60).stdout.splitlines():
            name, sep, rest = line.strip().partition(": ")
            if sep and (name in ("zk", "cs") or name.startswith("ts-")):
                out[name] = rest.split(" ")[0]
        return out

    def restore(self) -> None:
        """Restarts the tablet server a test left down (the restart test kills it)."""
        if self.local and self.status().get("ts-0") == "down":
            lc("restart", "ts-0")


def _start() -> SaslCluster:
    sasl = os.environ.get("FLUSS_SASL_BOOTSTRAP_SERVERS")
    plain = os.environ.get("FLUSS_SASL_PLAIN_BOOTSTRAP_SERVERS")
    if sasl or plain:
        if not (sasl and plain):
            raise pytest.UsageError("set both FLUSS_SASL_BOOTSTRAP_SERVERS and FLUSS_SASL_PLAIN_BOOTSTRAP_SERVERS "
                                    "(the SASL and the plaintext listener of one cluster), or neither")
        st = lc("status", check=False, timeout=60)
        local = st.returncode == 0 and _bootstrap_lines(st.stdout).get("bootstrap.servers") == sasl
        return SaslCluster(sasl, plain, local)
    p = lc("start", "--sasl", "--port", str(PORT), timeout=900)
    lines = _bootstrap_lines(p.stdout)
    assert set(lines) == {"bootstrap.servers", "plaintext.bootstrap.servers"}, p.stdout
    return SaslCluster(lines["bootstrap.servers"], lines["plaintext.bootstrap.servers"], True)


@pytest.fixture(scope="session")
def sasl_cluster() -> SaslCluster:
    c = _start()
    c.restore()
    return c


@pytest.fixture(autouse=True)
def _restore_after_test(sasl_cluster):
    yield
    sasl_cluster.restore()


def sasl_config(cluster: SaslCluster, user: str = "alice", password: Optional[str] = None,
                spelling: str = "java", **extra: str) -> fluss.Config:
    """A fluss.Config for the SASL listener as ``user`` (its own password unless ``password``),
    with the Java client's keys (``spelling="java"``) or the pyfluss ones (``"pyfluss"``)."""
    prefix = {"java": "client.security.", "pyfluss": "security."}[spelling]
    props = {
        "bootstrap.servers": cluster.sasl,
        prefix + "protocol": "SASL",
        prefix + "sasl.mechanism": "PLAIN",
        prefix + "sasl.username": user,
        prefix + "sasl.password": USERS[user] if password is None else password,
    }
    props.update(extra)
    return fluss.Config(props)


@pytest.fixture(scope="session", autouse=True)
def _tables_the_coordinator_serves():
    """Tables Fluss 0.9.1's coordinator missed are created again (tests/support/served_tables.py)."""
    with tables_the_coordinator_serves(pathlib.Path(HOME) / "logs" / "cs.log"):
        yield


@pytest.fixture
async def alice(sasl_cluster):
    """A connection to the SASL listener as alice."""
    c = await asyncio.wait_for(fluss.FlussConnection.connect(sasl_config(sasl_cluster)), 60)
    yield c
    c.close()


@pytest.fixture
async def tables(alice):
    """Paths of fluss.sasl_<uuid> tables for the test; dropped afterwards."""
    created: List[fluss.TablePath] = []

    def new(prefix: str = "sasl") -> fluss.TablePath:
        path = fluss.TablePath("fluss", f"{prefix}_{uuid.uuid4().hex[:10]}")
        created.append(path)
        return path

    yield new
    admin = await alice.get_admin()
    for p in created:
        await admin.drop_table(p, ignore_if_not_exists=True)

