"""SASL/PLAIN against a real cluster (conftest.py: a CLIENT listener with SASL/PLAIN and a
PLAINTEXT listener next to it): good credentials in both key spellings and as a JAAS line,
exact values written and read back through the authenticated coordinator and tablet-server
connections, wrong credentials and the wrong listener refused at once with
AUTHENTICATE_EXCEPTION (46), a reconnect after a tablet-server restart authenticating again,
and the password in no string form, message or log."""

from __future__ import annotations

import asyncio
import logging
import os
import time

import pyarrow as pa
import pytest

import fluss
from conftest import USERS, lc, sasl_config

LOG_SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string())])
PK_SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("name", pa.string()), ("score", pa.float64())])
JAAS = 'org.apache.fluss.security.auth.sasl.plain.PlainLoginModule required username="{u}" password="{p}";'
#: Connect calls below run with this request timeout; a refusal must come long before it.
# The request timeout of the refused connects: a client that retried a refusal would wait it out,
# so a refusal taking under half of it was not retried (a margin no loaded machine comes near).
TIMEOUT_S = 300


async def connect(config: fluss.Config) -> fluss.FlussConnection:
    return await asyncio.wait_for(fluss.FlussConnection.connect(config), TIMEOUT_S * 2)


async def refused(config: fluss.Config) -> tuple:
    """(the FlussError of connect(config), seconds it took)."""
    t0 = time.monotonic()
    with pytest.raises(fluss.FlussError) as info:
        await connect(config)
    return info.value, time.monotonic() - t0


async def create(conn, path, schema, primary_keys=None, buckets=2):
    admin = await conn.get_admin()
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema, primary_keys=primary_keys),
                                                         bucket_count=buckets))
    return await conn.get_table(path)


async def test_java_keys_log_table_append_and_read_back(alice, tables):
    table = await create(alice, tables("sasl_log"), LOG_SCHEMA, buckets=3)
    writer = await table.new_append_writer()
    for i in range(10):
        writer.append({"id": i, "name": f"n{i}"})
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
    got = (await scanner.to_arrow_async()).sort_by("id").to_pylist()
    assert got == [{"id": i, "name": f"n{i}"} for i in range(10)]


async def test_pyfluss_keys_primary_key_upsert_and_lookup(sasl_cluster, tables):
    conn = await connect(sasl_config(sasl_cluster, user="admin", spelling="pyfluss"))
    try:
        table = await create(conn, tables("sasl_pk"), PK_SCHEMA, primary_keys=["id"])
        writer = table.new_upsert()
        writer.upsert({"id": 1, "name": "Alice", "score": 95.5})
        writer.upsert({"id": 2, "name": "Bob", "score": 87.0})
        writer.upsert({"id": 1, "name": "Alice", "score": 96.0})
        await writer.flush()
        lookuper = table.new_lookup()
        assert await lookuper.lookup({"id": 1}) == {"id": 1, "name": "Alice", "score": 96.0}
        assert await lookuper.lookup({"id": 2}) == {"id": 2, "name": "Bob", "score": 87.0}
        assert await lookuper.lookup({"id": 3}) is None
    finally:
        conn.close()


async def test_jaas_config_line(sasl_cluster):
    conn = await connect(fluss.Config({
        "bootstrap.servers": sasl_cluster.sasl,
        "client.security.protocol": "sasl",
        "client.security.sasl.jaas.config": JAAS.format(u="alice", p=USERS["alice"]),
    }))
    try:
        assert "fluss" in await (await conn.get_admin()).list_databases()
    finally:
        conn.close()


@pytest.mark.parametrize("user, password", [("alice", "not-alices-password"), ("mallory", "mallory-secret")])
async def test_wrong_credentials_fail_at_once_with_46(sasl_cluster, user, password):
    cfg = sasl_config(sasl_cluster, user=user, password=password, **{"client.request-timeout": f"{TIMEOUT_S} s"})
    err, took = await refused(cfg)
    assert err.error_code == fluss.ErrorCode.AUTHENTICATE_EXCEPTION == 46
    assert not err.is_retriable()
    assert f"SASL/PLAIN authentication of user '{user}' at {sasl_cluster.sasl} failed" in err.message
    assert "Invalid username or password" in err.message
    assert password not in str(err) and password not in repr(err)
    # The server's answer is final: no retries until the request timeout.
    assert took < TIMEOUT_S / 2, took


async def test_sasl_client_on_the_plaintext_listener_fails_clearly(sasl_cluster):
    cfg = sasl_config(sasl_cluster, **{"bootstrap.servers": sasl_cluster.plain,
                                       "client.request-timeout": f"{TIMEOUT_S} s"})
    err, took = await refused(cfg)
    assert err.error_code == fluss.ErrorCode.AUTHENTICATE_EXCEPTION
    assert f"at {sasl_cluster.plain} failed" in err.message
    assert "this listener is PLAINTEXT" in err.message
    assert took < TIMEOUT_S / 2, took


async def test_plaintext_client_on_the_sasl_listener_fails_clearly(sasl_cluster):
    cfg = fluss.Config({"bootstrap.servers": sasl_cluster.sasl, "client.request-timeout": f"{TIMEOUT_S} s"})
    err, took = await refused(cfg)
    assert err.error_code == fluss.ErrorCode.AUTHENTICATE_EXCEPTION
    assert f"server {sasl_cluster.sasl}" in err.message
    assert "client.security.protocol" in err.message  # the server names the key to set
    assert took < TIMEOUT_S / 2, took
    # ... while a plaintext client is served by the plaintext listener of the same cluster.
    conn = await connect(fluss.Config({"bootstrap.servers": sasl_cluster.plain}))
    try:
        assert "fluss" in await (await conn.get_admin()).list_databases()
    finally:
        conn.close()


async def test_password_is_in_no_string_message_or_log(sasl_cluster, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    good = sasl_config(sasl_cluster)
    jaas = fluss.Config({"client.security.protocol": "SASL",
                         "client.security.sasl.jaas.config": JAAS.format(u="alice", p=USERS["alice"])})
    secrets = [USERS["alice"], "wrong-pw-123"]
    shown = [repr(good), str(good), repr(jaas), str(jaas)]
    assert "'client.security.sasl.password': '******'" in repr(good)
    conn = await connect(good)
    try:
        shown += [repr(conn), str(conn)]
        admin = await conn.get_admin()
        shown.append(repr(admin))
        await admin.list_databases()
    finally:
        conn.close()
    err, _ = await refused(sasl_config(sasl_cluster, password="wrong-pw-123"))
    shown += [str(err), repr(err), err.message]
    # Config errors: a credential without SASL, a value of a wrong type, a broken JAAS line.
    for props in ({"client.security.sasl.username": "alice", "client.security.sasl.password": "wrong-pw-123"},
                  {"client.security.protocol": "SASL", "client.security.sasl.username": "alice",
                   "client.security.sasl.password": b"wrong-pw-123"},
                  {"client.security.protocol": "SASL",
                   "client.security.sasl.jaas.config": JAAS.format(u="alice", p="wrong-pw-123")[:-2]}):
        with pytest.raises(fluss.FlussError) as info:
            fluss.Config(props)
        shown += [str(info.value), repr(info.value)]
    out, errout = capfd.readouterr()
    shown += [out, errout] + [r.getMessage() for r in caplog.records]
    for text in shown:
        for secret in secrets:
            assert secret not in text, text


async def test_reconnect_after_tablet_server_restart_authenticates_again(sasl_cluster, alice, tables):
    """The tablet server is killed (-9) and restarted: the connection's lookups and writes after
    it open a new connection to the restarted server, authenticated again before any other
    request (a request before authentication would be refused with 46). Nothing is written
    before the kill: with one replica a kill -9 may lose writes newer than the server's last
    high-watermark checkpoint (Fluss 0.9.1), which is not what this test is about."""
    if not sasl_cluster.local:
        msg = "needs the local SASL cluster of tools/local-cluster (FLUSS_SASL_HOME) to restart its tablet server"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    table = await create(alice, tables("sasl_restart"), PK_SCHEMA, primary_keys=["id"], buckets=1)
    lookuper = table.new_lookup()
    assert await asyncio.wait_for(lookuper.lookup({"id": 1}), 120) is None  # a live connection to ts-0

    await asyncio.to_thread(lc, "kill", "ts-0")
    await asyncio.to_thread(lc, "restart", "ts-0")

    writer = table.new_upsert()
    writer.upsert({"id": 1, "name": "one", "score": 1.0})
    writer.upsert({"id": 2, "name": "two", "score": 2.0})
    await asyncio.wait_for(writer.flush(), 180)  # retried by the writer while leaders move back
    # Lookups retry retriable errors themselves (lookup/lookup_sender.cc).
    assert await asyncio.wait_for(lookuper.lookup({"id": 1}), 120) == {"id": 1, "name": "one", "score": 1.0}
    assert await asyncio.wait_for(lookuper.lookup({"id": 2}), 120) == {"id": 2, "name": "two", "score": 2.0}
    assert await (await alice.get_admin()).table_exists(table.get_table_path())
