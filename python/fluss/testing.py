"""pytest plugin ``fluss.testing``: a real Fluss cluster for your own tests.

Loaded by the ``pytest11`` entry point ``fluss`` (or ``-p fluss.testing``). Fixtures:

- ``fluss_bootstrap_servers`` (session): ``host:port`` of a running cluster. It is
  ``--fluss-bootstrap-servers`` or $FLUSS_BOOTSTRAP_SERVERS when given; otherwise the plugin
  starts a local cluster with the launcher shipped in the package (``fluss/_launcher/
  local-cluster``: ZooKeeper, a coordinator and a tablet server as JVM processes from Maven
  Central jars; needs ``java`` 11+ and ``mvn`` on PATH, and the ports 9123-9124 and 2181 free),
  home $LOCAL_CLUSTER_HOME or ``~/.cache/fluss-cpp/local-cluster``, and stops it at the end of
  the session if it started it (a cluster already running there is reused and left running).
- ``fluss_config`` (function): a ``fluss.Config`` for it.
- ``fluss_connection`` (async, function): an open ``fluss.FlussConnection``, closed after the
  test.
- ``fluss_admin`` (async, function): its ``FlussAdmin``.
- ``fluss_database`` (async, function): the name of a new database of its own for the test,
  dropped with its tables afterwards.

The async fixtures need pytest-asyncio (any mode: they are ``pytest_asyncio.fixture``).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import uuid
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Iterator, List, Optional

import pytest

if TYPE_CHECKING:
    import fluss

ENV_BOOTSTRAP = "FLUSS_BOOTSTRAP_SERVERS"
#: The launcher script inside the package.
LAUNCHER = pathlib.Path(__file__).resolve().parent / "_launcher" / "local-cluster"


def default_home() -> pathlib.Path:
    """Where a cluster the plugin starts lives: $LOCAL_CLUSTER_HOME, else
    ``$XDG_CACHE_HOME/fluss-cpp/local-cluster`` (``~/.cache`` without XDG_CACHE_HOME)."""
    home = os.environ.get("LOCAL_CLUSTER_HOME")
    if home:
        return pathlib.Path(home).absolute()
    cache = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return pathlib.Path(cache) / "fluss-cpp" / "local-cluster"


class LocalCluster:
    """A cluster run by the packaged launcher in ``home``.

    Args:
        home: the launcher's LOCAL_CLUSTER_HOME (its data, logs and jar cache).
    """

    def __init__(self, home: pathlib.Path):
        self.home = home
        self.started = False

    def _run(self, verb: str) -> "subprocess.CompletedProcess[str]":
        """Runs ``local-cluster <verb>`` in ``home``; its stdout and stderr captured."""
        env = dict(os.environ, LOCAL_CLUSTER_HOME=str(self.home))
        env.pop("LOCAL_CLUSTER_ROOT", None)
        return subprocess.run(["bash", str(LAUNCHER), verb], env=env, capture_output=True, text=True)

    def start(self) -> str:
        """Starts the cluster (or reuses the one running in ``home``) and returns its bootstrap
        servers (``127.0.0.1:9123``). ``started`` says whether this call started it.

        Raises:
            RuntimeError: with the launcher's last output lines when it fails (no java or mvn,
                ports in use, a server that did not come up).
        """
        running = self._run("status").returncode == 0
        p = self._run("start")
        lines = p.stdout.strip().splitlines()
        if p.returncode != 0 or not lines or not lines[-1].startswith("bootstrap.servers="):
            tail = "\n".join(p.stderr.strip().splitlines()[-20:])
            raise RuntimeError(f"fluss.testing: {LAUNCHER} start (LOCAL_CLUSTER_HOME={self.home}) exited "
                               f"{p.returncode}:\n{tail}")
        self.started = not running
        return lines[-1].split("=", 1)[1]

    def stop(self) -> None:
        """Stops the cluster if ``start`` started it. Raises RuntimeError when the launcher
        fails."""
        if not self.started:
            return
        p = self._run("stop")
        self.started = False
        if p.returncode != 0:
            raise RuntimeError(f"fluss.testing: {LAUNCHER} stop exited {p.returncode}:\n{p.stderr[-2000:]}")


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--fluss-bootstrap-servers HOST:PORT``: use this cluster (over $FLUSS_BOOTSTRAP_SERVERS)."""
    group = parser.getgroup("fluss", "Fluss cluster for tests (fluss.testing)")
    group.addoption("--fluss-bootstrap-servers", dest="fluss_bootstrap_servers", default=None,
                    metavar="HOST:PORT", help="the Fluss cluster the fluss_* fixtures use (default: "
                    "$FLUSS_BOOTSTRAP_SERVERS, else a local cluster started with the packaged launcher)")


@pytest.fixture(scope="session")
def fluss_bootstrap_servers(request: pytest.FixtureRequest) -> Iterator[str]:
    """``host:port[,...]`` of a running Fluss cluster for the session (see the module doc)."""
    given: Optional[str] = request.config.getoption("fluss_bootstrap_servers") or os.environ.get(ENV_BOOTSTRAP)
    if given:
        yield given
        return
    cluster = LocalCluster(default_home())
    servers = cluster.start()
    try:
        yield servers
    finally:
        cluster.stop()


@pytest.fixture
def fluss_config(fluss_bootstrap_servers: str) -> "fluss.Config":
    """A ``fluss.Config`` with ``bootstrap.servers`` of ``fluss_bootstrap_servers``."""
    import fluss

    return fluss.Config({"bootstrap.servers": fluss_bootstrap_servers})


def _async_fixture() -> Callable[[Any], Any]:
    """``pytest_asyncio.fixture`` when pytest-asyncio is installed; else a plain fixture
    decorator whose fixture fails saying pytest-asyncio is needed."""
    try:
        import pytest_asyncio
    except ImportError:
        def plain(fn: Any) -> Any:
            def missing(*_: Any, **__: Any) -> None:
                pytest.fail(f"fluss.testing: fixture {fn.__name__} needs pytest-asyncio (pip install pytest-asyncio)")
            missing.__name__ = fn.__name__
            missing.__doc__ = fn.__doc__
            return pytest.fixture(missing)
        return plain
    return pytest_asyncio.fixture


_async = _async_fixture()


@_async
async def fluss_connection(fluss_config: "fluss.Config") -> AsyncIterator["fluss.FlussConnection"]:
    """An open ``fluss.FlussConnection`` to the session's cluster, closed (flushing pending
    writes) after the test."""
    import fluss

    conn = await fluss.FlussConnection.connect(fluss_config)
    try:
        yield conn
    finally:
        await conn.close()


@_async
async def fluss_admin(fluss_connection: "fluss.FlussConnection") -> "fluss.FlussAdmin":
    """The ``FlussAdmin`` of ``fluss_connection``."""
    return await fluss_connection.get_admin()


@_async
async def fluss_database(fluss_admin: "fluss.FlussAdmin") -> AsyncIterator[str]:
    """The name of a database created for the test (``test_<10 hex digits>``), dropped with
    its tables after it."""
    name = "test_" + uuid.uuid4().hex[:10]
    await fluss_admin.create_database(name)
    try:
        yield name
    finally:
        await fluss_admin.drop_database(name, ignore_if_not_exists=True, cascade=True)


__all__: List[str] = ["LAUNCHER", "LocalCluster", "default_home", "fluss_admin", "fluss_bootstrap_servers",
                      "fluss_config", "fluss_connection", "fluss_database"]
