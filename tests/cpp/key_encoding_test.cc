// Key encoders and bucket functions (protocol-data.md sections 6.1-6.5 and 7.2): every vector of
// 6.2, 6.3, 6.4 and the 7.2 table ([J]: byte-identical to the real Java classes; T: Java's own
// BucketingFunctionTest), and the encoder choice from table properties.
#include <gtest/gtest.h>

#include <arrow/type.h>

#include "arrow_rows.h"
#include "fluss/row/bucketing.h"
#include "fluss/row/iceberg_key_encoder.h"
#include "fluss/row/key_encoding.h"
#include "fluss/row/paimon_key_encoder.h"
#include "hex.h"

namespace fluss::row {
namespace {

using testing::Dec;
using testing::Hex;
using testing::Unhex;

template <typename Encoder>
std::string EncodeKey(std::shared_ptr<arrow::Schema> schema, std::vector<int> cols, const std::vector<Value>& row) {
  auto enc = Encoder::Create(schema, cols);
  EXPECT_TRUE(enc.ok()) << enc.status().ToString();
  if (!enc.ok()) return "?";
  std::string out = "garbage";
  Status st = enc->Encode(row.data(), &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return Hex(out);
}

std::shared_ptr<arrow::Schema> One(std::shared_ptr<arrow::DataType> t) { return arrow::schema({arrow::field("k", t)}); }
std::shared_ptr<arrow::Schema> IntString() {
  return arrow::schema({arrow::field("i", arrow::int32()), arrow::field("s", arrow::utf8())});
}

TEST(KeyEncodingTest, CompactedKeyVectors62) {
  auto c = [](std::shared_ptr<arrow::DataType> t, Value v) { return EncodeKey<CompactedKeyEncoder>(One(t), {0}, {v}); };
  EXPECT_EQ(c(arrow::int32(), Value::Int(1)), "01");
  EXPECT_EQ(c(arrow::int32(), Value::Int(128)), "8001");
  EXPECT_EQ(c(arrow::int32(), Value::Int(-1)), "ffffffff0f");
  EXPECT_EQ(c(arrow::utf8(), Value::Bytes("a")), "0161");
  EXPECT_EQ(c(arrow::utf8(), Value::Bytes("abc")), "03616263");
  EXPECT_EQ(c(arrow::int64(), Value::Int(-1)), "ffffffffffffffffff01");
  EXPECT_EQ(EncodeKey<CompactedKeyEncoder>(IntString(), {0, 1}, {Value::Int(1), Value::Bytes("a")}), "010161");
}

TEST(KeyEncodingTest, PaimonKeyVectors63) {
  auto p = [](std::shared_ptr<arrow::DataType> t, Value v) { return EncodeKey<PaimonKeyEncoder>(One(t), {0}, {v}); };
  EXPECT_EQ(p(arrow::int32(), Value::Int(1)), "0000000000000000" "0100000000000000");
  EXPECT_EQ(p(arrow::utf8(), Value::Bytes("abc")), "0000000000000000" "6162630000000083");
  EXPECT_EQ(p(arrow::utf8(), Value::Bytes("abcdefgh")), "0000000000000000" "0800000010000000" "6162636465666768");
  EXPECT_EQ(EncodeKey<PaimonKeyEncoder>(IntString(), {0, 1}, {Value::Int(1), Value::Bytes("a")}),
            "0000000000000000" "0100000000000000" "6100000000000081");
}

TEST(KeyEncodingTest, PaimonKeyOtherTypes) {
  auto p = [](std::shared_ptr<arrow::DataType> t, Value v) { return EncodeKey<PaimonKeyEncoder>(One(t), {0}, {v}); };
  // 9 bytes: var part padded to 16, slot (16 << 32) | 9.
  EXPECT_EQ(p(arrow::binary(), Value::Bytes("abcdefghi")),
            "0000000000000000" "0900000010000000" "616263646566676869" "00000000000000");
  EXPECT_EQ(p(arrow::int16(), Value::Int(-2)), "0000000000000000" "feff000000000000");
  EXPECT_EQ(p(arrow::decimal128(10, 2), Dec("1234")), "0000000000000000" "d204000000000000");
  // Non-compact decimal: 16 reserved bytes holding 04d2, slot (16 << 32) | 2.
  EXPECT_EQ(p(arrow::decimal128(20, 2), Dec("1234")),
            "0000000000000000" "0200000010000000" "04d2000000000000" "0000000000000000");
  // TIMESTAMP(6) 1500 ms + 123000 ns: millis in the var part, slot (16 << 32) | 123000.
  EXPECT_EQ(p(arrow::timestamp(arrow::TimeUnit::MICRO), Value::Int(1500123)),
            "0000000000000000" "78e0010010000000" "dc05000000000000");
  // TIMESTAMP_LTZ(6): Java writes the slot but keeps no millis (see paimon_key_encoder.h).
  EXPECT_EQ(p(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), Value::Int(1500123)),
            "0000000000000000" "78e0010010000000");
  EXPECT_EQ(p(arrow::timestamp(arrow::TimeUnit::MILLI), Value::Int(1500)), "0000000000000000" "dc05000000000000");
}

TEST(KeyEncodingTest, IcebergKeyVectors64) {
  auto ice = [](std::shared_ptr<arrow::DataType> t, Value v) { return EncodeKey<IcebergKeyEncoder>(One(t), {0}, {v}); };
  EXPECT_EQ(ice(arrow::int32(), Value::Int(1)), "0100000000000000");
  EXPECT_EQ(ice(arrow::utf8(), Value::Bytes("abc")), "616263");
  EXPECT_EQ(ice(arrow::int64(), Value::Int(-1)), "ffffffffffffffff");
  EXPECT_EQ(ice(arrow::date32(), Value::Int(2)), "0200000000000000");
  EXPECT_EQ(ice(arrow::time32(arrow::TimeUnit::MILLI), Value::Int(1)), "e803000000000000");  // 1000 us
  EXPECT_EQ(ice(arrow::timestamp(arrow::TimeUnit::NANO), Value::Int(1500123456)),
            "dbe3160000000000");  // 1500123 us = 0x16e3db
  EXPECT_EQ(ice(arrow::decimal128(10, 2), Dec("-100")), "9c");
  EXPECT_EQ(ice(arrow::fixed_size_binary(2), Value::Bytes("\x01\x02")), "0102");
  for (auto t : {arrow::boolean(), arrow::int8(), arrow::int16(), arrow::timestamp(arrow::TimeUnit::MILLI, "UTC")}) {
    auto enc = IcebergKeyEncoder::Create(One(t), {0});
    EXPECT_EQ(enc.status().code(), StatusCode::kInvalidArgument) << t->ToString();
    EXPECT_NE(enc.status().message().find("'k'"), std::string::npos);
  }
  EXPECT_EQ(IcebergKeyEncoder::Create(IntString(), {0, 1}).status().code(), StatusCode::kInvalidArgument);
}

struct BucketRow {
  std::string key;
  int32_t hash_or_zero;  // Fluss hashBytes when checked, else 0
  int fluss_b3, fluss_b7, fluss_b16;
};

TEST(KeyEncodingTest, FlussBucketTable72) {
  const BucketRow rows[] = {
      {Unhex("01"), static_cast<int32_t>(0xe8f30d16), 0, 4, 12},
      {Unhex("0161"), static_cast<int32_t>(0x9386186d), 1, 0, 11},
      {Unhex("010161"), static_cast<int32_t>(0xb4f2ba81), 2, 3, 5},
      {Unhex("03616263"), static_cast<int32_t>(0x02208332), 1, 6, 15},
      {Unhex("8001"), static_cast<int32_t>(0x660fc139), 1, 2, 2},
      {Unhex("ffffffffffffffffff01"), static_cast<int32_t>(0xa4d939c0), 2, 1, 7},
      {Unhex("ffffffff0f"), 0, 0, 1, 10},
  };
  for (const auto& r : rows) {
    if (r.hash_or_zero != 0) EXPECT_EQ(FlussHashBytes(r.key), r.hash_or_zero) << Hex(r.key);
    EXPECT_EQ(BucketOf(BucketingFunction::kFluss, r.key, 3), r.fluss_b3) << Hex(r.key);
    EXPECT_EQ(BucketOf(BucketingFunction::kFluss, r.key, 7), r.fluss_b7) << Hex(r.key);
    EXPECT_EQ(BucketOf(BucketingFunction::kFluss, r.key, 16), r.fluss_b16) << Hex(r.key);
  }
  EXPECT_EQ(FlussHashBytes(""), static_cast<int32_t>(0x087fcd5c));
  EXPECT_EQ(BucketOf(BucketingFunction::kFluss, "", 16), -1);
}

TEST(KeyEncodingTest, JavaBucketingFunctionVectorsForAllThree) {
  const std::string uuid = "2bb87d68-baf9-4e64-90f9-f80910419fa6";
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(FlussHashBytes(fox), 0x1bc6f880);
  struct Case {
    std::string key;
    int n, fluss, paimon, iceberg;
  } cases[] = {{Unhex("000a"), 7, 1, 1, 3}, {Unhex("000a0a0a"), 12, 0, 11, 4}, {uuid, 16, 6, 12, 12}, {fox, 8, 6, 0, 3}};
  for (const auto& c : cases) {
    EXPECT_EQ(BucketOf(BucketingFunction::kFluss, c.key, c.n), c.fluss) << c.key;
    EXPECT_EQ(BucketOf(BucketingFunction::kPaimon, c.key, c.n), c.paimon) << c.key;
    EXPECT_EQ(BucketOf(BucketingFunction::kIceberg, c.key, c.n), c.iceberg) << c.key;
  }
}

TEST(KeyEncodingTest, PaimonAndIcebergBucketTable72) {
  const struct {
    const char* key;
    uint32_t hash;
    int bucket16;
  } paimon[] = {{"0000000000000000 0100000000000000", 0x5759f99e, 14},
                {"0000000000000000 6162630000000083", 0xf9ecc98d, 3},
                {"0000000000000000 0800000010000000 6162636465666768", 0xcdb53dce, 2},
                {"0000000000000000 0100000000000000 6100000000000081", 0xc778735a, 6}};
  for (const auto& p : paimon) {
    const std::string key = Unhex(p.key);
    EXPECT_EQ(FlussHashBytes(key), static_cast<int32_t>(p.hash)) << p.key;
    EXPECT_EQ(BucketOf(BucketingFunction::kPaimon, key, 16), p.bucket16) << p.key;
  }
  EXPECT_EQ(FlussHashBytes(Unhex("0000000000000000 6162630000000083")) % 16, -3);  // abs after %

  const struct {
    std::string key;
    int32_t murmur3;
    int bucket16;
  } iceberg[] = {{Unhex("0100000000000000"), 1392991556, 4}, {"abc", -1277324294, 10}, {"a", 1009084850, 2}};
  for (const auto& i : iceberg) {
    EXPECT_EQ(Murmur3Hash32(testing::Bytes(i.key), i.key.size(), 0), i.murmur3) << Hex(i.key);
    EXPECT_EQ(BucketOf(BucketingFunction::kIceberg, i.key, 16), i.bucket16) << Hex(i.key);
  }
  // Iceberg spec sanity values of standard Murmur3.
  const std::string long34 = Unhex("2200000000000000");
  EXPECT_EQ(Murmur3Hash32(testing::Bytes(long34), 8, 0), 2017239379);
  const std::string ice = "iceberg";
  EXPECT_EQ(Murmur3Hash32(testing::Bytes(ice), ice.size(), 0), 1210000089);
  const std::string b4 = Unhex("00010203");
  EXPECT_EQ(Murmur3Hash32(testing::Bytes(b4), 4, 0), -188683207);
  EXPECT_EQ(BucketOf(BucketingFunction::kPaimon, "x", 0), -1);
  EXPECT_EQ(BucketOf(BucketingFunction::kIceberg, "x", -1), -1);
}

// Table (dt STRING, id INT, name STRING, v BIGINT), PK (dt, id, name), partitioned by dt.
std::shared_ptr<arrow::Schema> PkTable() {
  return arrow::schema({arrow::field("dt", arrow::utf8(), false), arrow::field("id", arrow::int32(), false),
                        arrow::field("name", arrow::utf8(), false), arrow::field("v", arrow::int64())});
}
const std::vector<Value> kRow = {Value::Bytes("20240101"), Value::Int(1), Value::Bytes("a"), Value::Int(7)};

std::string Enc(const std::shared_ptr<const KeyEncoder>& e) {
  std::string out;
  EXPECT_NE(e, nullptr);
  if (!e) return "?";
  Status st = e->Encode(kRow.data(), &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return Hex(out);
}

TEST(KeyEncodingTest, ChoiceRules61) {
  const std::vector<std::string> pk = {"dt", "id", "name"}, part = {"dt"};
  // No lake format, default bucket key: CompactedKey everywhere, bytes reused.
  auto plain = KeyEncoding::Make(PkTable(), pk, {}, part, {});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(plain->physical_primary_key, (std::vector<int>{1, 2}));
  EXPECT_EQ(plain->bucket_key, (std::vector<int>{1, 2}));
  EXPECT_TRUE(plain->default_bucket_key);
  EXPECT_TRUE(plain->primary_key_bytes_are_bucket_key_bytes);
  EXPECT_EQ(plain->bucketing, BucketingFunction::kFluss);
  EXPECT_EQ(Enc(plain->primary_key_encoder), "010161");
  EXPECT_EQ(Enc(plain->bucket_key_encoder), "010161");
  EXPECT_EQ(plain->BucketOfKey(Unhex("010161"), 16), 5);

  // Paimon, version 1, bucket key id: PK and bucket key both Paimon.
  auto p1 = KeyEncoding::Make(PkTable(), pk, {"id"}, part, {{"table.datalake.format", "paimon"}});
  ASSERT_TRUE(p1.ok()) << p1.status().ToString();
  EXPECT_FALSE(p1->default_bucket_key);
  EXPECT_EQ(p1->bucketing, BucketingFunction::kPaimon);
  EXPECT_EQ(Enc(p1->primary_key_encoder), "0000000000000000" "0100000000000000" "6100000000000081");
  EXPECT_EQ(Enc(p1->bucket_key_encoder), "0000000000000000" "0100000000000000");
  EXPECT_FALSE(p1->primary_key_bytes_are_bucket_key_bytes);

  // Paimon, version 2, non-default bucket key: PK is CompactedKey (prefix property), bucket key Paimon.
  const std::map<std::string, std::string> p2_props = {{"table.datalake.format", "paimon"},
                                                       {"table.kv.format-version", "2"}};
  auto p2 = KeyEncoding::Make(PkTable(), pk, {"id"}, part, p2_props);
  ASSERT_TRUE(p2.ok());
  EXPECT_EQ(Enc(p2->primary_key_encoder), "010161");
  EXPECT_EQ(Enc(p2->bucket_key_encoder), "0000000000000000" "0100000000000000");

  // Paimon, version 2, default bucket key: the lake encoder, bytes reused.
  auto p2d = KeyEncoding::Make(PkTable(), pk, {}, part, p2_props);
  ASSERT_TRUE(p2d.ok());
  EXPECT_EQ(Enc(p2d->primary_key_encoder), "0000000000000000" "0100000000000000" "6100000000000081");
  EXPECT_TRUE(p2d->primary_key_bytes_are_bucket_key_bytes);

  // Lance behaves as no lake format.
  auto lance = KeyEncoding::Make(PkTable(), pk, {"id"}, part, {{"table.datalake.format", "lance"}});
  ASSERT_TRUE(lance.ok());
  EXPECT_EQ(Enc(lance->primary_key_encoder), "010161");
  EXPECT_EQ(Enc(lance->bucket_key_encoder), "01");
  EXPECT_EQ(lance->bucketing, BucketingFunction::kFluss);

  // Iceberg, version 2, bucket key id: PK CompactedKey, bucket key Iceberg.
  auto ice = KeyEncoding::Make(PkTable(), pk, {"id"}, part,
                               {{"table.datalake.format", "iceberg"}, {"table.kv.format-version", "2"}});
  ASSERT_TRUE(ice.ok()) << ice.status().ToString();
  EXPECT_EQ(Enc(ice->primary_key_encoder), "010161");
  EXPECT_EQ(Enc(ice->bucket_key_encoder), "0100000000000000");
  EXPECT_EQ(ice->bucketing, BucketingFunction::kIceberg);
  // Iceberg, version 1: the PK (two columns) would need the Iceberg encoder, which takes one.
  auto ice1 = KeyEncoding::Make(PkTable(), pk, {"id"}, part, {{"table.datalake.format", "iceberg"}});
  EXPECT_EQ(ice1.status().code(), StatusCode::kInvalidArgument);

  // A log table with a bucket key: no primary-key encoder.
  auto log = KeyEncoding::Make(PkTable(), {}, {"name"}, {}, {});
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->primary_key_encoder, nullptr);
  EXPECT_EQ(Enc(log->bucket_key_encoder), "0161");
  auto log_no_key = KeyEncoding::Make(PkTable(), {}, {}, {}, {});
  ASSERT_TRUE(log_no_key.ok());
  EXPECT_EQ(log_no_key->bucket_key_encoder, nullptr);
}

TEST(KeyEncodingTest, BadTablesAreRejected) {
  const std::vector<std::string> pk = {"dt", "id", "name"};
  auto unknown = KeyEncoding::Make(PkTable(), pk, {"nope"}, {"dt"}, {});
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("'nope'"), std::string::npos);
  auto bucket_outside = KeyEncoding::Make(PkTable(), pk, {"v"}, {"dt"}, {});
  EXPECT_EQ(bucket_outside.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bucket_outside.status().message().find("'v'"), std::string::npos);
  auto bucket_is_partition = KeyEncoding::Make(PkTable(), pk, {"dt"}, {"dt"}, {});
  EXPECT_EQ(bucket_is_partition.status().code(), StatusCode::kInvalidArgument);
  auto part_outside = KeyEncoding::Make(PkTable(), {"id"}, {}, {"dt"}, {});
  EXPECT_EQ(part_outside.status().code(), StatusCode::kInvalidArgument);
  auto only_partition = KeyEncoding::Make(PkTable(), {"dt"}, {}, {"dt"}, {});
  EXPECT_EQ(only_partition.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(KeyEncoding::Make(PkTable(), pk, {}, {}, {{"table.datalake.format", "hudi"}}).status().code(),
            StatusCode::kUnsupported);
  EXPECT_EQ(KeyEncoding::Make(PkTable(), pk, {}, {}, {{"table.kv.format-version", "3"}}).status().code(),
            StatusCode::kUnsupported);
}

TEST(KeyEncodingTest, PrefixLookupKey65) {
  const std::vector<std::string> pk = {"dt", "id", "name"}, part = {"dt"};
  // Version 2 + paimon, bucket key id: CompactedKey of id, a byte prefix of the PK bytes.
  auto p2 = KeyEncoding::Make(PkTable(), pk, {"id"}, part,
                              {{"table.datalake.format", "paimon"}, {"table.kv.format-version", "2"}});
  ASSERT_TRUE(p2.ok());
  auto prefix = p2->PrefixKeyEncoder({"dt", "id"});
  ASSERT_TRUE(prefix.ok()) << prefix.status().ToString();
  EXPECT_EQ(Enc(*prefix), "01");
  EXPECT_EQ(Enc(p2->primary_key_encoder).rfind(Enc(*prefix), 0), 0u);
  // Partition column missing, wrong columns, the whole PK.
  EXPECT_EQ(p2->PrefixKeyEncoder({"id"}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(p2->PrefixKeyEncoder({"dt", "name"}).status().code(), StatusCode::kInvalidArgument);
  auto whole = KeyEncoding::Make(PkTable(), pk, {}, part, {});
  EXPECT_EQ(whole->PrefixKeyEncoder({"dt", "id", "name"}).status().code(), StatusCode::kInvalidArgument);
  // A bucket key that is not the leading PK column.
  auto trailing = KeyEncoding::Make(PkTable(), pk, {"name"}, part, {{"table.kv.format-version", "2"}});
  ASSERT_TRUE(trailing.ok());
  EXPECT_EQ(trailing->PrefixKeyEncoder({"dt", "name"}).status().code(), StatusCode::kInvalidArgument);
  // Version 1 without a lake format: CompactedKey PKs, prefix lookup works.
  auto v1 = KeyEncoding::Make(PkTable(), pk, {"id"}, part, {});
  ASSERT_TRUE(v1.ok());
  EXPECT_EQ(Enc(*v1->PrefixKeyEncoder({"dt", "id"})), "01");
  // Version 1 with paimon: no prefix property.
  auto p1 = KeyEncoding::Make(PkTable(), pk, {"id"}, part, {{"table.datalake.format", "paimon"}});
  ASSERT_TRUE(p1.ok());
  EXPECT_EQ(p1->PrefixKeyEncoder({"dt", "id"}).status().code(), StatusCode::kUnsupported);
  // A log table has no prefix lookup.
  auto log = KeyEncoding::Make(PkTable(), {}, {"id"}, {}, {});
  EXPECT_EQ(log->PrefixKeyEncoder({"id"}).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fluss::row
