// What the integration tests share: the cluster they run against (FLUSS_BOOTSTRAP_SERVERS, set by
// tools/test), connecting to it, and running a coroutine on a raw connection's I/O thread.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <memory>
#include <string>
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

/// Creates table `path` from `d` (a test failure if that fails), adds it to `created` (for the
/// test to drop) and opens it; nullptr when it could not be opened.
inline std::shared_ptr<Table> CreateTable(Admin& admin, Connection& conn, const TablePath& path, const TableDescriptor& d,
                                          std::vector<TablePath>* created) {
  Status st = AwaitStatus([&](auto cb) { admin.CreateTableAsync(path, d, false, cb); });
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
