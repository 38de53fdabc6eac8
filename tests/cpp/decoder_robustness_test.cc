// The sans-I/O decoders of primary-key data (CompactedRow, IndexedRow, KV batches, value record
// batches, value bytes) on random and truncated input: they fail with a Status, never read out of
// bounds (run under a sanitizer to check the latter) and never append part of a row.
#include <gtest/gtest.h>

#include <random>

#include "arrow_rows.h"
#include "fluss/record/kv_batch.h"
#include "fluss/record/value_batch.h"
#include "fluss/row/kv_value.h"
#include "fluss/util/bytes.h"
#include "hex.h"

namespace fluss {
namespace {

std::shared_ptr<arrow::Schema> EveryType() {
  return arrow::schema({arrow::field("b", arrow::boolean()), arrow::field("i8", arrow::int8()),
                        arrow::field("i16", arrow::int16()), arrow::field("i32", arrow::int32()),
                        arrow::field("i64", arrow::int64()), arrow::field("f", arrow::float32()),
                        arrow::field("d", arrow::float64()), testing::CharField("c", 4),
                        arrow::field("s", arrow::utf8()), arrow::field("bin", arrow::fixed_size_binary(3)),
                        arrow::field("by", arrow::binary()), arrow::field("dc", arrow::decimal128(10, 2)),
                        arrow::field("dn", arrow::decimal128(30, 2)), arrow::field("dt", arrow::date32()),
                        arrow::field("t", arrow::time64(arrow::TimeUnit::NANO)),
                        arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MILLI)),
                        arrow::field("tn", arrow::timestamp(arrow::TimeUnit::NANO, "UTC"))});
}

std::vector<Value> SampleRow() {
  return {Value::Bool(true), Value::Int(-5), Value::Int(300), Value::Int(-1), Value::Int(1LL << 40),
          Value::Double(1.5), Value::Double(-2.25), Value::Bytes("ab"), Value::Bytes("hello"),
          Value::Bytes("xyz"), Value::Bytes(std::string_view("\x00\xff", 2)), testing::Dec("-1234"),
          testing::Dec("123456789012345678901234"), Value::Int(19000), Value::Int(3723001000000LL),
          Value::Int(-1), Value::Int(-1)};
}

TEST(DecoderRobustness, RowsTruncatedAndMutated) {
  auto schema = EveryType();
  for (auto format : {row::KvFormat::kCompacted, row::KvFormat::kIndexed}) {
    auto codec = row::KvRowCodec::Make(*schema, format);
    ASSERT_TRUE(codec.ok()) << codec.status().ToString();
    const auto values = SampleRow();
    std::string full;
    ASSERT_TRUE(codec->Encode(values.data(), &full).ok());
    {
      testing::Builders b(schema);
      ASSERT_TRUE(codec->Decode(testing::Bytes(full), full.size(), b.raw).ok());
    }
    for (size_t n = 0; n < full.size(); ++n) {  // every truncation fails cleanly
      testing::Builders b(schema);
      EXPECT_FALSE(codec->Decode(testing::Bytes(full), n, b.raw).ok()) << n;
      for (auto* builder : b.raw) ASSERT_EQ(builder->length(), 0);
    }
    std::mt19937 rng(42);
    for (int iter = 0; iter < 3000; ++iter) {
      std::string m = full;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < flips; ++k) m[rng() % m.size()] = static_cast<char>(rng());
      testing::Builders b(schema);
      Status st = codec->Decode(testing::Bytes(m), m.size(), b.raw);
      const int64_t len = b.raw[0]->length();
      for (auto* builder : b.raw) ASSERT_EQ(builder->length(), len);  // all or nothing
      EXPECT_EQ(len, st.ok() ? 1 : 0);
    }
  }
}

TEST(DecoderRobustness, RandomBatches) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 5000; ++iter) {
    std::string bytes(rng() % 64, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    if (bytes.size() >= 9 && iter % 2 == 0) {  // plausible headers reach the record walk
      bytes[4] = 0;
      util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(bytes.data()), static_cast<int32_t>(bytes.size() - 4));
    }
    auto kv = record::ParseKvBatch(testing::Bytes(bytes), bytes.size(), /*verify_crc=*/false);
    auto values = record::ParseValueRecordBatch(testing::Bytes(bytes), bytes.size());
    auto value = row::ParseValue(testing::Bytes(bytes), bytes.size());
    if (kv.ok())
      for (const auto& r : kv->records) EXPECT_LE(r.key.size(), bytes.size());
    if (values.ok())
      for (auto v : *values) EXPECT_GE(v.size(), 2u);
    EXPECT_EQ(value.ok(), bytes.size() >= 2);
  }
}


// Found by tests/fuzz (rows_fuzz, kv_batches_fuzz): values the decoders used to append although
// no Arrow reader accepts them (invalid UTF-8 in a string, a decimal beyond its precision, a
// TIME outside the day) are refused as corrupt, and the writer refuses the same strings. The
// UTF-8 case here; tests/fuzz/regressions replays the decimal and TIME ones.
TEST(DecoderRobustness, ValuesOutsideTheirTypeAreCorrupt) {
  auto schema = arrow::schema({arrow::field("s", arrow::utf8()), arrow::field("dc", arrow::decimal128(4, 2)),
                               arrow::field("t", arrow::time32(arrow::TimeUnit::MILLI))});
  for (auto format : {row::KvFormat::kCompacted, row::KvFormat::kIndexed}) {
    auto codec = row::KvRowCodec::Make(*schema, format);
    ASSERT_TRUE(codec.ok()) << codec.status().ToString();
    std::string out;
    const std::vector<Value> bad_utf8{Value::Bytes("\xff\xfe"), testing::Dec("1"), Value::Int(0)};
    Status st = codec->Encode(bad_utf8.data(), &out);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("'s'"), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find("UTF-8"), std::string::npos) << st.ToString();
    // Rows that pass the writer's checks, then changed the way a faulty server could.
    auto encoded = [&](const std::vector<Value>& values) {
      std::string bytes;
      EXPECT_TRUE(codec->Encode(values.data(), &bytes).ok());
      return bytes;
    };
    const std::string good = encoded({Value::Bytes("ab"), testing::Dec("9999"), Value::Int(86399999)});
    {
      testing::Builders b(schema);
      ASSERT_TRUE(codec->Decode(testing::Bytes(good), good.size(), b.raw).ok());
    }
    std::string not_utf8 = good;
    const size_t at = not_utf8.find("ab");
    ASSERT_NE(at, std::string::npos);
    not_utf8[at] = '\xff';
    for (const std::string& corrupt : {not_utf8}) {
      testing::Builders b(schema);
      Status d = codec->Decode(testing::Bytes(corrupt), corrupt.size(), b.raw);
      EXPECT_EQ(d.code(), StatusCode::kProtocol) << d.ToString();
      EXPECT_NE(d.message().find("UTF-8"), std::string::npos) << d.ToString();
      for (auto* builder : b.raw) EXPECT_EQ(builder->length(), 0);
    }
  }
}

}  // namespace
}  // namespace fluss
