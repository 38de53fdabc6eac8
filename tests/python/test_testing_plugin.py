"""The pytest plugin fluss.testing: a user's own test file using its fixtures passes, on the
cluster of FLUSS_BOOTSTRAP_SERVERS and through the packaged launcher (reusing the running
local cluster of this checkout, which it then leaves running)."""

from __future__ import annotations

import importlib.metadata
import os
import pathlib
import subprocess

import fluss.testing

pytest_plugins = ["pytester"]

ROOT = pathlib.Path(__file__).resolve().parents[2]

USER_TESTS = '''
import pyarrow as pa
import pytest
import fluss


def test_servers(fluss_bootstrap_servers):
    assert fluss_bootstrap_servers == EXPECTED


@pytest.mark.asyncio
async def test_write_and_read(fluss_connection, fluss_admin, fluss_database):
    assert fluss_database.startswith("test_")
    assert await fluss_admin.database_exists(fluss_database)
    path = fluss.TablePath(fluss_database, "t")
    schema = fluss.Schema(pa.schema([("id", pa.int64()), ("name", pa.string())]))
    await fluss_admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=1))
    table = await fluss_connection.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "name": "a"})
    writer.append({"id": 2, "name": "b"})
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    assert scanner.to_arrow().to_pylist() == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    LEFT.append(fluss_database)


LEFT = []


def test_database_dropped_after_the_test(fluss_bootstrap_servers):
    import asyncio

    async def check():
        async with await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": fluss_bootstrap_servers})) as c:
            return await (await c.get_admin()).database_exists(LEFT[0])
    assert asyncio.run(check()) is False
'''


def _plugin_args():
    """``-p fluss.testing`` unless the installed package's pytest11 entry point loads it."""
    installed = any(ep.name == "fluss" and ep.value == "fluss.testing"
                    for ep in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "fluss.testing"]


def _run(pytester, expected: str):
    pytester.makepyfile(test_user=USER_TESTS.replace("EXPECTED", repr(expected)))
    return pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-v")


def test_fixtures_with_an_existing_cluster(pytester, bootstrap_servers, monkeypatch):
    monkeypatch.setenv("FLUSS_BOOTSTRAP_SERVERS", bootstrap_servers)
    result = _run(pytester, bootstrap_servers)
    result.assert_outcomes(passed=3)


def test_bootstrap_option_beats_the_environment(pytester, bootstrap_servers, monkeypatch):
    monkeypatch.setenv("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:1")
    pytester.makepyfile(test_opt="def test_it(fluss_bootstrap_servers):\n"
                                 f"    assert fluss_bootstrap_servers == {bootstrap_servers!r}\n")
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider",
                                           f"--fluss-bootstrap-servers={bootstrap_servers}")
    result.assert_outcomes(passed=1)


def test_fixtures_through_the_packaged_launcher(pytester, bootstrap_servers, monkeypatch):
    """Without FLUSS_BOOTSTRAP_SERVERS the plugin runs fluss/_launcher/local-cluster start; with
    LOCAL_CLUSTER_HOME naming this checkout's running default cluster, start reuses it (so this
    test starts no second cluster), and the plugin does not stop what it did not start."""
    home = ROOT / ".local-cluster"
    status = subprocess.run([str(ROOT / "tools" / "local-cluster"), "status"], capture_output=True, text=True)
    assert status.returncode == 0, "this test needs the default local cluster of tools/local-cluster up:\n" + status.stdout
    assert status.stdout.splitlines()[-1] == "bootstrap.servers=127.0.0.1:9123"
    assert fluss.testing.LAUNCHER.is_file()
    monkeypatch.delenv("FLUSS_BOOTSTRAP_SERVERS", raising=False)
    monkeypatch.setenv("LOCAL_CLUSTER_HOME", str(home))
    result = _run(pytester, "127.0.0.1:9123")
    result.assert_outcomes(passed=3)
    after = subprocess.run([str(ROOT / "tools" / "local-cluster"), "status"], capture_output=True, text=True)
    assert after.returncode == 0 and after.stdout.splitlines()[0] == status.stdout.splitlines()[0]


def test_default_home_is_a_per_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("LOCAL_CLUSTER_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert fluss.testing.default_home() == tmp_path / ".cache" / "fluss-cpp" / "local-cluster"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fluss.testing.default_home() == tmp_path / "xdg" / "fluss-cpp" / "local-cluster"
    # The launcher agrees: without a project root its home is the same directory.
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOCAL_CLUSTER_")}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    p = subprocess.run(["bash", str(fluss.testing.LAUNCHER), "wipe"], env=env, capture_output=True, text=True)
    home = tmp_path / "xdg" / "fluss-cpp" / "local-cluster"
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines()[-1] == f"local-cluster: wiped {home} (kept {home}/lib)"
    # tools/local-cluster keeps <root>/.local-cluster and names itself in messages.
    q = subprocess.run([str(ROOT / "tools" / "local-cluster"), "bogus"], capture_output=True, text=True)
    assert q.returncode == 2 and q.stderr.startswith(f"usage: {ROOT / 'tools' / 'local-cluster'} start ")
