// Integration tests against a real cluster (FLUSS_BOOTSTRAP_SERVERS): log scanners of
// partitioned tables. What the server answers for a dropped partition, subscriptions per
// partition bucket (EARLIEST, LATEST, explicit offsets), unsubscribing, bounded reads over
// several partitions, and a partition dropped mid-scan while another keeps flowing.
#include <gtest/gtest.h>

#include <arrow/api.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "fluss/client.h"
#include "fluss/client/connection_impl.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/fetch_log.h"
#include "fluss/protocol/metadata_request.h"

namespace fluss {
namespace {

using client::ConnectionImpl;
using protocol::ApiKey;

std::string Bootstrap() {
  const char* s = std::getenv("FLUSS_BOOTSTRAP_SERVERS");
  return s ? s : "";
}

template <typename T>
Result<T> RunOnIo(const std::shared_ptr<ConnectionImpl>& c, asio::awaitable<Result<T>> aw) {
  std::promise<Result<T>> p;
  auto f = p.get_future();
  c->cluster()->Spawn<T>(std::move(aw), [&p](Result<T> r) { p.set_value(std::move(r)); });
  return f.get();
}

class PartitionedScanIT : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(Bootstrap().empty()) << "set FLUSS_BOOTSTRAP_SERVERS (tools/test does)";
    auto conn = Connection::Connect({{"bootstrap.servers", Bootstrap()}});
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = *conn;
    admin_ = conn_->GetAdmin();
    path_ = TablePath{"fluss", "part_scan_it_" + std::to_string(::getpid()) + "_" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name()};
  }
  void TearDown() override {
    if (admin_ && created_) EXPECT_TRUE(AwaitStatus([&](auto cb) { admin_->DropTableAsync(path_, true, cb); }).ok());
    if (raw_) EXPECT_TRUE(raw_->Close().ok());
    if (conn_) EXPECT_TRUE(conn_->Close().ok());
  }

  /// Creates the table (id INT, region STRING, v BIGINT) partitioned by region, with
  /// `buckets` buckets, and the partitions `regions`; returns region -> partition id.
  std::map<std::string, int64_t> CreateTable(int32_t buckets, const std::vector<std::string>& regions) {
    TableDescriptor d;
    d.schema.arrow_schema = arrow::schema({arrow::field("id", arrow::int32()), arrow::field("region", arrow::utf8()),
                                           arrow::field("v", arrow::int64())});
    d.partition_keys = {"region"};
    d.bucket_count = buckets;
    Status st = AwaitStatus([&](auto cb) { admin_->CreateTableAsync(path_, d, false, cb); });
    EXPECT_TRUE(st.ok()) << st.ToString();
    created_ = st.ok();
    for (const auto& r : regions) {
      Status c = AwaitStatus([&](auto cb) { admin_->CreatePartitionAsync(path_, {{"region", r}}, false, cb); });
      EXPECT_TRUE(c.ok()) << c.ToString();
    }
    return PartitionIds();
  }
  std::map<std::string, int64_t> PartitionIds() {
    std::map<std::string, int64_t> ids;
    auto infos = Await<std::vector<PartitionInfo>>([&](auto cb) { admin_->ListPartitionInfosAsync(path_, cb); });
    EXPECT_TRUE(infos.ok()) << infos.status().ToString();
    if (infos.ok())
      for (const auto& p : *infos) ids[p.partition_name] = p.partition_id;
    return ids;
  }
  void DropPartition(const std::string& region) {
    Status st = AwaitStatus([&](auto cb) { admin_->DropPartitionAsync(path_, {{"region", region}}, false, cb); });
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  std::shared_ptr<Table> GetTable() {
    auto t = Await<std::shared_ptr<Table>>([&](auto cb) { conn_->GetTableAsync(path_, cb); });
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? *t : nullptr;
  }
  /// A second, raw connection for protocol-level probes.
  std::shared_ptr<ConnectionImpl> Raw() {
    if (!raw_) {
      auto impl = ConnectionImpl::Create({{"bootstrap.servers", Bootstrap()}});
      EXPECT_TRUE(impl.ok());
      raw_ = *impl;
      auto st = RunOnIo<bool>(raw_, [](std::shared_ptr<ConnectionImpl> c) -> asio::awaitable<Result<bool>> {
        Status s = co_await c->cluster()->Bootstrap();
        if (!s.ok()) co_return s;
        co_return true;
      }(raw_));
      EXPECT_TRUE(st.ok()) << st.status().ToString();
    }
    return raw_;
  }
  /// RefreshPartitions at the coordinator on the raw connection: the ids it does not know.
  std::set<int64_t> Missing(const std::vector<int64_t>& ids) {
    auto r = RunOnIo<std::set<int64_t>>(Raw(), [](std::shared_ptr<ConnectionImpl> c, TablePath p,
                                                  std::vector<int64_t> ids) -> asio::awaitable<Result<std::set<int64_t>>> {
      co_return co_await c->cluster()->RefreshPartitions(p, ids);
    }(Raw(), path_, ids));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::set<int64_t>{};
  }
  /// The error code of each partition's bucket 0 in one FetchLog to `leader` (0: none).
  std::map<int64_t, int32_t> FetchCodes(int32_t leader, int64_t table_id, const std::vector<int64_t>& partitions) {
    protocol::FetchLogTable t;
    t.table_id = table_id;
    for (int64_t p : partitions) t.buckets.push_back(protocol::FetchLogBucket{protocol::BucketRef{p, 0}, 0, 1 << 20});
    const proto::FetchLogRequest req = protocol::MakeFetchLogRequest(t, 1 << 20, 0, 1);
    auto conn = Raw()->cluster()->TabletServer(leader);
    auto resp = RunOnIo<proto::FetchLogResponse>(
        Raw(), Raw()->cluster()->Call<proto::FetchLogResponse>(conn, ApiKey::FETCH_LOG, req));
    EXPECT_TRUE(resp.ok()) << resp.status().ToString();
    std::map<int64_t, int32_t> out;
    if (!resp.ok()) return out;
    for (const auto& tr : resp->tables_resp())
      for (const auto& br : tr.buckets_resp()) out[br.partition_id()] = br.has_error_code() ? br.error_code() : 0;
    return out;
  }

  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Admin> admin_;
  std::shared_ptr<ConnectionImpl> raw_;
  TablePath path_;
  bool created_ = false;
};

// What a 0.9.1 server answers for a fetch of a dropped partition, and what the coordinator
// says of it: the facts the scanner's handling of dropped partitions rests on.
TEST_F(PartitionedScanIT, ServerAnswersForADroppedPartition) {
  auto ids = CreateTable(1, {"EU", "US"});
  ASSERT_EQ(ids.size(), 2u);
  auto table = GetTable();
  ASSERT_TRUE(table);
  const int64_t eu = ids["EU"], us = ids["US"];
  // Both known at the coordinator; one request for both ids.
  std::set<int64_t> missing;
  for (int i = 0; i < 50; ++i) {
    missing = Missing({eu, us});
    if (missing.empty() && Raw()->cluster()->metadata().Leader(metadata::TableBucket{table->info().table_id, eu, 0}))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(missing.empty());
  auto leader = Raw()->cluster()->metadata().Leader(metadata::TableBucket{table->info().table_id, eu, 0});
  ASSERT_TRUE(leader.has_value());
  // Served before the drop (after the replica comes up).
  std::map<int64_t, int32_t> codes;
  for (int i = 0; i < 100; ++i) {
    codes = FetchCodes(*leader, table->info().table_id, {eu});
    if (codes[eu] == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(codes[eu], 0);
  DropPartition("EU");
  const auto dropped_at = std::chrono::steady_clock::now();
  // The former leader answers fetches of it with per-bucket errors (its replica stopped, then
  // deleted), while the coordinator still knows the partition for a while (the drop completes
  // asynchronously there): only once it forgets the partition is the drop confirmed. Ids of
  // several partitions in one request: only the dropped one comes back missing.
  std::vector<int32_t> seen;
  std::set<int64_t> gone;
  int64_t confirmed_ms = -1;
  while (std::chrono::steady_clock::now() < dropped_at + std::chrono::seconds(20)) {
    codes = FetchCodes(*leader, table->info().table_id, {eu, us});
    if (seen.empty() || seen.back() != codes[eu]) seen.push_back(codes[eu]);
    EXPECT_EQ(codes[us], 0);
    if (confirmed_ms < 0) {
      gone = Missing({eu, us});
      if (!gone.empty())
        confirmed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - dropped_at).count();
    }
    if (confirmed_ms >= 0 && codes[eu] != 0 &&
        std::chrono::steady_clock::now() > dropped_at + std::chrono::milliseconds(confirmed_ms + 1000))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::string text;
  for (int32_t c : seen) text += std::to_string(c) + " ";
  std::cout << "fetch of a dropped partition answered (in order): " << text << "; the coordinator forgot it after "
            << confirmed_ms << " ms" << std::endl;
  EXPECT_EQ(gone, std::set<int64_t>{eu});
  // The raw answer: one unknown id fails the whole MetadataRequest with PARTITION_NOT_EXISTS
  // (Cluster::RefreshPartitions then asks per id).
  const proto::MetadataRequest both = protocol::MakePartitionIdsMetadataRequest(path_, {eu, us});
  auto raw = RunOnIo<proto::MetadataResponse>(Raw(), [](std::shared_ptr<ConnectionImpl> c, proto::MetadataRequest req)
                                                           -> asio::awaitable<Result<proto::MetadataResponse>> {
    co_return co_await c->cluster()->CallCoordinator<proto::MetadataResponse>(ApiKey::GET_METADATA, req);
  }(Raw(), both));
  EXPECT_FALSE(raw.ok());
  EXPECT_EQ(raw.status().error_code(), protocol::PARTITION_NOT_EXISTS) << raw.status().ToString();
  EXPECT_EQ(Missing({eu}), std::set<int64_t>{eu});
  EXPECT_TRUE(Missing({us}).empty());
  ASSERT_FALSE(seen.empty());
  // In order: served (0), then NOT_LEADER_OR_FOLLOWER (12) while the replica is stopping,
  // then UNKNOWN_TABLE_OR_BUCKET (21) once it is deleted; never PARTITION_NOT_EXISTS (36).
  for (int32_t c : seen)
    EXPECT_TRUE(c == 0 || c == protocol::NOT_LEADER_OR_FOLLOWER || c == protocol::UNKNOWN_TABLE_OR_BUCKET_EXCEPTION) << text;
  EXPECT_NE(seen.back(), 0) << text;
}

}  // namespace
}  // namespace fluss
