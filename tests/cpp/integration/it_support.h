// What the integration tests share: the cluster they run against (FLUSS_BOOTSTRAP_SERVERS, set by
// tools/test), connecting to it, and running a coroutine on a raw connection's I/O thread.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "fluss/client.h"
#include "fluss/client/connection_impl.h"

namespace fluss::it {

/// The bootstrap servers of the cluster under test ("" when unset).
inline std::string Bootstrap() {
  const char* s = std::getenv("FLUSS_BOOTSTRAP_SERVERS");
  return s ? s : "";
}

/// Connects to the cluster under test and opens its admin; a fatal test failure when
/// FLUSS_BOOTSTRAP_SERVERS is unset or no server answers (call under ASSERT_NO_FATAL_FAILURE).
inline void Connect(std::shared_ptr<Connection>* conn, std::shared_ptr<Admin>* admin) {
  ASSERT_FALSE(Bootstrap().empty()) << "set FLUSS_BOOTSTRAP_SERVERS (tools/test does)";
  auto c = Connection::Connect({{"bootstrap.servers", Bootstrap()}});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  *conn = *c;
  *admin = (*conn)->GetAdmin();
}

/// A table path of database "fluss" unique to this process and test: `prefix` + pid + test name.
inline TablePath TestTablePath(const std::string& prefix) {
  return TablePath{"fluss", prefix + std::to_string(::getpid()) + "_" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name()};
}

/// Whether the coordinator has registered table `info`: every bucket of a non-partitioned table
/// has a leader; for a partitioned one (no buckets before its partitions) the coordinator log
/// named by FLUSS_COORDINATOR_LOG (tools/test sets it for the cluster it starts) has its
/// "New table: <path> with id <id>," line. True for a partitioned table when that log is unknown.
inline bool CoordinatorServes(Admin& admin, const TableInfo& info) {
  if (info.IsPartitioned()) {
    const char* log = std::getenv("FLUSS_COORDINATOR_LOG");
    if (!log || !*log) return true;
    std::ifstream in(log);
    if (!in) return true;
    std::stringstream text;
    text << in.rdbuf();
    const std::string line =
        "New table: " + info.table_path.ToString() + " with id " + std::to_string(info.table_id) + ",";
    return text.str().find(line) != std::string::npos;
  }
  auto leaders = Await<std::map<int32_t, int32_t>>([&](auto cb) { admin.ListBucketLeadersAsync(info.table_path, cb); });
  return leaders.ok() && static_cast<int32_t>(leaders->size()) == info.num_buckets;
}

/// Creates table `path` from `d` and waits until the coordinator serves it (CoordinatorServes),
/// dropping and creating it again, up to 3 times, when it does not within 60 s.
///
/// Why: Fluss 0.9.1's coordinator learns of a new table from a NODE_CHANGED event of its
/// ZooKeeper node (TableChangeWatcher) and ignores NODE_CREATED for tables, which it gets when its
/// cache reads the node only after the table data is in it. Such a table exists, but its buckets
/// never get a leader (a write waits out the delivery timeout), and the first partition of such a
/// partitioned table wedges the coordinator (NullPointerException in makeNotifyBucketLeaderAndIsr).
/// No client can tell a missed table from a slow one but by waiting, so the tests create again.
inline Status CreateServedTable(Admin& admin, const TablePath& path, const TableDescriptor& d) {
  constexpr auto kMissedTableWait = std::chrono::seconds(60);
  for (int attempt = 1; attempt <= 3; ++attempt) {
    Status st = AwaitStatus([&](auto cb) { admin.CreateTableAsync(path, d, false, cb); });
    if (!st.ok()) return st;
    auto info = Await<TableInfo>([&](auto cb) { admin.GetTableInfoAsync(path, cb); });
    if (!info.ok()) return info.status();
    const auto deadline = std::chrono::steady_clock::now() + kMissedTableWait;
    while (std::chrono::steady_clock::now() < deadline) {
      if (CoordinatorServes(admin, *info)) return Status::OK();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::fprintf(stderr, "it: the coordinator missed table %s (attempt %d); creating it again\n",
                 path.ToString().c_str(), attempt);
    st = AwaitStatus([&](auto cb) { admin.DropTableAsync(path, true, cb); });
    if (!st.ok()) return st;
  }
  return Status::Timeout("table " + path.ToString() + ": not served by the coordinator after 3 creations");
}

/// Creates table `path` from `d` (CreateServedTable; a test failure if that fails), adds it to
/// `created` (for the test to drop) and opens it; nullptr when it could not be opened.
inline std::shared_ptr<Table> CreateTable(Admin& admin, Connection& conn, const TablePath& path, const TableDescriptor& d,
                                          std::vector<TablePath>* created) {
  Status st = CreateServedTable(admin, path, d);
  EXPECT_TRUE(st.ok()) << st.ToString();
  created->push_back(path);
  auto t = Await<std::shared_ptr<Table>>([&](auto cb) { conn.GetTableAsync(path, cb); });
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : nullptr;
}

/// Runs `aw` on the I/O thread of `c` and waits for its result.
template <typename T>
Result<T> RunOnIo(const std::shared_ptr<client::ConnectionImpl>& c, asio::awaitable<Result<T>> aw) {
  std::promise<Result<T>> p;
  auto f = p.get_future();
  c->cluster()->Spawn<T>(std::move(aw), [&p](Result<T> r) { p.set_value(std::move(r)); });
  return f.get();
}

}  // namespace fluss::it
