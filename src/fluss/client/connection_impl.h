// The shared core behind Connection, Admin, Table, writers and scanners: the I/O thread,
// server connections, metadata and typed RPC calls.
//
// Thread affinity: Create/Close/Post/Spawn and options() may be called from any thread;
// everything returning asio::awaitable runs on the I/O thread only.
#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <asio.hpp>
#include <google/protobuf/message_lite.h>

#include "fluss/client.h"
#include "fluss/client/metadata.h"
#include "fluss/net/server_connection.h"
#include "fluss/protocol/api_keys.h"
#include "fluss/protocol/frame.h"

namespace fluss::client {

using Clock = std::chrono::steady_clock;

/// Something that holds unacknowledged writes and can be flushed on Close.
class Flushable {
 public:
  virtual ~Flushable() = default;
  virtual void FlushAsync(StatusCallback done) = 0;
  /// Fails everything still pending with `status` (used when closing).
  virtual void Abort(const Status& status) = 0;
};

class ConnectionImpl : public std::enable_shared_from_this<ConnectionImpl> {
 public:
  static Result<std::shared_ptr<ConnectionImpl>> Create(const std::map<std::string, std::string>& properties);
  ~ConnectionImpl();

  const ClientOptions& options() const { return options_; }
  asio::io_context& io() { return io_; }
  bool closed() const { return closed_.load(); }

  /// Runs `aw` on the I/O thread and hands its result to `done` (on the I/O thread). After
  /// Close, `done` gets kClosed at once.
  template <typename T>
  void Spawn(asio::awaitable<Result<T>> aw, Callback<T> done);
  void SpawnStatus(asio::awaitable<Status> aw, StatusCallback done);

  /// Flushes registered writers, closes server connections and joins the I/O thread.
  Status Close();
  void RegisterFlushable(std::weak_ptr<Flushable> f);

  // ---- I/O thread only ----
  asio::awaitable<Status> Bootstrap();
  MetadataCache& metadata() { return metadata_; }
  /// Sends a MetadataRequest for `tables` (may be empty) and updates the cache.
  asio::awaitable<Status> RefreshMetadata(const std::vector<TablePath>& tables);
  /// Waits, refreshing with backoff, until every bucket in [0, num_buckets) of `path` has a
  /// live leader, or until `deadline` (then kTimeout).
  asio::awaitable<Status> WaitForLeaders(const TablePath& path, int32_t num_buckets, Clock::time_point deadline);
  /// GetTableInfo from the coordinator, parsed (server defaults included).
  asio::awaitable<Result<TableInfo>> FetchTableInfo(TablePath path);
  /// ListOffsets for `buckets` of a non-partitioned table, asking each bucket's leader.
  /// `offset_type`: 0 earliest, 1 latest (high watermark), 2 timestamp (needs `timestamp_ms`).
  /// With `partition_name`, the buckets are those of that partition of a partitioned table.
  asio::awaitable<Result<std::map<int32_t, int64_t>>> ListOffsets(const TableInfo& table,
                                                                  std::vector<int32_t> buckets,
                                                                  int32_t offset_type,
                                                                  std::optional<int64_t> timestamp_ms,
                                                                  std::optional<std::string> partition_name = std::nullopt);
  /// Id and bucket leaders (bucket -> node) of a partition, from a MetadataRequest.
  asio::awaitable<Result<std::pair<int64_t, std::map<int32_t, int32_t>>>> PartitionLeaders(
      const TablePath& path, const std::string& partition_name);
  /// Connection to tablet server `node_id` (must be in the metadata).
  std::shared_ptr<net::ServerConnection> TabletServer(int32_t node_id);
  /// Connection to the coordinator (refreshes the metadata if it is not known yet).
  asio::awaitable<Result<std::shared_ptr<net::ServerConnection>>> Coordinator();

  /// Sends `req` as `key` on `conn` and parses the response as Resp.
  template <typename Resp>
  asio::awaitable<Result<Resp>> Call(std::shared_ptr<net::ServerConnection> conn, protocol::ApiKey key,
                                     const google::protobuf::MessageLite& req);
  template <typename Resp>
  asio::awaitable<Result<Resp>> CallCoordinator(protocol::ApiKey key, const google::protobuf::MessageLite& req);

  /// Raw send with a callback (I/O thread); used by the writer's sender.
  asio::awaitable<Result<net::ResponseBody>> Send(std::shared_ptr<net::ServerConnection> conn,
                                                  protocol::ApiKey key, std::string frame);
  /// Sends a frame in pieces (record batches borrowed, not copied).
  asio::awaitable<Result<net::ResponseBody>> SendFrame(std::shared_ptr<net::ServerConnection> conn,
                                                       protocol::ApiKey key, net::OutgoingFrame frame);
  /// Sleeps on the I/O thread; returns at once when the connection is closing.
  asio::awaitable<void> Sleep(std::chrono::milliseconds d);
  /// A timer on the I/O thread that Close cancels, so no wait outlives the connection
  /// (I/O thread only).
  std::shared_ptr<asio::steady_timer> NewTimer();

 private:
  explicit ConnectionImpl(ClientOptions options);
  std::shared_ptr<net::ServerConnection> GetConnection(const std::string& key, const net::ServerEndpoint& ep);

  ClientOptions options_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
  std::atomic<bool> closed_{false};
  std::mutex close_mu_;
  std::vector<net::ServerEndpoint> bootstrap_;
  MetadataCache metadata_;
  std::map<std::string, std::shared_ptr<net::ServerConnection>> connections_;
  std::mutex flushables_mu_;
  std::vector<std::weak_ptr<Flushable>> flushables_;
  std::vector<std::weak_ptr<asio::steady_timer>> timers_;  // I/O thread: cancelled by Close
  std::promise<void> io_done_;                              // set when the I/O thread's run ends
};

// ---- templates ----

/// Runs `ops` concurrently on `io` and returns their results in order once all are done.
template <typename T>
asio::awaitable<std::vector<Result<T>>> WhenAll(asio::io_context& io, std::vector<asio::awaitable<Result<T>>> ops);

template <typename T>
struct GatherState {
  explicit GatherState(asio::io_context& io, size_t n) : timer(io), results(n), remaining(n) {}
  asio::steady_timer timer;
  std::vector<std::optional<Result<T>>> results;
  size_t remaining;
};

template <typename T>
asio::awaitable<void> GatherOne(asio::awaitable<Result<T>> op, std::shared_ptr<GatherState<T>> st, size_t i) {
  try {
    st->results[i].emplace(co_await std::move(op));
  } catch (const std::exception& e) {
    st->results[i].emplace(Status::Internal(std::string("unexpected exception in the client: ") + e.what()));
  }
  if (--st->remaining == 0) st->timer.cancel();
}

/// An operation started now and joined later (e.g. the next fetch while this one is decoded).
template <typename T>
struct Deferred {
  std::shared_ptr<GatherState<T>> state;
};

template <typename T>
Deferred<T> StartDeferred(asio::io_context& io, asio::awaitable<Result<T>> op) {
  auto st = std::make_shared<GatherState<T>>(io, 1);
  asio::co_spawn(io, GatherOne<T>(std::move(op), st, 0), asio::detached);
  return Deferred<T>{st};
}

template <typename T>
asio::awaitable<Result<T>> Join(Deferred<T> d) {
  while (d.state->remaining > 0) {
    asio::error_code ec;
    d.state->timer.expires_at(asio::steady_timer::time_point::max());
    co_await d.state->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return std::move(*d.state->results[0]);
}

template <typename T>
asio::awaitable<std::vector<Result<T>>> WhenAll(asio::io_context& io, std::vector<asio::awaitable<Result<T>>> ops) {
  auto st = std::make_shared<GatherState<T>>(io, ops.size());
  st->timer.expires_at(asio::steady_timer::time_point::max());
  for (size_t i = 0; i < ops.size(); ++i) asio::co_spawn(io, GatherOne<T>(std::move(ops[i]), st, i), asio::detached);
  // co_spawn may run an op inline; the loop re-checks before every wait (one thread, no race).
  while (st->remaining > 0) {
    asio::error_code ec;
    st->timer.expires_at(asio::steady_timer::time_point::max());
    co_await st->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  std::vector<Result<T>> out;
  for (auto& r : st->results) out.push_back(std::move(*r));
  co_return out;
}

/// Awaits `aw` and hands the outcome to `done`; an exception escaping the operation (a bug)
/// becomes kInternal instead of a callback that never comes.
template <typename T>
asio::awaitable<void> DeliverResult(asio::awaitable<Result<T>> aw, Callback<T> done) {
  std::string error;
  try {
    Result<T> r = co_await std::move(aw);
    done(std::move(r));
    co_return;
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "unknown exception";
  }
  done(Status::Internal("unexpected exception in the client: " + error));
}

template <typename T>
void ConnectionImpl::Spawn(asio::awaitable<Result<T>> aw, Callback<T> done) {
  if (closed()) {
    done(Status::Closed("the connection is closed"));
    return;
  }
  asio::co_spawn(io_, DeliverResult<T>(std::move(aw), std::move(done)), asio::detached);
}

template <typename Resp>
asio::awaitable<Result<Resp>> ConnectionImpl::Call(std::shared_ptr<net::ServerConnection> conn,
                                                   protocol::ApiKey key,
                                                   const google::protobuf::MessageLite& req) {
  std::string frame(protocol::kRequestPrefixSize, '\0');
  req.AppendToString(&frame);
  auto body = co_await Send(std::move(conn), key, std::move(frame));
  if (!body.ok()) co_return body.status();
  Resp resp;
  if (!resp.ParseFromArray(body->data, static_cast<int>(body->size)))
    co_return Status::Protocol(std::string("malformed ") + protocol::ApiKeyName(key) + " response");
  co_return resp;
}

template <typename Resp>
asio::awaitable<Result<Resp>> ConnectionImpl::CallCoordinator(protocol::ApiKey key,
                                                              const google::protobuf::MessageLite& req) {
  auto conn = co_await Coordinator();
  if (!conn.ok()) co_return conn.status();
  co_return co_await Call<Resp>(*conn, key, req);
}

}  // namespace fluss::client
