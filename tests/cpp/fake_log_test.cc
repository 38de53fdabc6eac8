// The fake leader's log rules (tests/cpp/fake/fake_log.h) against protocol-rpc.md 9.3: the fake
// is only a useful test tier if it refuses and deduplicates exactly as a 0.9.1 leader does.
#include <gtest/gtest.h>

#include <arrow/api.h>

#include "fake/fake_log.h"
#include "fluss/protocol/errors.h"
#include "fluss/record/arrow_log.h"

namespace fluss::fake {
namespace {

std::string Batch(std::vector<int32_t> values, int64_t writer, int32_t seq) {
  arrow::Int32Builder b;
  EXPECT_TRUE(b.AppendValues(values).ok());
  auto rb = arrow::RecordBatch::Make(arrow::schema({arrow::field("a", arrow::int32())}),
                                     static_cast<int64_t>(values.size()), {*b.Finish()});
  auto enc = record::EncodeArrowLogBatch(*rb, 1, *record::ArrowWriteOptions("NONE", 3));
  EXPECT_TRUE(enc.ok());
  record::SetWriterAndSequence((*enc)->mutable_data(), static_cast<size_t>((*enc)->size()), writer, seq);
  return (*enc)->ToString();
}

TEST(FakeBucketLog, AssignsConsecutiveOffsetsAndCommitTimestamps) {
  BucketLog log;
  auto a = log.Append(Batch({1, 2, 3}, 7, 0), 1000);
  EXPECT_EQ(a.error_code, 0);
  EXPECT_EQ(a.base_offset, 0);
  auto b = log.Append(Batch({4}, 7, 1), 1001);
  EXPECT_EQ(b.base_offset, 3);
  EXPECT_EQ(log.end_offset(), 4);
  ASSERT_EQ(log.batches().size(), 2u);
  EXPECT_EQ(log.batches()[1].header.base_offset, 3);
  EXPECT_EQ(log.batches()[1].header.commit_timestamp, 1001);
  // The stored bytes carry the assigned offset and still match their CRC.
  auto h = record::ParseLogBatchHeader(reinterpret_cast<const uint8_t*>(log.batches()[1].bytes.data()),
                                       log.batches()[1].bytes.size());
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->base_offset, 3);
  EXPECT_EQ(record::ComputeBatchCrc(reinterpret_cast<const uint8_t*>(log.batches()[1].bytes.data()),
                                    log.batches()[1].bytes.size()),
            h->crc);
}

TEST(FakeBucketLog, DuplicateOfOneOfTheLastFiveBatchesAnswersItsOriginalOffset) {
  BucketLog log;
  for (int32_t s = 0; s < 6; ++s) ASSERT_EQ(log.Append(Batch({s}, 7, s), 1).error_code, 0);
  auto dup = log.Append(Batch({1}, 7, 1), 1);  // sequence 1 is among the last five (1..5)
  EXPECT_EQ(dup.error_code, 0);
  EXPECT_TRUE(dup.duplicate);
  EXPECT_EQ(dup.base_offset, 1);
  EXPECT_EQ(log.end_offset(), 6);
  // Sequence 0 is no longer remembered: it is out of order, not a duplicate.
  auto old = log.Append(Batch({0}, 7, 0), 1);
  EXPECT_EQ(old.error_code, protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION);
  EXPECT_EQ(log.end_offset(), 6);
}

TEST(FakeBucketLog, OutOfOrderSequencesAreRefused) {
  BucketLog log;
  EXPECT_EQ(log.Append(Batch({1}, 7, 1), 1).error_code, protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION);  // first must be 0
  EXPECT_EQ(log.Append(Batch({1}, 7, 0), 1).error_code, 0);
  EXPECT_EQ(log.Append(Batch({1}, 7, 2), 1).error_code, protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION);  // a gap
  EXPECT_EQ(log.Append(Batch({1}, 8, 0), 1).error_code, 0);  // another writer has its own sequences
  EXPECT_EQ(log.Append(Batch({1}, -1, -1), 1).error_code, 0);  // no writer id: no checks
  EXPECT_EQ(log.Append(Batch({1}, -1, -1), 1).error_code, 0);
  EXPECT_EQ(log.end_offset(), 4);
}

TEST(FakeBucketLog, CorruptBatchIsRefused) {
  BucketLog log;
  std::string b = Batch({1, 2}, -1, -1);
  b[b.size() - 1] ^= 1;
  EXPECT_EQ(log.Append(b, 1).error_code, protocol::CORRUPT_RECORD_EXCEPTION);
  EXPECT_EQ(log.Append(b.substr(0, 20), 1).error_code, protocol::CORRUPT_RECORD_EXCEPTION);
  EXPECT_EQ(log.end_offset(), 0);
}

TEST(FakeBucketLog, ReadReturnsWholeBatchesFromTheOneHoldingTheOffset) {
  BucketLog log;
  const std::string b0 = Batch({1, 2, 3}, -1, -1);
  ASSERT_EQ(log.Append(b0, 1).error_code, 0);
  ASSERT_EQ(log.Append(Batch({4}, -1, -1), 1).error_code, 0);
  EXPECT_EQ(log.Read(1, 1 << 20, true).size(), log.batches()[0].bytes.size() + log.batches()[1].bytes.size());
  EXPECT_EQ(log.Read(3, 1 << 20, true), log.batches()[1].bytes);
  EXPECT_EQ(log.Read(0, 1, true), log.batches()[0].bytes);  // at least one batch
  EXPECT_EQ(log.Read(0, 1, false), "");
  EXPECT_EQ(log.Read(4, 1 << 20, true), "");
}

}  // namespace
}  // namespace fluss::fake
