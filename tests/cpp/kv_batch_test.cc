// KV record batches (protocol-data.md section 5, worked example 5.4 [C]: CRC 0xD0AC5307 confirmed
// with the JDK's CRC-32C and parsed by the real DefaultKvRecordBatch), lookup values and value
// record batches (section 9).
#include <gtest/gtest.h>

#include <arrow/buffer.h>

#include "arrow_rows.h"
#include "fluss/record/kv_batch.h"
#include "fluss/record/value_batch.h"
#include "fluss/row/kv_value.h"
#include "fluss/util/bytes.h"
#include "hex.h"

namespace fluss::record {
namespace {

using testing::Builders;
using testing::ExpectColumn;
using testing::Hex;
using testing::Unhex;

std::string Str(const arrow::Buffer& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

const char* kExample54 =
    "29000000 | 00 | 0753acd0 | 0100 | 00 | ffffffffffffffff | ffffffff | 02000000 |"
    "07000000 01 01 00 01 01 61 64 |"
    "02000000 01 02";

std::shared_ptr<arrow::Schema> TableE1() {
  return arrow::schema({arrow::field("a", arrow::int32(), false), arrow::field("b", arrow::utf8()),
                        arrow::field("c", arrow::int64())});
}

TEST(KvBatchTest, WorkedExample54) {
  // Table (a INT PK, b STRING, c BIGINT), compacted, schema id 1: upsert (1, 'a', 100), delete 2.
  auto codec = row::CompactedRowCodec::Make(*TableE1());
  ASSERT_TRUE(codec.ok());
  const Value row[] = {Value::Int(1), Value::Bytes("a"), Value::Int(100)};
  std::string value_row;
  ASSERT_TRUE(codec->Encode(row, &value_row).ok());
  KvBatchBuilder b;
  ASSERT_TRUE(b.AppendUpsert("\x01", value_row).ok());
  ASSERT_TRUE(b.AppendDelete("\x02").ok());
  EXPECT_EQ(b.num_records(), 2);
  EXPECT_EQ(b.size_in_bytes(), 45);
  auto batch = b.Finish(1);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(Hex(Str(**batch)), Hex(Unhex(kExample54)));
  EXPECT_EQ(util::GetLe<uint32_t>((*batch)->data() + kKvCrcOffset), 0xD0AC5307u);
  // The builder is empty again: the next batch is header-only.
  EXPECT_EQ(b.num_records(), 0);
  EXPECT_EQ(b.size_in_bytes(), 28);
}

TEST(KvBatchTest, ParseWorkedExample) {
  const std::string bytes = Unhex(kExample54);
  auto v = ParseKvBatch(testing::Bytes(bytes), bytes.size());
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->batch_size(), 45u);
  EXPECT_EQ(v->schema_id, 1);
  EXPECT_EQ(v->writer_id, -1);
  EXPECT_EQ(v->batch_sequence, -1);
  ASSERT_EQ(v->records.size(), 2u);
  EXPECT_EQ(Hex(v->records[0].key), "01");
  ASSERT_TRUE(v->records[0].value.has_value());
  EXPECT_EQ(Hex(*v->records[0].value), "0001016164");
  EXPECT_EQ(Hex(v->records[1].key), "02");
  EXPECT_FALSE(v->records[1].value.has_value());
}

TEST(KvBatchTest, RestampingWriterAndSequenceRecomputesTheCrc) {
  KvBatchBuilder b;
  ASSERT_TRUE(b.AppendDelete("k").ok());
  auto batch = b.Finish(3, 77, 5);
  ASSERT_TRUE(batch.ok());
  auto* data = (*batch)->mutable_data();
  const size_t size = static_cast<size_t>((*batch)->size());
  auto v = ParseKvBatch(data, size);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->writer_id, 77);
  EXPECT_EQ(v->batch_sequence, 5);
  SetKvWriterAndSequence(data, size, 1234567890123LL, 0);
  v = ParseKvBatch(data, size);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->writer_id, 1234567890123LL);
  EXPECT_EQ(v->batch_sequence, 0);
  EXPECT_EQ(v->crc, ComputeKvBatchCrc(data, size));
  // Back to the unstamped values gives back the unstamped CRC.
  SetKvWriterAndSequence(data, size, -1, -1);
  KvBatchBuilder again;
  ASSERT_TRUE(again.AppendDelete("k").ok());
  auto plain = again.Finish(3);
  EXPECT_EQ(Hex(Str(**batch)), Hex(Str(**plain)));
}

TEST(KvBatchTest, RejectsBadInputAndCorruptBatches) {
  KvBatchBuilder b;
  EXPECT_EQ(b.AppendDelete("").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(b.num_records(), 0);
  std::string bytes = Unhex(kExample54);
  EXPECT_EQ(ParseKvBatch(testing::Bytes(bytes), 27).status().code(), StatusCode::kProtocol);
  EXPECT_EQ(ParseKvBatch(testing::Bytes(bytes), 44).status().code(), StatusCode::kProtocol);
  std::string flipped = bytes;
  flipped[37] ^= 1;  // a byte of the first value row
  EXPECT_EQ(ParseKvBatch(testing::Bytes(flipped), flipped.size()).status().code(), StatusCode::kProtocol);
  EXPECT_TRUE(ParseKvBatch(testing::Bytes(flipped), flipped.size(), /*verify_crc=*/false).ok());
  std::string magic = bytes;
  magic[4] = 1;
  EXPECT_EQ(ParseKvBatch(testing::Bytes(magic), magic.size(), false).status().code(), StatusCode::kProtocol);
  std::string count = bytes;
  count[24] = 3;
  EXPECT_EQ(ParseKvBatch(testing::Bytes(count), count.size(), false).status().code(), StatusCode::kProtocol);
  std::string key_len = bytes;
  key_len[43] = 5;  // the delete's key length now runs past its record
  EXPECT_EQ(ParseKvBatch(testing::Bytes(key_len), key_len.size(), false).status().code(), StatusCode::kProtocol);
}

TEST(KvValueTest, Section9ExampleBothWays) {
  auto codec = row::KvRowCodec::Make(*TableE1(), row::KvFormat::kCompacted);
  ASSERT_TRUE(codec.ok());
  const Value row[] = {Value::Int(1), Value::Bytes("a"), Value::Int(100)};
  std::string value;
  ASSERT_TRUE(row::EncodeValue(1, *codec, row, &value).ok());
  EXPECT_EQ(Hex(value), "01000001016164");
  Builders b(TableE1());
  ASSERT_TRUE(row::DecodeValue(testing::Bytes(value), value.size(), 1, *codec, b.raw).ok());
  auto rb = b.Finish();
  ExpectColumn(rb, 0, "[1]");
  ExpectColumn(rb, 1, R"(["a"])");
  ExpectColumn(rb, 2, "[100]");
  // Another schema id is reported, not misread.
  Builders other(TableE1());
  EXPECT_EQ(row::DecodeValue(testing::Bytes(value), value.size(), 2, *codec, other.raw).code(), StatusCode::kProtocol);
  EXPECT_EQ(other.raw[0]->length(), 0);
  EXPECT_EQ(row::ParseValue(testing::Bytes(value), 1).status().code(), StatusCode::kProtocol);
}

TEST(KvValueTest, IndexedKvFormat) {
  auto format = row::KvFormatOf({{"table.kv.format", "indexed"}});
  ASSERT_TRUE(format.ok());
  EXPECT_EQ(*format, row::KvFormat::kIndexed);
  EXPECT_EQ(*row::KvFormatOf({}), row::KvFormat::kCompacted);
  EXPECT_EQ(row::KvFormatOf({{"table.kv.format", "arrow"}}).status().code(), StatusCode::kInvalidArgument);
  auto codec = row::KvRowCodec::Make(*TableE1(), *format);
  ASSERT_TRUE(codec.ok());
  EXPECT_EQ(codec->format(), row::KvFormat::kIndexed);
  const Value row[] = {Value::Int(1), Value::Bytes("a"), Value::Int(100)};
  std::string value;
  ASSERT_TRUE(row::EncodeValue(1, *codec, row, &value).ok());
  // schema id 1, then IndexedRow E1.
  EXPECT_EQ(Hex(value), "0100" "00" "01000000" "01000000" "61" "6400000000000000");
}

TEST(ValueBatchTest, HandBuiltBatch) {
  // Two values of schema 1 (rows (1,'a',100) and (2,NULL,-1)), as LimitScan returns them:
  // 9-byte header + (4 + 7) + (4 + 14) = 38 bytes, Length 34 (0x22) = bytes after the Length.
  const std::string v1 = Unhex("0100 0001016164");
  const std::string v2 = Unhex("0100 02 02 ffffffffffffffffff01");
  const std::string expected = Unhex(
      "22000000 | 00 | 02000000 |"
      "07000000 0100 0001016164 |"
      "0e000000 0100 02 02 ffffffffffffffffff01");
  EXPECT_EQ(Hex(BuildValueRecordBatch({v1, v2})), Hex(expected));
  auto values = ParseValueRecordBatch(testing::Bytes(expected), expected.size());
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  ASSERT_EQ(values->size(), 2u);
  EXPECT_EQ(Hex((*values)[0]), Hex(v1));
  EXPECT_EQ(Hex((*values)[1]), Hex(v2));

  auto codec = row::KvRowCodec::Make(*TableE1(), row::KvFormat::kCompacted);
  Builders b(TableE1());
  for (auto v : *values)
    ASSERT_TRUE(row::DecodeValue(reinterpret_cast<const uint8_t*>(v.data()), v.size(), 1, *codec, b.raw).ok());
  auto rb = b.Finish();
  ExpectColumn(rb, 0, "[1, 2]");
  ExpectColumn(rb, 1, R"(["a", null])");
  ExpectColumn(rb, 2, "[100, -1]");

  auto empty = ParseValueRecordBatch(testing::Bytes(BuildValueRecordBatch({})), 9);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(ParseValueRecordBatch(testing::Bytes(expected), expected.size() - 1).status().code(),
            StatusCode::kProtocol);
  std::string count = expected;
  count[5] = 3;
  EXPECT_EQ(ParseValueRecordBatch(testing::Bytes(count), count.size()).status().code(), StatusCode::kProtocol);
}

}  // namespace
}  // namespace fluss::record
