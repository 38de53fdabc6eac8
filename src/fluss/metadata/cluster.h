// The cluster as one client connection sees it: the parsed options, the I/O thread, the
// server-connection pool, typed RPC calls and the metadata cache with its refresh logic
// (bootstrap, MetadataRequest, waiting for leaders, table info). Writers, scanners, lookups
// and admin calls share one Cluster per connection.
//
// Thread affinity: Create, options(), closed(), io_thread() and Spawn* may be called from any
// thread; everything returning asio::awaitable, metadata(), TabletServer() and CloseNetwork()
// run on the I/O thread only.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <asio.hpp>
#include <google/protobuf/message_lite.h>

#include "fluss/config.h"
#include "fluss/util/metric_counters.h"
#include "fluss/metadata/metadata_cache.h"
#include "fluss/net/connection_pool.h"
#include "fluss/net/io_thread.h"
#include "fluss/net/rpc_client.h"
#include "fluss/types.h"

namespace fluss::metadata {

using Clock = std::chrono::steady_clock;

class Cluster : public std::enable_shared_from_this<Cluster> {
 public:
  /// Starts the I/O thread for `options` (parsed by ParseClientOptions, client/config.cc);
  /// kInvalidArgument for a bad bootstrap.servers. Nothing is sent yet (see Bootstrap).
  static Result<std::shared_ptr<Cluster>> Create(ClientOptions options);

  const ClientOptions& options() const { return options_; }
  /// The connection's traffic counters (fluss::ClientMetrics), shared by everything on it.
  util::MetricCounters& metrics() const { return *metrics_; }
  net::IoThread& io_thread() { return io_thread_; }
  asio::io_context& io() { return io_thread_.io(); }
  bool closed() const { return io_thread_.closed(); }

  template <typename T>
  void Spawn(asio::awaitable<Result<T>> aw, net::Callback<T> done) {
    io_thread_.Spawn<T>(std::move(aw), std::move(done));
  }
  void SpawnStatus(asio::awaitable<Status> aw, net::StatusCallback done) {
    io_thread_.SpawnStatus(std::move(aw), std::move(done));
  }
  /// Sleeps on the I/O thread; returns at once when the connection is closing.
  asio::awaitable<void> Sleep(std::chrono::milliseconds d) { return io_thread_.Sleep(d); }
  /// A timer that closing cancels (I/O thread only).
  std::shared_ptr<asio::steady_timer> NewTimer() { return io_thread_.NewTimer(); }

  // ---- I/O thread only ----

  /// Reads the cluster metadata from the first answering bootstrap server (a few quick rounds
  /// for refused connections, up to client.request-timeout while servers report no tablet
  /// servers yet). Fails with kNetwork when none answers.
  asio::awaitable<Status> Bootstrap();
  MetadataCache& metadata() { return metadata_; }
  /// Sends a MetadataRequest for `tables` (may be empty: servers only) to the coordinator, or
  /// else a tablet server, or else a bootstrap server, and updates the cache. Non-retriable
  /// server errors (TABLE_NOT_EXIST) are returned at once.
  asio::awaitable<Status> RefreshMetadata(const std::vector<TablePath>& tables);
  /// Waits, refreshing with backoff, until every bucket in [0, num_buckets) of `path` has a
  /// live leader, or until `deadline` (then kTimeout).
  asio::awaitable<Status> WaitForLeaders(const TablePath& path, int32_t num_buckets, Clock::time_point deadline);
  /// GetTableInfo from the coordinator, parsed (server defaults included). Fails with
  /// TABLE_NOT_EXIST (7).
  asio::awaitable<Result<TableInfo>> FetchTableInfo(TablePath path);
  /// Id and bucket leaders (bucket -> node) of a partition, from a MetadataRequest to the
  /// coordinator. Fails with PARTITION_NOT_EXISTS (36).
  asio::awaitable<Result<std::pair<int64_t, std::map<int32_t, int32_t>>>> PartitionLeaders(
      const TablePath& path, const std::string& partition_name);
  /// Refreshes the bucket leaders of partitions `partition_ids` of the partitioned table `path`
  /// at the coordinator (the source of truth, so a dropped partition is seen as gone) and
  /// returns the ids it does not know: partitions dropped (or never created). Fails with the
  /// server's error for anything else (TABLE_NOT_EXIST (7), network errors).
  asio::awaitable<Result<std::set<int64_t>>> RefreshPartitions(const TablePath& path,
                                                               const std::vector<int64_t>& partition_ids);
  /// Connection to tablet server `node_id`, or null when it is not in the server list.
  std::shared_ptr<net::ServerConnection> TabletServer(int32_t node_id);
  /// Connection to the coordinator (refreshes the metadata if it is not known yet).
  asio::awaitable<Result<std::shared_ptr<net::ServerConnection>>> Coordinator();

  /// Sends `req` as `key` on `conn` and parses the response as Resp, within
  /// client.request-timeout or, when `timeout_ms` > 0, within `timeout_ms`.
  template <typename Resp>
  asio::awaitable<Result<Resp>> Call(std::shared_ptr<net::ServerConnection> conn, protocol::ApiKey key,
                                     const google::protobuf::MessageLite& req, int64_t timeout_ms = 0) {
    return rpc_.Call<Resp>(std::move(conn), key, req, timeout_ms);
  }
  /// Same, without parsing: the response body, for the responses read by hand (FetchLog).
  asio::awaitable<Result<net::ResponseBody>> CallForBody(std::shared_ptr<net::ServerConnection> conn,
                                                         protocol::ApiKey key,
                                                         const google::protobuf::MessageLite& req, int64_t timeout_ms = 0) {
    return rpc_.CallForBody(std::move(conn), key, req, timeout_ms);
  }
  template <typename Resp>
  asio::awaitable<Result<Resp>> CallCoordinator(protocol::ApiKey key, const google::protobuf::MessageLite& req);
  /// Sends a frame in pieces (record batches borrowed, not copied).
  asio::awaitable<Result<net::ResponseBody>> SendFrame(std::shared_ptr<net::ServerConnection> conn,
                                                       protocol::ApiKey key, net::OutgoingFrame frame) {
    return rpc_.SendFrame(std::move(conn), key, std::move(frame));
  }

  /// Closes every server connection (pending requests fail with kClosed) and cancels every
  /// timer; part of closing, after MarkClosed on the I/O thread.
  void CloseNetwork();

 private:
  Cluster(ClientOptions options, std::vector<net::ServerEndpoint> bootstrap);
  std::shared_ptr<net::ServerConnection> CoordinatorConnection();
  std::shared_ptr<net::ServerConnection> BootstrapConnection(size_t i);

  const ClientOptions options_;
  const std::vector<net::ServerEndpoint> bootstrap_;
  net::IoThread io_thread_;
  const std::shared_ptr<util::MetricCounters> metrics_;
  net::ConnectionPool pool_;
  net::RpcClient rpc_;
  MetadataCache metadata_;
};

/// Parses "host:port,host:port" (IPv6 hosts in brackets). kInvalidArgument naming the entry.
Result<std::vector<net::ServerEndpoint>> ParseBootstrapServers(const std::string& servers);

template <typename Resp>
asio::awaitable<Result<Resp>> Cluster::CallCoordinator(protocol::ApiKey key, const google::protobuf::MessageLite& req) {
  auto conn = co_await Coordinator();
  if (!conn.ok()) co_return conn.status();
  co_return co_await rpc_.Call<Resp>(*conn, key, req);
}

}  // namespace fluss::metadata
