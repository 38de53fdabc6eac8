// The request builders of protocol/ (fetch_log, list_offsets, metadata_request, init_writer,
// get_table_info): byte-exact against hand-derived protobuf wire bytes (tag = field << 3 | wire
// type; an int32 of -1 is a 10-byte varint; packed repeated fields are one length-delimited
// field), and equal to the messages the scanner, the offsets lookup, the cluster metadata and
// the writer built inline before the builders existed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/fetch_log.h"
#include "fluss/protocol/get_table_info.h"
#include "fluss/protocol/get_table_schema.h"
#include "fluss/protocol/init_writer.h"
#include "fluss/protocol/list_offsets.h"
#include "fluss/protocol/metadata_request.h"
#include "hex.h"

namespace fluss::protocol {
namespace {

using fluss::testing::Hex;
using fluss::testing::Unhex;

constexpr const char* kFollowerMinusOne = "08 ffffffffffffffffff01";  // 1 follower_server_id = -1

TEST(FetchLogRequest, BytesWithoutWaitOrProjection) {
  FetchLogTable t;
  t.table_id = 5;
  t.buckets.push_back(FetchLogBucket{BucketRef{std::nullopt, 3}, 10, 100});
  auto req = MakeFetchLogRequest(t, 1000, 0, 1);
  // 2 max_bytes 1000 | 3 tables_req { 1 table_id 5 | 2 pushdown false | 4 buckets_req {
  // 2 bucket 3 | 3 offset 10 | 4 max_fetch_bytes 100 } }; no 4 max_wait_ms, no 5 min_bytes.
  EXPECT_EQ(Hex(req.SerializeAsString()),
            Hex(Unhex(std::string(kFollowerMinusOne) + "| 10 e807 | 1a 0c 0805 1000 22 06 1003 180a 2064")));
}

TEST(FetchLogRequest, BytesWithWaitProjectionAndPartition) {
  FetchLogTable t;
  t.table_id = 5;
  t.projected_fields = {0, 2};
  t.buckets.push_back(FetchLogBucket{BucketRef{9, 1}, -2, 100});
  auto req = MakeFetchLogRequest(t, 1000, 500, 1);
  // table { 1 table 5 | 2 pushdown true | 3 projected packed [0, 2] | 4 { 1 partition 9 |
  // 2 bucket 1 | 3 offset -2 (10 bytes) | 4 max 100 } } | 4 max_wait_ms 500 | 5 min_bytes 1
  EXPECT_EQ(Hex(req.SerializeAsString()),
            Hex(Unhex(std::string(kFollowerMinusOne) +
                      "| 10 e807 | 1a 1b 0805 1001 1a02 0002 22 11 0809 1001 18 feffffffffffffffff01 2064"
                      "| 20 f403 | 2801")));
}

TEST(FetchLogRequest, BytesForBucketsOfTwoPartitions) {
  // The scanner of a partitioned table fetches the buckets of several partitions of one table
  // from their common leader in one request, each bucket naming its partition.
  FetchLogTable t;
  t.table_id = 5;
  t.buckets.push_back(FetchLogBucket{BucketRef{7, 0}, 4, 100});
  t.buckets.push_back(FetchLogBucket{BucketRef{8, 0}, 0, 100});
  auto req = MakeFetchLogRequest(t, 1000, 0, 1);
  // table { 1 table 5 | 2 pushdown false | 4 { 1 partition 7 | 2 bucket 0 (present: proto2
  // required) | 3 offset 4 | 4 max 100 } | 4 { 1 partition 8 | 2 bucket 0 | 3 offset 0 | 4 max 100 } }
  EXPECT_EQ(Hex(req.SerializeAsString()),
            Hex(Unhex(std::string(kFollowerMinusOne) +
                      "| 10 e807 | 1a 18 0805 1000 22 08 0807 1000 1804 2064 22 08 0808 1000 1800 2064")));
}

// What LogScannerImpl::FetchFromLeader built inline (non-partitioned tables only).
proto::FetchLogRequest ScannerInline(int64_t table_id, bool projected, const std::vector<int32_t>& fields,
                                     const std::vector<std::pair<int32_t, int64_t>>& positions, int32_t max_bytes,
                                     int32_t max_bytes_for_bucket, int32_t min_bytes, int32_t wait_ms) {
  proto::FetchLogRequest req;
  req.set_follower_server_id(-1);
  req.set_max_bytes(max_bytes);
  if (wait_ms > 0) {
    req.set_min_bytes(min_bytes);
    req.set_max_wait_ms(wait_ms);
  }
  auto* t = req.add_tables_req();
  t->set_table_id(table_id);
  t->set_projection_pushdown_enabled(projected);
  if (projected)
    for (int32_t f : fields) t->add_projected_fields(f);
  for (auto& [b, pos] : positions) {
    auto* br = t->add_buckets_req();
    br->set_bucket_id(b);
    br->set_fetch_offset(pos);
    br->set_max_fetch_bytes(max_bytes_for_bucket);
  }
  return req;
}

TEST(FetchLogRequest, EqualsTheScannersInlineRequest) {
  const std::vector<std::pair<int32_t, int64_t>> positions = {{0, 0}, {1, 123456789012LL}, {7, -2}};
  for (bool projected : {false, true}) {
    for (int32_t wait : {0, 500}) {
      FetchLogTable t;
      t.table_id = 150;
      if (projected) t.projected_fields = {1, 3, 4};
      for (auto& [b, pos] : positions) t.buckets.push_back(FetchLogBucket{BucketRef{std::nullopt, b}, pos, 1 << 20});
      auto built = MakeFetchLogRequest(t, 16 << 20, wait, 1);
      auto inline_req = ScannerInline(150, projected, {1, 3, 4}, positions, 16 << 20, 1 << 20, 1, wait);
      EXPECT_EQ(Hex(built.SerializeAsString()), Hex(inline_req.SerializeAsString()))
          << "projected " << projected << " wait " << wait;
    }
  }
}

TEST(ListOffsetsRequest, Bytes) {
  auto req = MakeListOffsetsRequest(7, std::nullopt, {0, 1}, kListOffsetsLatest, std::nullopt);
  // 2 offset_type 1 | 3 table_id 7 | 5 bucket_id packed [0, 1]
  EXPECT_EQ(Hex(req.SerializeAsString()), Hex(Unhex(std::string(kFollowerMinusOne) + "| 1001 | 1807 | 2a 02 0001")));
  auto at = MakeListOffsetsRequest(7, 9, {2}, kListOffsetsTimestamp, 1000);
  // ... | 4 partition_id 9 | 5 [2] | 6 startTimestamp 1000
  EXPECT_EQ(Hex(at.SerializeAsString()),
            Hex(Unhex(std::string(kFollowerMinusOne) + "| 1002 | 1807 | 2009 | 2a 01 02 | 30 e807")));
}

TEST(ListOffsetsRequest, OneRequestPerPartition) {
  // The scanner resolves EARLIEST/LATEST per partition bucket: a request names one partition;
  // requests for the same bucket ids of two partitions differ only in field 4.
  auto p12 = MakeListOffsetsRequest(7, 12, {0}, kListOffsetsEarliest, std::nullopt);
  auto p300 = MakeListOffsetsRequest(7, 300, {0}, kListOffsetsEarliest, std::nullopt);
  // 2 offset_type 0 (present: proto2 required) | 3 table_id 7 | 4 partition_id | 5 bucket_id [0]
  EXPECT_EQ(Hex(p12.SerializeAsString()), Hex(Unhex(std::string(kFollowerMinusOne) + "| 1000 | 1807 | 200c | 2a 01 00")));
  EXPECT_EQ(Hex(p300.SerializeAsString()), Hex(Unhex(std::string(kFollowerMinusOne) + "| 1000 | 1807 | 20ac02 | 2a 01 00")));
}

TEST(ListOffsetsRequest, EqualsTheInlineRequest) {
  for (std::optional<int64_t> partition : {std::optional<int64_t>(), std::optional<int64_t>(42)}) {
    for (std::optional<int64_t> ts : {std::optional<int64_t>(), std::optional<int64_t>(1700000000000LL)}) {
      const std::vector<int32_t> bs = {0, 3, 5};
      // scan/list_offsets.cc before the builder:
      proto::ListOffsetsRequest req;
      req.set_follower_server_id(-1);
      req.set_offset_type(2);
      req.set_table_id(99);
      if (partition) req.set_partition_id(*partition);
      for (int32_t b : bs) req.add_bucket_id(b);
      if (ts) req.set_starttimestamp(*ts);
      EXPECT_EQ(Hex(MakeListOffsetsRequest(99, partition, bs, 2, ts).SerializeAsString()), Hex(req.SerializeAsString()));
    }
  }
}

TEST(ListOffsetsResponse, OffsetsAndErrorsPerBucket) {
  proto::ListOffsetsResponse resp;
  auto* a = resp.add_buckets_resp();
  a->set_bucket_id(2);
  a->set_offset(77);
  auto* b = resp.add_buckets_resp();
  b->set_bucket_id(0);
  b->set_error_code(12);
  b->set_error_message("not the leader");
  auto* c = resp.add_buckets_resp();
  c->set_bucket_id(1);
  c->set_error_code(21);
  auto r = ParseListOffsetsResponse(resp, "table db.t");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].bucket_id, 2);
  EXPECT_TRUE(r[0].status.ok());
  EXPECT_EQ(r[0].offset, 77);
  EXPECT_EQ(r[1].bucket_id, 0);
  EXPECT_EQ(r[1].status.error_code(), 12);
  EXPECT_TRUE(r[1].status.IsRetriable());
  EXPECT_EQ(r[1].status.message(), "table db.t bucket 0: not the leader");
  EXPECT_EQ(r[2].status.message(), "table db.t bucket 1: UNKNOWN_TABLE_OR_BUCKET_EXCEPTION");  // no message
}

TEST(MetadataRequest, Bytes) {
  EXPECT_EQ(MakeMetadataRequest({}).SerializeAsString(), "");  // servers only
  auto req = MakeMetadataRequest({TablePath{"db", "t"}}, {PartitionPath{TablePath{"db", "t"}, "p1"}});
  // 1 table_path { 1 "db" | 2 "t" } | 2 partitions_path { 1 "db" | 2 "t" | 3 "p1" }
  EXPECT_EQ(Hex(req.SerializeAsString()), Hex(Unhex("0a 07 0a02 6462 1201 74 | 12 0b 0a02 6462 1201 74 1a02 7031")));
}

TEST(MetadataRequest, BytesForPartitionIds) {
  // Cluster::RefreshPartitions: the owning table's path goes along with the ids (the server
  // resolves ids against the table paths of the same request).
  auto req = MakePartitionIdsMetadataRequest(TablePath{"db", "t"}, {12, 300});
  // 1 table_path { 1 "db" | 2 "t" } | 3 partitions_id packed [12, 300]
  EXPECT_EQ(Hex(req.SerializeAsString()), Hex(Unhex("0a 07 0a02 6462 1201 74 | 1a 03 0c ac02")));
}

TEST(MetadataRequest, EqualsTheClustersInlineRequests) {
  // Cluster::RefreshMetadata before the builder:
  const std::vector<TablePath> tables = {{"db", "a"}, {"other", "b"}};
  proto::MetadataRequest refresh;
  for (const auto& t : tables) {
    auto* p = refresh.add_table_path();
    p->set_database_name(t.database_name);
    p->set_table_name(t.table_name);
  }
  EXPECT_EQ(Hex(MakeMetadataRequest(tables).SerializeAsString()), Hex(refresh.SerializeAsString()));
  // Cluster::PartitionLeaders before the builder:
  const TablePath path{"db", "events"};
  proto::MetadataRequest leaders;
  auto* t = leaders.add_table_path();
  t->set_database_name(path.database_name);
  t->set_table_name(path.table_name);
  auto* pp = leaders.add_partitions_path();
  pp->set_database_name(path.database_name);
  pp->set_table_name(path.table_name);
  pp->set_partition_name("2024-01-01");
  EXPECT_EQ(Hex(MakeMetadataRequest({path}, {PartitionPath{path, "2024-01-01"}}).SerializeAsString()),
            Hex(leaders.SerializeAsString()));
}

TEST(InitWriterRequest, Bytes) {
  EXPECT_EQ(MakeInitWriterRequest({}).SerializeAsString(), "");
  EXPECT_EQ(Hex(MakeInitWriterRequest({TablePath{"db", "t"}}).SerializeAsString()),
            Hex(Unhex("0a 07 0a02 6462 1201 74")));
  // Sender::StartInitWriter before the builder (tables in the idempotence map's order):
  const std::vector<TablePath> tables = {{"db", "a"}, {"db", "b"}};
  proto::InitWriterRequest req;
  for (const auto& path : tables) {
    auto* p = req.add_table_path();
    p->set_database_name(path.database_name);
    p->set_table_name(path.table_name);
  }
  EXPECT_EQ(Hex(MakeInitWriterRequest(tables).SerializeAsString()), Hex(req.SerializeAsString()));
}

TEST(GetTableSchemaRequest, Bytes) {
  // field 1 = the path as for GetTableInfo; field 2 (varint) = schema id 2
  EXPECT_EQ(Hex(MakeGetTableSchemaRequest(TablePath{"db", "t"}, 2).SerializeAsString()),
            Hex(Unhex("0a 07 0a02 6462 1201 74 1002")));
}

TEST(GetTableInfoRequest, Bytes) {
  EXPECT_EQ(Hex(MakeGetTableInfoRequest(TablePath{"db", "t"}).SerializeAsString()), Hex(Unhex("0a 07 0a02 6462 1201 74")));
}

}  // namespace
}  // namespace fluss::protocol
