// scan/leader_fetch.h: a FetchLog response of one leader taken apart per table bucket, partition
// id included: batches cut at the fetch and stop offsets, the positions they move to, and which
// per-bucket errors make a partition "stale" (to be checked at the coordinator, which tells
// whether it was dropped) instead of failing the fetch.
#include <gtest/gtest.h>

#include <arrow/api.h>

#include <cstring>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/record/arrow_log.h"
#include "fluss/scan/leader_fetch.h"

namespace fluss::scan {
namespace {

using metadata::TableBucket;

constexpr int64_t kTable = 5;

/// A log batch of `n` int32 rows at `base_offset` (the server's field, outside the CRC).
std::string Batch(int64_t base_offset, int32_t n) {
  arrow::Int32Builder b;
  for (int32_t i = 0; i < n; ++i) EXPECT_TRUE(b.Append(i).ok());
  auto rb = arrow::RecordBatch::Make(arrow::schema({arrow::field("a", arrow::int32())}), n, {*b.Finish()});
  auto enc = record::EncodeArrowLogBatch(*rb, 1, *record::ArrowWriteOptions("NONE", 3));
  EXPECT_TRUE(enc.ok());
  std::string bytes((*enc)->ToString());
  std::memcpy(bytes.data(), &base_offset, sizeof base_offset);  // little-endian, as on the wire
  return bytes;
}

proto::PbFetchLogRespForBucket* AddBucket(proto::FetchLogResponse& r, std::optional<int64_t> partition, int32_t bucket) {
  proto::PbFetchLogRespForTable* t = r.tables_resp_size() ? r.mutable_tables_resp(0) : r.add_tables_resp();
  t->set_table_id(kTable);
  auto* b = t->add_buckets_resp();
  if (partition) b->set_partition_id(*partition);
  b->set_bucket_id(bucket);
  return b;
}

/// `r` as the server sends it.
net::ResponseBody Body(const proto::FetchLogResponse& r) { return net::ResponseBody::Copy(r.SerializeAsString()); }

TableBucket P(int64_t partition, int32_t bucket) { return TableBucket{kTable, partition, bucket}; }

TEST(LeaderFetch, BatchesAndPositionsPerPartitionBucket) {
  proto::FetchLogResponse resp;
  // Partition 7 and partition 8 both have a bucket 0: told apart by the partition id.
  auto* a = AddBucket(resp, 7, 0);
  a->set_high_watermark(5);
  a->set_records(Batch(0, 3) + Batch(3, 2));
  auto* b = AddBucket(resp, 8, 0);
  b->set_high_watermark(1);
  b->set_records(Batch(0, 1));
  // A bucket that was not asked for is ignored.
  AddBucket(resp, 9, 0)->set_records(Batch(0, 1));
  auto got = TakeLeaderFetch(Body(resp), {{P(7, 0), 1}, {P(8, 0), 0}}, std::nullopt, "db.t");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->batches.size(), 3u);
  EXPECT_EQ(got->batches[0].bucket, P(7, 0));
  EXPECT_EQ(got->batches[0].header.base_offset, 0);
  EXPECT_EQ(got->batches[0].from, 1);  // offset 0 precedes the fetch offset
  EXPECT_EQ(got->batches[0].to, 3);
  EXPECT_EQ(got->batches[1].bucket, P(7, 0));
  EXPECT_EQ(got->batches[1].header.base_offset, 3);
  EXPECT_EQ(got->batches[1].from, 0);
  EXPECT_EQ(got->batches[1].to, 2);
  EXPECT_EQ(got->batches[2].bucket, P(8, 0));
  EXPECT_EQ((std::map<TableBucket, int64_t>{{P(7, 0), 5}, {P(8, 0), 1}}), got->next_positions);
  EXPECT_FALSE(got->retry);
  EXPECT_TRUE(got->stale_partitions.empty());
}

TEST(LeaderFetch, StopOffsetsCutTheLastBatch) {
  proto::FetchLogResponse resp;
  AddBucket(resp, 7, 1)->set_records(Batch(0, 3) + Batch(3, 2));
  const std::map<TableBucket, int64_t> stop{{P(7, 1), 4}};
  auto got = TakeLeaderFetch(Body(resp), {{P(7, 1), 0}}, stop, "db.t");
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->batches.size(), 2u);
  EXPECT_EQ(got->batches[1].from, 0);
  EXPECT_EQ(got->batches[1].to, 1);  // offset 3 only
  EXPECT_EQ(got->next_positions.at(P(7, 1)), 4);
}

// An answer cut at the bucket's byte limit ends in part of a batch: the complete batches are
// taken, and the cut batch's whole size is reported so the next fetch asks for all of it (not
// the same part again); a cut so short its length is unknown, or a bucket stopped before the
// cut, report nothing.
TEST(LeaderFetch, ABatchCutShortReportsItsWholeSize) {
  const std::string first = Batch(0, 3);
  const std::string big = Batch(3, 500);
  proto::FetchLogResponse resp;
  AddBucket(resp, 7, 0)->set_records(first + big.substr(0, 100));
  AddBucket(resp, 7, 1)->set_records(big.substr(0, 40));     // only part of the header
  AddBucket(resp, 7, 2)->set_records(big.substr(0, 8));      // not even the batch length
  AddBucket(resp, 7, 3)->set_records(first + big.substr(0, 100));
  const std::map<TableBucket, int64_t> stop{{P(7, 3), 3}};
  auto got = TakeLeaderFetch(Body(resp), {{P(7, 0), 0}, {P(7, 1), 3}, {P(7, 2), 3}, {P(7, 3), 0}}, stop, "db.t");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->batches.size(), 2u);  // `first` of buckets 0 and 3
  EXPECT_EQ((std::map<TableBucket, int64_t>{{P(7, 0), 3}, {P(7, 3), 3}}), got->next_positions);
  EXPECT_EQ((std::map<TableBucket, int64_t>{{P(7, 0), static_cast<int64_t>(big.size())},
                                            {P(7, 1), static_cast<int64_t>(big.size())}}),
            got->next_batch_bytes);
  // The whole batch, when asked for, is taken and reports nothing further.
  proto::FetchLogResponse whole;
  AddBucket(whole, 7, 0)->set_records(big);
  auto again = TakeLeaderFetch(Body(whole), {{P(7, 0), 3}}, std::nullopt, "db.t");
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->batches.size(), 1u);
  EXPECT_EQ(again->next_positions.at(P(7, 0)), 503);
  EXPECT_TRUE(again->next_batch_bytes.empty());
}

TEST(LeaderFetch, ErrorsThatMayMeanADroppedPartitionMarkItStale) {
  for (int32_t code : {protocol::UNKNOWN_TABLE_OR_BUCKET_EXCEPTION, protocol::NOT_LEADER_OR_FOLLOWER,
                       protocol::PARTITION_NOT_EXISTS}) {
    proto::FetchLogResponse resp;
    auto* gone = AddBucket(resp, 8, 0);
    gone->set_error_code(code);
    gone->set_error_message("gone");
    AddBucket(resp, 7, 0)->set_records(Batch(0, 2));
    auto got = TakeLeaderFetch(Body(resp), {{P(7, 0), 0}, {P(8, 0), 0}}, std::nullopt, "db.t");
    ASSERT_TRUE(got.ok()) << code << ": " << got.status().ToString();
    EXPECT_EQ(got->stale_partitions, std::set<int64_t>{8}) << code;
    EXPECT_TRUE(got->retry);
    EXPECT_FALSE(got->invalidate_table);  // the other partitions' leaders stay cached
    ASSERT_EQ(got->batches.size(), 1u);   // partition 7 keeps flowing
    EXPECT_EQ(got->batches[0].bucket, P(7, 0));
    EXPECT_EQ(got->next_positions.at(P(7, 0)), 2);
  }
}

TEST(LeaderFetch, NonPartitionedBucketsInvalidateTheTable) {
  proto::FetchLogResponse resp;
  AddBucket(resp, std::nullopt, 2)->set_error_code(protocol::NOT_LEADER_OR_FOLLOWER);
  auto got = TakeLeaderFetch(Body(resp), {{TableBucket{kTable, std::nullopt, 2}, 0}}, std::nullopt, "db.t");
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->invalidate_table);
  EXPECT_TRUE(got->retry);
  EXPECT_TRUE(got->stale_partitions.empty());
  // A retriable error without stale metadata just fetches again.
  proto::FetchLogResponse busy;
  AddBucket(busy, std::nullopt, 2)->set_error_code(protocol::STORAGE_EXCEPTION);
  got = TakeLeaderFetch(Body(busy), {{TableBucket{kTable, std::nullopt, 2}, 0}}, std::nullopt, "db.t");
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->invalidate_table);
  EXPECT_TRUE(got->retry);
}

TEST(LeaderFetch, OtherErrorsFailNamingThePartitionBucket) {
  proto::FetchLogResponse resp;
  auto* b = AddBucket(resp, 7, 3);
  b->set_error_code(protocol::LOG_OFFSET_OUT_OF_RANGE_EXCEPTION);
  b->set_error_message("offset 99 out of range");
  auto got = TakeLeaderFetch(Body(resp), {{P(7, 3), 99}}, std::nullopt, "db.t");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().error_code(), protocol::LOG_OFFSET_OUT_OF_RANGE_EXCEPTION);
  EXPECT_NE(got.status().message().find("table db.t partition 7 bucket 3"), std::string::npos) << got.status().message();
  // A fenced leader epoch is fetched again.
  proto::FetchLogResponse fenced;
  AddBucket(fenced, 7, 3)->set_error_code(protocol::FENCED_LEADER_EPOCH_EXCEPTION);
  got = TakeLeaderFetch(Body(fenced), {{P(7, 3), 0}}, std::nullopt, "db.t");
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->retry);
}

}  // namespace
}  // namespace fluss::scan
