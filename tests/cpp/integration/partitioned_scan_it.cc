// Integration tests against a real cluster (FLUSS_BOOTSTRAP_SERVERS): log scanners of
// partitioned tables. What the server answers for a dropped partition, subscriptions per
// partition bucket (EARLIEST, LATEST, explicit offsets), unsubscribing, bounded reads over
// several partitions, and a partition dropped mid-scan while another keeps flowing.
#include <gtest/gtest.h>

#include <arrow/api.h>

#include <algorithm>
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
#include "fluss/record/arrow_log.h"
#include "it_support.h"

namespace fluss {
namespace {

using client::ConnectionImpl;
using it::Bootstrap;
using it::RunOnIo;
using protocol::ApiKey;

class PartitionedScanIT : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(it::Connect(&conn_, &admin_));
    path_ = it::TestTablePath("part_scan_it_");
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
    // Produce() writes uncompressed batches; a projected fetch re-encodes them under the
    // table's compression, so the table says NONE.
    d.properties["table.log.arrow.compression.type"] = "NONE";
    Status st = it::CreateServedTable(*admin_, path_, d);
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

  /// Writes rows (id, region, v = id * 10) to bucket `bucket` of partition `partition_id` with a
  /// raw ProduceLog to its leader (acks -1), retrying while the replica comes up. Test data
  /// only: the rows the scanner must read back.
  void Produce(int64_t table_id, int64_t partition_id, int32_t bucket, const std::string& region,
               const std::vector<int32_t>& ids) {
    arrow::Int32Builder id_b;
    arrow::StringBuilder region_b;
    arrow::Int64Builder v_b;
    for (int32_t id : ids) {
      ASSERT_TRUE(id_b.Append(id).ok());
      ASSERT_TRUE(region_b.Append(region).ok());
      ASSERT_TRUE(v_b.Append(int64_t{id} * 10).ok());
    }
    auto rb = arrow::RecordBatch::Make(Schema(), static_cast<int64_t>(ids.size()),
                                       {*id_b.Finish(), *region_b.Finish(), *v_b.Finish()});
    auto enc = record::EncodeArrowLogBatch(*rb, 1, *record::ArrowWriteOptions("NONE", 3));
    ASSERT_TRUE(enc.ok()) << enc.status().ToString();
    proto::ProduceLogRequest req;
    req.set_acks(-1);
    req.set_table_id(table_id);
    req.set_timeout_ms(30000);
    auto* b = req.add_buckets_req();
    b->set_partition_id(partition_id);
    b->set_bucket_id(bucket);
    b->set_records((*enc)->data(), static_cast<size_t>((*enc)->size()));
    const metadata::TableBucket tb{table_id, partition_id, bucket};
    for (int attempt = 0;; ++attempt) {
      ASSERT_LT(attempt, 100) << "produce to " << tb.ToString() << " kept failing";
      if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      Missing({partition_id});
      auto leader = Raw()->cluster()->metadata().Leader(tb);
      if (!leader) continue;
      auto conn = Raw()->cluster()->TabletServer(*leader);
      auto resp = RunOnIo<proto::ProduceLogResponse>(
          Raw(), Raw()->cluster()->Call<proto::ProduceLogResponse>(conn, ApiKey::PRODUCE_LOG, req));
      if (!resp.ok()) {
        ASSERT_TRUE(resp.status().IsRetriable()) << resp.status().ToString();
        continue;
      }
      ASSERT_EQ(resp->buckets_resp_size(), 1);
      const auto& br = resp->buckets_resp(0);
      if (!br.has_error_code() || br.error_code() == 0) return;
      ASSERT_TRUE(protocol::IsRetriableError(br.error_code())) << br.error_code() << " " << br.error_message();
    }
  }
  static std::shared_ptr<arrow::Schema> Schema() {
    return arrow::schema({arrow::field("id", arrow::int32()), arrow::field("region", arrow::utf8()),
                          arrow::field("v", arrow::int64())});
  }
  /// "p<partition id>/b<bucket>@<offset>:<id>,<region>,<v>" per row of `batches`, sorted.
  static std::vector<std::string> Rows(const std::vector<ScanBatch>& batches) {
    std::vector<std::string> out;
    for (const auto& sb : batches) {
      auto id = std::static_pointer_cast<arrow::Int32Array>(sb.batch->column(0));
      auto region = std::static_pointer_cast<arrow::StringArray>(sb.batch->column(1));
      auto v = std::static_pointer_cast<arrow::Int64Array>(sb.batch->column(2));
      for (int64_t r = 0; r < sb.batch->num_rows(); ++r)
        out.push_back("p" + (sb.partition_id ? std::to_string(*sb.partition_id) : std::string("-")) + "/b" +
                      std::to_string(sb.bucket) + "@" + std::to_string(sb.base_offset + r) + ":" +
                      std::to_string(id->Value(r)) + "," + region->GetString(r) + "," + std::to_string(v->Value(r)));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::string Row(int64_t partition, int32_t bucket, int64_t offset, int32_t id, const std::string& region) {
    return "p" + std::to_string(partition) + "/b" + std::to_string(bucket) + "@" + std::to_string(offset) + ":" +
           std::to_string(id) + "," + region + "," + std::to_string(int64_t{id} * 10);
  }
  static std::vector<std::string> Sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  }
  /// Polls until `rows` rows arrived (or 20 s passed); every poll must succeed.
  static std::vector<ScanBatch> PollRows(LogScanner& s, size_t rows) {
    std::vector<ScanBatch> got;
    size_t n = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (n < rows && std::chrono::steady_clock::now() < until) {
      auto r = Await<std::vector<ScanBatch>>([&](auto cb) { s.PollAsync(500, cb); });
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok()) break;
      for (auto& b : *r) {
        n += static_cast<size_t>(b.batch->num_rows());
        got.push_back(std::move(b));
      }
    }
    return got;
  }
  static std::vector<ScanBatch> ReadAll(LogScanner& s) {
    auto r = Await<std::vector<ScanBatch>>([&](auto cb) { s.ReadBatchesAsync(cb); });
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::vector<ScanBatch>{};
  }

  /// CreateTable(buckets, {"EU", "US"}) and its handle in table_, tid_, us_ and eu_.
  void CreateUsEu(int32_t buckets) {
    auto ids = CreateTable(buckets, {"EU", "US"});
    table_ = GetTable();
    ASSERT_TRUE(table_);
    tid_ = table_->info().table_id;
    us_ = ids["US"];
    eu_ = ids["EU"];
  }
  /// A scanner of table_ returning `projection`, with bucket 0 of US and of EU subscribed from
  /// `us_offset` and `eu_offset`.
  std::shared_ptr<LogScanner> ScanUsEu(int64_t us_offset, int64_t eu_offset, std::vector<int32_t> projection = {}) {
    auto scanner = table_->NewLogScanner(projection);
    EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
    if (!scanner.ok()) return nullptr;
    EXPECT_TRUE((*scanner)->SubscribePartition(us_, 0, us_offset).ok());
    EXPECT_TRUE((*scanner)->SubscribePartition(eu_, 0, eu_offset).ok());
    return *scanner;
  }
  void ProduceUs(int32_t bucket, const std::vector<int32_t>& ids) { Produce(tid_, us_, bucket, "US", ids); }
  void ProduceEu(int32_t bucket, const std::vector<int32_t>& ids) { Produce(tid_, eu_, bucket, "EU", ids); }

  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Admin> admin_;
  std::shared_ptr<ConnectionImpl> raw_;
  std::shared_ptr<Table> table_;
  int64_t tid_ = -1, us_ = -1, eu_ = -1;
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
    const auto& cache = Raw()->cluster()->metadata();
    if (missing.empty() && cache.Leader(metadata::TableBucket{table->info().table_id, eu, 0}) &&
        cache.Leader(metadata::TableBucket{table->info().table_id, us, 0}))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(missing.empty());
  auto leader = Raw()->cluster()->metadata().Leader(metadata::TableBucket{table->info().table_id, eu, 0});
  ASSERT_TRUE(leader.has_value());
  ASSERT_EQ(Raw()->cluster()->metadata().Leader(metadata::TableBucket{table->info().table_id, us, 0}), leader)
      << "the test fetches both partitions from one tablet server (the integration tests' 1-server cluster)";
  // Both served before the drop (after their replicas come up: a partition created a moment
  // ago may still answer UNKNOWN_TABLE_OR_BUCKET).
  std::map<int64_t, int32_t> codes;
  for (int i = 0; i < 100; ++i) {
    codes = FetchCodes(*leader, table->info().table_id, {eu, us});
    if (codes[eu] == 0 && codes[us] == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(codes[eu], 0);
  ASSERT_EQ(codes[us], 0);
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

TEST_F(PartitionedScanIT, BucketCallsOfTheOtherKindOfTableAreRefused) {
  auto ids = CreateTable(2, {"US"});
  auto table = GetTable();
  ASSERT_TRUE(table);
  auto scanner = table->NewLogScanner();
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto& s = **scanner;
  Status st = s.Subscribe(0, kEarliestOffset);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("is partitioned"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("SubscribePartition"), std::string::npos) << st.ToString();
  EXPECT_EQ(s.Unsubscribe(0).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.SubscribePartition(-1, 0, kEarliestOffset).code(), StatusCode::kInvalidArgument);
  st = s.SubscribePartition(ids["US"], 2, kEarliestOffset);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("bucket 2 is outside"), std::string::npos) << st.ToString();
  EXPECT_EQ(s.SubscribePartition(ids["US"], 0, -3).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(s.SubscribePartition(ids["US"], 1, kLatestOffset).ok());
  EXPECT_TRUE(s.UnsubscribePartition(ids["US"], 1).ok());

  // A non-partitioned table refuses the partition calls.
  TablePath plain{path_.database_name, path_.table_name + "_plain"};
  TableDescriptor d;
  d.schema.arrow_schema = Schema();
  d.bucket_count = 1;
  ASSERT_TRUE(it::CreateServedTable(*admin_, plain, d).ok());
  auto t2 = Await<std::shared_ptr<Table>>([&](auto cb) { conn_->GetTableAsync(plain, cb); });
  ASSERT_TRUE(t2.ok());
  auto s2 = (*t2)->NewLogScanner();
  ASSERT_TRUE(s2.ok());
  st = (*s2)->SubscribePartition(0, 0, kEarliestOffset);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("is not partitioned"), std::string::npos) << st.ToString();
  EXPECT_EQ((*s2)->UnsubscribePartition(0, 0).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE((*s2)->Subscribe(0, kEarliestOffset).ok());
  EXPECT_TRUE(AwaitStatus([&](auto cb) { admin_->DropTableAsync(plain, true, cb); }).ok());
}

TEST_F(PartitionedScanIT, EarliestLatestAndOffsetsPerPartitionBucket) {
  ASSERT_NO_FATAL_FAILURE(CreateUsEu(2));
  ProduceUs(0, {1, 2, 3});
  ProduceUs(1, {4, 5});
  ProduceEu(0, {10, 11});
  ProduceEu(1, {12});
  auto scanner = ScanUsEu(kEarliestOffset, kLatestOffset);  // EU bucket 0 from its end: 2
  ASSERT_TRUE(scanner);
  auto& s = *scanner;
  ASSERT_TRUE(s.SubscribePartition(us_, 1, 1).ok());  // an explicit offset
  ASSERT_TRUE(s.SubscribePartition(eu_, 1, kEarliestOffset).ok());
  EXPECT_EQ(Rows(ReadAll(s)), Sorted({Row(us_, 0, 0, 1, "US"), Row(us_, 0, 1, 2, "US"), Row(us_, 0, 2, 3, "US"),
                                      Row(us_, 1, 1, 5, "US"), Row(eu_, 1, 0, 12, "EU")}));
  // Later rows arrive by polls, each bucket from where the read left it.
  ProduceEu(0, {13});
  ProduceUs(1, {6});
  EXPECT_EQ(Rows(PollRows(s, 2)), Sorted({Row(eu_, 0, 2, 13, "EU"), Row(us_, 1, 2, 6, "US")}));
  EXPECT_TRUE(s.TakeDroppedPartitions().empty());
}

TEST_F(PartitionedScanIT, UnsubscribePartitionStopsOnlyThatPartition) {
  ASSERT_NO_FATAL_FAILURE(CreateUsEu(1));
  auto scanner = ScanUsEu(kEarliestOffset, kEarliestOffset);
  ASSERT_TRUE(scanner);
  ProduceUs(0, {1});
  ProduceEu(0, {2});
  EXPECT_EQ(Rows(PollRows(*scanner, 2)), Sorted({Row(us_, 0, 0, 1, "US"), Row(eu_, 0, 0, 2, "EU")}));
  ASSERT_TRUE(scanner->UnsubscribePartition(eu_, 0).ok());
  ProduceEu(0, {3});
  ProduceUs(0, {4});
  EXPECT_EQ(Rows(ReadAll(*scanner)), std::vector<std::string>{Row(us_, 0, 1, 4, "US")});
}

TEST_F(PartitionedScanIT, ToArrowReadsEveryPartitionToItsEnd) {
  ASSERT_NO_FATAL_FAILURE(CreateUsEu(1));
  ProduceUs(0, {1, 2});
  ProduceEu(0, {3});
  ProduceUs(0, {4});
  auto scanner = ScanUsEu(kEarliestOffset, kEarliestOffset, {0, 2});  // projected: id, v
  ASSERT_TRUE(scanner);
  auto t = Await<std::shared_ptr<arrow::Table>>([&](auto cb) { scanner->ToArrowAsync(cb); });
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ((*t)->num_columns(), 2);
  std::vector<std::pair<int32_t, int64_t>> rows;
  auto combined = (*t)->CombineChunks();
  ASSERT_TRUE(combined.ok());
  auto id = std::static_pointer_cast<arrow::Int32Array>((*combined)->column(0)->chunk(0));
  auto v = std::static_pointer_cast<arrow::Int64Array>((*combined)->column(1)->chunk(0));
  for (int64_t r = 0; r < (*combined)->num_rows(); ++r) rows.emplace_back(id->Value(r), v->Value(r));
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::pair<int32_t, int64_t>>{{1, 10}, {2, 20}, {3, 30}, {4, 40}}));
  // At the end now: nothing more.
  auto again = Await<std::shared_ptr<arrow::Table>>([&](auto cb) { scanner->ToArrowAsync(cb); });
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->num_rows(), 0);
}

TEST_F(PartitionedScanIT, DroppedPartitionLeavesWhileTheOtherKeepsFlowing) {
  ASSERT_NO_FATAL_FAILURE(CreateUsEu(1));
  auto scanner = ScanUsEu(kEarliestOffset, kEarliestOffset);
  ASSERT_TRUE(scanner);
  auto& s = *scanner;
  ProduceUs(0, {1});
  ProduceEu(0, {2});
  EXPECT_EQ(Rows(PollRows(s, 2)), Sorted({Row(us_, 0, 0, 1, "US"), Row(eu_, 0, 0, 2, "EU")}));
  DropPartition("EU");
  // Rows written to the surviving partition after the drop are read; no poll fails.
  ProduceUs(0, {3});
  EXPECT_EQ(Rows(PollRows(s, 1)), std::vector<std::string>{Row(us_, 0, 1, 3, "US")});
  ProduceUs(0, {4, 5});
  EXPECT_EQ(Rows(PollRows(s, 2)), Sorted({Row(us_, 0, 2, 4, "US"), Row(us_, 0, 3, 5, "US")}));
  // The drop is confirmed within a few polls.
  std::vector<int64_t> dropped;
  for (int i = 0; i < 20 && dropped.empty(); ++i) {
    auto r = Await<std::vector<ScanBatch>>([&](auto cb) { s.PollAsync(200, cb); });
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(r->empty());
    dropped = s.TakeDroppedPartitions();
  }
  EXPECT_EQ(dropped, std::vector<int64_t>{eu_});
  ProduceUs(0, {6});
  EXPECT_EQ(Rows(ReadAll(s)), std::vector<std::string>{Row(us_, 0, 4, 6, "US")});
}

TEST_F(PartitionedScanIT, PartitionDroppedBeforeABoundedReadLeavesIt) {
  ASSERT_NO_FATAL_FAILURE(CreateUsEu(1));
  ProduceUs(0, {1, 2});
  ProduceEu(0, {3});
  auto scanner = ScanUsEu(kEarliestOffset, kLatestOffset);
  ASSERT_TRUE(scanner);
  const int64_t never = 987654321;  // a partition id that never existed
  ASSERT_TRUE(scanner->SubscribePartition(never, 0, kEarliestOffset).ok());
  DropPartition("EU");
  EXPECT_EQ(Rows(ReadAll(*scanner)), Sorted({Row(us_, 0, 0, 1, "US"), Row(us_, 0, 1, 2, "US")}));
  auto dropped = scanner->TakeDroppedPartitions();
  std::sort(dropped.begin(), dropped.end());
  EXPECT_EQ(dropped, (std::vector<int64_t>{std::min(eu_, never), std::max(eu_, never)}));
  EXPECT_TRUE(scanner->TakeDroppedPartitions().empty());
}

}  // namespace
}  // namespace fluss
