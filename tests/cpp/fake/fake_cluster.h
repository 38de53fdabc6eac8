// A protocol-level fake Fluss cluster for tests (in the spirit of librdkafka's mock cluster): a
// coordinator and one or more tablet servers, each an Asio TCP listener on 127.0.0.1 (port 0,
// so tests never collide), speaking the Fluss frame protocol (protocol-rpc.md section 1) to the
// real client over real sockets. What the servers answer is in fake_servers.h; a Script
// (fake_script.h) decides per request whether to answer normally, fail with an error code,
// delay, hold, drop, store and drop, close the connection or send a malformed frame.
//
// It is a test tier beside the real cluster, never a replacement: what it does not model is
// listed in fake_servers.h.
//
// Thread affinity: the cluster runs its own I/O thread; every public method may be called from
// any thread (state is guarded by one mutex). Scripts run on the I/O thread without the mutex.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <asio.hpp>

#include "fake/fake_script.h"
#include "fake/fake_servers.h"

namespace fluss::fake {

/// One request the cluster received and what the script made of it.
struct Received {
  Request request;
  Action::Kind action = Action::Kind::kAnswer;
  int32_t error_code = 0;  ///< the action's error code (0: none)
};

class FakeCluster {
 public:
  /// Starts a coordinator and `tablet_servers` tablet servers (ids 0, 1, ...), each listening
  /// on its own port of 127.0.0.1, and the I/O thread serving them.
  explicit FakeCluster(int tablet_servers = 1);
  /// Closes every connection and stops the I/O thread (held answers are never sent).
  ~FakeCluster();
  FakeCluster(const FakeCluster&) = delete;
  FakeCluster& operator=(const FakeCluster&) = delete;

  /// "127.0.0.1:<coordinator port>", for bootstrap.servers.
  std::string bootstrap() const;
  /// The port `server` (kCoordinator or a tablet server id) listens on.
  int32_t port(int32_t server) const;

  /// Adds a table (see FakeServers::AddTable); returns its id.
  int64_t AddTable(const TablePath& path, TableDescriptor descriptor);
  /// Moves the leadership of a bucket to tablet server `server` (FakeServers::SetLeader).
  void SetLeader(int64_t table_id, int32_t bucket, int32_t server);
  int32_t Leader(int64_t table_id, int32_t bucket) const;

  /// Sets the script deciding each later request's action (null: answer everything).
  void SetScript(Script script);
  /// Sends the answers held under `tag` (Action::Hold), in the order they were held; answers of
  /// connections closed meanwhile are dropped.
  void Release(const std::string& tag);
  /// Number of answers held under `tag` and not released yet.
  size_t Held(const std::string& tag) const;
  /// FetchLog requests waiting at the fake for data (min_bytes, up to their max_wait_ms), not
  /// answered yet.
  size_t WaitingFetches() const;
  /// Closes every open connection of `server` (the client sees its connections lost).
  void CloseConnections(int32_t server);

  /// The batches stored in `bucket` of `table_id`, in offset order.
  std::vector<StoredBatch> Log(int64_t table_id, int32_t bucket) const;
  /// The rows (encoded key -> value bytes) of `bucket` of the primary-key table `table_id`.
  std::map<std::string, std::string> KvRows(int64_t table_id, int32_t bucket) const;
  /// KV batches applied to `bucket` of `table_id` (a duplicate is not applied again).
  int KvBatchesApplied(int64_t table_id, int32_t bucket) const;
  /// Every request received so far, in arrival order.
  std::vector<Received> Requests() const;
  /// Requests of api `key` received so far.
  int Count(protocol::ApiKey key) const;
  /// Waits until `done()` returns true, re-checking after every request the cluster handles
  /// and every answer it writes; false when `timeout` passes first (a test failure: the
  /// timeout is generous, not a measurement). `done` runs without the cluster's mutex.
  bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  struct Connection;
  struct HeldAnswer;
  struct WaitingFetch;

  void Accept(int32_t server);
  void Read(std::shared_ptr<Connection> c);
  void OnRequest(const std::shared_ptr<Connection>& c, std::string frame);
  /// Answers a FetchLog that had no data when it came: re-read after each append, or at its
  /// max_wait_ms (I/O thread).
  void Wait(std::shared_ptr<WaitingFetch> w);
  void WakeFetches();
  /// Answers a waiting fetch with `answer` and forgets it (I/O thread).
  void EndWait(const std::shared_ptr<WaitingFetch>& w, Answer& answer);
  /// Sends `bytes` as `action` says: now, after its delay, or held until released (I/O thread).
  void Deliver(const std::shared_ptr<Connection>& c, std::string bytes, const Action& action, bool close_after = false);
  void Write(const std::shared_ptr<Connection>& c, std::string bytes, bool close_after);
  void StartWrite(const std::shared_ptr<Connection>& c);
  void CloseConnection(const std::shared_ptr<Connection>& c);
  void ReleaseOnIo(const std::string& tag);
  /// Marks a change for WaitFor (call with mu_ held).
  void Changed();

  asio::io_context io_;
  std::vector<std::unique_ptr<asio::ip::tcp::acceptor>> acceptors_;  // [0] coordinator, [1 + i] tablet server i
  std::map<int32_t, int32_t> ports_;
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable changed_;
  uint64_t version_ = 0;
  FakeServers servers_;
  Script script_;
  std::vector<Received> received_;
  std::map<protocol::ApiKey, int> counts_;
  uint64_t next_connection_ = 1;
  // I/O thread only:
  std::set<std::shared_ptr<Connection>> connections_;
  std::map<std::string, std::vector<std::shared_ptr<HeldAnswer>>> held_;
  std::vector<std::shared_ptr<WaitingFetch>> waiting_fetches_;
  std::map<std::string, size_t> held_counts_;  // guarded by mu_ (for Held())
  size_t waiting_count_ = 0;                     // guarded by mu_ (for WaitingFetches())
};

}  // namespace fluss::fake
