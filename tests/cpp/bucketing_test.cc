// Bucketing hash (Fluss MurmurHashUtils.hashBytes + MathUtils.murmurHash) and the CompactedKey
// encoder. Expected values: protocol-data.md section 7.2 (T = Java BucketingFunctionTest,
// [J] = output of the real Java classes), section 6.2, and per-type bytes derived from the
// CompactedRow rules of sections 0 and 4.1 (derivations in the comments).
#include <gtest/gtest.h>

#include <arrow/type.h>

#include <climits>
#include <string>
#include <vector>

#include "fluss/row/bucketing.h"
#include "fluss/row/key_encoder.h"

namespace fluss::row {
namespace {

std::string Unhex(std::string_view hex) {
  std::string out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  return out;
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

int32_t Hash(std::string_view bytes) { return FlussHashBytes(bytes); }
int32_t Bucket(std::string_view bytes, int32_t n) { return FlussBucketOf(bytes, n); }

// ---------------------------------------------------------------------------------------------
// Hash and bucket id

// Java BucketingFunctionTest.testDefaultBucketing (marked T in the doc's table).
TEST(BucketingTest, JavaBucketingFunctionTestVectors) {
  EXPECT_EQ(Bucket(Unhex("000a"), 7), 1);
  EXPECT_EQ(Bucket(Unhex("000a0a0a"), 12), 0);
  EXPECT_EQ(Bucket("2bb87d68-baf9-4e64-90f9-f80910419fa6", 16), 6);
  EXPECT_EQ(Bucket("The quick brown fox jumps over the lazy dog", 8), 6);
}

TEST(BucketingTest, QuickBrownFoxHash) {
  EXPECT_EQ(static_cast<uint32_t>(Hash("The quick brown fox jumps over the lazy dog")), 0x1bc6f880u);
}

TEST(BucketingTest, EmptyKey) {
  // hashBytes itself is defined for the empty input (only h ^= 0 and fmix32 of the seed) ...
  EXPECT_EQ(static_cast<uint32_t>(FlussHashBytes(nullptr, 0)), 0x087fcd5cu);
  // ... but bucketing an empty key is an error in Java (checkArgument), -1 here.
  EXPECT_EQ(FlussBucketOf(nullptr, 0, 16), -1);
  EXPECT_EQ(Bucket("", 3), -1);
}

TEST(BucketingTest, InvalidBucketCount) {
  EXPECT_EQ(Bucket(Unhex("01"), 0), -1);
  EXPECT_EQ(Bucket(Unhex("01"), -4), -1);
}

struct BucketVector {
  const char* key_hex;
  uint32_t hash;  // 0 = not given in the doc
  int32_t b3, b7, b16;
};

// Section 7.2, Fluss default column ([J]).
TEST(BucketingTest, DocTableVectors) {
  const BucketVector vectors[] = {
      {"01", 0xe8f30d16u, 0, 4, 12},                     // INT 1
      {"0161", 0x9386186du, 1, 0, 11},                   // STRING 'a'
      {"010161", 0xb4f2ba81u, 2, 3, 5},                  // (INT 1, STRING 'a')
      {"03616263", 0x02208332u, 1, 6, 15},               // STRING 'abc' (one full block, no tail)
      {"8001", 0x660fc139u, 1, 2, 2},                    // INT 128: tail byte 0x80 sign-extended
      {"ffffffffffffffffff01", 0xa4d939c0u, 2, 1, 7},    // BIGINT -1: tail ff 01, ff sign-extended
      {"ffffffff0f", 0, 0, 1, 10},                       // INT -1
  };
  for (const auto& v : vectors) {
    SCOPED_TRACE(v.key_hex);
    const std::string key = Unhex(v.key_hex);
    if (v.hash != 0) {
      EXPECT_EQ(static_cast<uint32_t>(Hash(key)), v.hash);
    }
    EXPECT_EQ(Bucket(key, 3), v.b3);
    EXPECT_EQ(Bucket(key, 7), v.b7);
    EXPECT_EQ(Bucket(key, 16), v.b16);
  }
}

// The Rust client zero-extends tail bytes; Java sign-extends. With zero extension the INT 128
// key would land in bucket 7 of 16 and BIGINT -1 in bucket 4; Java gives 2 and 7.
TEST(BucketingTest, TailBytesAreSignExtended) {
  EXPECT_EQ(Bucket(Unhex("8001"), 16), 2);
  EXPECT_NE(Bucket(Unhex("8001"), 16), 7);
  EXPECT_EQ(Bucket(Unhex("ffffffffffffffffff01"), 16), 7);
  EXPECT_NE(Bucket(Unhex("ffffffffffffffffff01"), 16), 4);
}

// Walk-through of section 7.2 for key 01 (INT 1).
TEST(BucketingTest, WalkThroughKey01) {
  const std::string key = Unhex("01");
  const int32_t h = Hash(key);
  EXPECT_EQ(static_cast<uint32_t>(h), 0xe8f30d16u);
  EXPECT_EQ(h, -386724586);
  const int32_t m = FlussMurmurHashInt(h);
  EXPECT_EQ(static_cast<uint32_t>(m), 0x425bb96cu);
  EXPECT_EQ(m, 1113307500);
  EXPECT_EQ(m % 16, 12);
  EXPECT_EQ(m % 3, 0);
  EXPECT_EQ(Bucket(key, 16), 12);
  EXPECT_EQ(Bucket(key, 3), 0);
}

// MathUtils.murmurHash vectors (Rust client tests, quoted in section 7.2).
TEST(BucketingTest, MurmurHashIntVectors) {
  EXPECT_EQ(static_cast<uint32_t>(FlussMurmurHashInt(0)), 0x2362f9deu);
  EXPECT_EQ(static_cast<uint32_t>(FlussMurmurHashInt(42)), 0x43a46e1du);
  EXPECT_EQ(static_cast<uint32_t>(FlussMurmurHashInt(-77)), 0x2eeb27deu);
}

// The mix before the abs step is a bijection of int32, so exactly one input mixes to INT_MIN
// (Java returns 0 for it) and one to 0. Inputs found by inverting each step of the mix by hand
// (inverse multipliers mod 2^32, rotate right, undo the xor-shifts); one input mixes to -10.
TEST(BucketingTest, MurmurHashIntNonNegative) {
  EXPECT_EQ(FlussMurmurHashInt(-2089875627), 0);  // mixes to INT_MIN -> 0
  EXPECT_EQ(FlussMurmurHashInt(-1035494534), 0);  // mixes to 0
  EXPECT_EQ(FlussMurmurHashInt(1575118165), 10);  // mixes to -10 -> 10
  for (int32_t c : {INT32_MIN, INT32_MAX, -1, 1, 7, 123456789}) EXPECT_GE(FlussMurmurHashInt(c), 0) << c;
}

// ---------------------------------------------------------------------------------------------
// CompactedKey encoder

std::string EncodeOne(const std::shared_ptr<arrow::DataType>& type, const Value& value) {
  auto schema = arrow::schema({arrow::field("k", type, false)});
  auto enc = CompactedKeyEncoder::Create(schema, {0});
  EXPECT_TRUE(enc.ok()) << enc.status().ToString();
  if (!enc.ok()) return "<create failed>";
  std::string out = "garbage";  // Encode clears first
  Status st = enc->Encode(&value, &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return Hex(out);
}

// Section 6.2 examples ([J]).
TEST(KeyEncoderTest, DocExamples) {
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(1)), "01");
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(128)), "8001");
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(-1)), "ffffffff0f");
  EXPECT_EQ(EncodeOne(arrow::utf8(), Value::Bytes("a")), "0161");
  EXPECT_EQ(EncodeOne(arrow::utf8(), Value::Bytes("abc")), "03616263");
  EXPECT_EQ(EncodeOne(arrow::int64(), Value::Int(-1)), "ffffffffffffffffff01");
}

TEST(KeyEncoderTest, CompositeKey) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32(), false), arrow::field("b", arrow::utf8(), false),
                               arrow::field("c", arrow::int64(), true)});
  const Value row[] = {Value::Int(1), Value::Bytes("a"), Value::Null()};
  std::string out;

  // (INT 1, STRING 'a') -> 01 | 01 61, no null bitmap, nothing between fields.
  auto enc = CompactedKeyEncoder::Create(schema, {0, 1});
  ASSERT_TRUE(enc.ok()) << enc.status().ToString();
  ASSERT_TRUE(enc->Encode(row, &out).ok());
  EXPECT_EQ(Hex(out), "010161");
  EXPECT_EQ(static_cast<uint32_t>(FlussHashBytes(out)), 0xb4f2ba81u);
  EXPECT_EQ(FlussBucketOf(out, 16), 5);

  // Key order is the order of key_columns, not the schema order: ('a', 1) -> 01 61 | 01.
  auto rev = CompactedKeyEncoder::Create(schema, {1, 0});
  ASSERT_TRUE(rev.ok());
  ASSERT_TRUE(rev->Encode(row, &out).ok());
  EXPECT_EQ(Hex(out), "016101");

  // Non-key columns (here a null) are ignored. Java CompactedKeyEncoderTest: (INT 1, BIGINT 3,
  // INT 2) -> 01 03 02.
  auto schema3 = arrow::schema({arrow::field("x", arrow::int32()), arrow::field("y", arrow::int64()),
                                arrow::field("z", arrow::int32()), arrow::field("s", arrow::utf8())});
  auto enc3 = CompactedKeyEncoder::Create(schema3, {0, 1, 2});
  ASSERT_TRUE(enc3.ok());
  const Value row3[] = {Value::Int(1), Value::Int(3), Value::Int(2), Value::Null()};
  ASSERT_TRUE(enc3->Encode(row3, &out).ok());
  EXPECT_EQ(Hex(out), "010302");
}

// Key bytes then bucket, end to end (the sign-extension cases of section 7.2).
TEST(KeyEncoderTest, EncodeThenBucket) {
  auto schema = arrow::schema({arrow::field("id", arrow::int32(), false), arrow::field("big", arrow::int64(), false)});
  std::string out;
  auto by_int = CompactedKeyEncoder::Create(schema, {0});
  auto by_big = CompactedKeyEncoder::Create(schema, {1});
  ASSERT_TRUE(by_int.ok() && by_big.ok());
  const Value row[] = {Value::Int(128), Value::Int(-1)};
  ASSERT_TRUE(by_int->Encode(row, &out).ok());
  EXPECT_EQ(Hex(out), "8001");
  EXPECT_EQ(FlussBucketOf(out, 16), 2);
  ASSERT_TRUE(by_big->Encode(row, &out).ok());
  EXPECT_EQ(Hex(out), "ffffffffffffffffff01");
  EXPECT_EQ(FlussBucketOf(out, 16), 7);
}

TEST(KeyEncoderTest, BooleanAndTinyInt) {
  // BOOLEAN: one byte 0/1. TINYINT: one byte, two's complement.
  EXPECT_EQ(EncodeOne(arrow::boolean(), Value::Bool(true)), "01");
  EXPECT_EQ(EncodeOne(arrow::boolean(), Value::Bool(false)), "00");
  EXPECT_EQ(EncodeOne(arrow::int8(), Value::Int(5)), "05");
  EXPECT_EQ(EncodeOne(arrow::int8(), Value::Int(-1)), "ff");
  EXPECT_EQ(EncodeOne(arrow::int8(), Value::Int(-128)), "80");
}

TEST(KeyEncoderTest, SmallIntIsFixedWidth) {
  // SMALLINT: 2 bytes LE, not a varint. 300 = 0x012c -> 2c 01; -2 = 0xfffe -> fe ff; 1 -> 01 00.
  EXPECT_EQ(EncodeOne(arrow::int16(), Value::Int(300)), "2c01");
  EXPECT_EQ(EncodeOne(arrow::int16(), Value::Int(-2)), "feff");
  EXPECT_EQ(EncodeOne(arrow::int16(), Value::Int(1)), "0100");
}

TEST(KeyEncoderTest, IntVarints) {
  // varint32 without zig-zag: 0 -> 00; 127 -> 7f; 300 = 0b10_0101100 -> ac 02;
  // INT_MAX = 0x7fffffff -> ff ff ff ff 07; INT_MIN = 0x80000000 -> 80 80 80 80 08.
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(0)), "00");
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(127)), "7f");
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(300)), "ac02");
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(INT32_MAX)), "ffffffff07");
  EXPECT_EQ(EncodeOne(arrow::int32(), Value::Int(INT32_MIN)), "8080808008");
}

TEST(KeyEncoderTest, BigIntVarints) {
  // varint64: 100 -> 64; -2 -> fe ff.. ff 01 (10 bytes); INT64_MIN = 1 << 63 -> 9 x 80 then 01.
  EXPECT_EQ(EncodeOne(arrow::int64(), Value::Int(100)), "64");
  EXPECT_EQ(EncodeOne(arrow::int64(), Value::Int(-2)), "feffffffffffffffff01");
  EXPECT_EQ(EncodeOne(arrow::int64(), Value::Int(INT64_MIN)), "80808080808080808001");
  // 2^32 = bit 32 -> groups 0,0,0,0 then 0x10 -> 80 80 80 80 10.
  EXPECT_EQ(EncodeOne(arrow::int64(), Value::Int(int64_t{1} << 32)), "8080808010");
}

TEST(KeyEncoderTest, FloatAndDouble) {
  // FLOAT 1.5f = 0x3fc00000 -> 00 00 c0 3f (LE); DOUBLE 1.5 = 0x3ff8000000000000 -> LE.
  EXPECT_EQ(EncodeOne(arrow::float32(), Value::Double(1.5)), "0000c03f");
  EXPECT_EQ(EncodeOne(arrow::float64(), Value::Double(1.5)), "000000000000f83f");
  // An integer value is accepted for a float column (as the row builder does): 2.0 = 0x40000000.
  EXPECT_EQ(EncodeOne(arrow::float32(), Value::Int(2)), "00000040");
  // -0.0 keeps its sign bit: 0x8000000000000000.
  EXPECT_EQ(EncodeOne(arrow::float64(), Value::Double(-0.0)), "0000000000000080");
}

TEST(KeyEncoderTest, StringsAndBytes) {
  // varint32 length + raw bytes. Empty -> 00. UTF-8 'é' = c3 a9 -> 02 c3 a9.
  EXPECT_EQ(EncodeOne(arrow::utf8(), Value::Bytes("")), "00");
  EXPECT_EQ(EncodeOne(arrow::utf8(), Value::Bytes("\xc3\xa9")), "02c3a9");
  // 200 bytes: length 200 = 0xc8 -> c8 01, then the bytes.
  const std::string long_value(200, 'x');
  EXPECT_EQ(EncodeOne(arrow::utf8(), Value::Bytes(long_value)), "c801" + Hex(long_value));
  // BYTES ff -> 01 ff (doc E4), bytes with a 00 inside are kept whole.
  EXPECT_EQ(EncodeOne(arrow::binary(), Value::Bytes("\xff")), "01ff");
  EXPECT_EQ(EncodeOne(arrow::binary(), Value::Bytes(std::string("\x00\x01\x00", 3))), "03000100");
  // BINARY(n) is encoded like BYTES (length-prefixed, no padding): BINARY(4) 01 02 03 04.
  EXPECT_EQ(EncodeOne(arrow::fixed_size_binary(4), Value::Bytes(Unhex("01020304"))), "0401020304");
}

TEST(KeyEncoderTest, CompactDecimal) {
  // DECIMAL(p <= 18): varint64 of the unscaled value.
  // DECIMAL(10,2) 12.34 -> unscaled 1234 = 0x4d2 -> d2 09 (doc E3).
  EXPECT_EQ(EncodeOne(arrow::decimal128(10, 2), Value::Decimal(0, 1234)), "d209");
  // DECIMAL(10,2) -0.05 -> unscaled -5 -> 10-byte varint fb ff .. ff 01 (doc E9).
  EXPECT_EQ(EncodeOne(arrow::decimal128(10, 2), Value::Decimal(-1, static_cast<uint64_t>(-5))),
            "fbffffffffffffffff01");
  // DECIMAL(18,0) 999999999999999999 = 0x0de0b6b3a763ffff -> 9 bytes of varint.
  EXPECT_EQ(EncodeOne(arrow::decimal128(18, 0), Value::Decimal(0, 999999999999999999ULL)), "ffff8fbbbad6adf00d");
}

TEST(KeyEncoderTest, NonCompactDecimal) {
  // DECIMAL(p > 18): varint32 length + BigInteger.toByteArray (minimal big-endian two's
  // complement) of the unscaled value.
  // DECIMAL(20,2) 12.34 -> 1234 = 04 d2 -> 02 04 d2 (doc E3).
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 2), Value::Decimal(0, 1234)), "0204d2");
  // DECIMAL(20,2) -1.00 -> -100 = 0x9c in one byte -> 01 9c (doc E9).
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 2), Value::Decimal(-1, static_cast<uint64_t>(-100))), "019c");
  // 0 -> one byte 00; 128 needs a leading 00 for the sign -> 02 00 80; -1 -> ff; -128 -> 80;
  // -129 = 0xff7f -> 02 ff 7f.
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 0), Value::Decimal(0, 0)), "0100");
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 0), Value::Decimal(0, 128)), "020080");
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 0), Value::Decimal(-1, ~uint64_t{0})), "01ff");
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 0), Value::Decimal(-1, static_cast<uint64_t>(-128))), "0180");
  EXPECT_EQ(EncodeOne(arrow::decimal128(20, 0), Value::Decimal(-1, static_cast<uint64_t>(-129))), "02ff7f");
  // 10^20 = 0x0056bc75e2d63100000 (uses the high word: hi 5, lo 0x6bc75e2d63100000)
  // -> 9 bytes 05 6b c7 5e 2d 63 10 00 00.
  EXPECT_EQ(EncodeOne(arrow::decimal128(38, 0), Value::Decimal(5, 0x6bc75e2d63100000ULL)), "09056bc75e2d63100000");
  // -(10^20): two's complement over 9 bytes = ~056bc75e2d63100000 + 1 = fa9438a1d29cf00000
  // (hi word -6, lo 0x9438a1d29cf00000) -> 09 fa 94 38 a1 d2 9c f0 00 00.
  EXPECT_EQ(EncodeOne(arrow::decimal128(38, 0), Value::Decimal(-6, 0x9438a1d29cf00000ULL)), "09fa9438a1d29cf00000");
}

TEST(KeyEncoderTest, Date) {
  // DATE 19000 days -> varint32: 19000 = 0x4a38 -> b8 94 01 (doc E3). Before 1970: -1 -> 5 bytes.
  EXPECT_EQ(EncodeOne(arrow::date32(), Value::Int(19000)), "b89401");
  EXPECT_EQ(EncodeOne(arrow::date32(), Value::Int(-1)), "ffffffff0f");
}

TEST(KeyEncoderTest, TimeIsMillisOfDay) {
  // TIME: varint32 of milliseconds of day, whatever the Arrow unit.
  // 01:02:03 = 3723 s = 3723000 ms = 0x38cef8 -> f8 9d e3 01 (doc E3).
  EXPECT_EQ(EncodeOne(arrow::time32(arrow::TimeUnit::MILLI), Value::Int(3723000)), "f89de301");
  EXPECT_EQ(EncodeOne(arrow::time32(arrow::TimeUnit::SECOND), Value::Int(3723)), "f89de301");
  EXPECT_EQ(EncodeOne(arrow::time64(arrow::TimeUnit::MICRO), Value::Int(3723000000)), "f89de301");
  EXPECT_EQ(EncodeOne(arrow::time64(arrow::TimeUnit::NANO), Value::Int(3723000000000)), "f89de301");
  // Sub-millisecond digits are refused (Fluss TIME holds ms only): two keys would become one.
  auto enc = CompactedKeyEncoder::Create(arrow::schema({arrow::field("t", arrow::time64(arrow::TimeUnit::MICRO))}), {0});
  ASSERT_TRUE(enc.ok());
  std::string out;
  const Value sub_ms = Value::Int(3723000999);
  EXPECT_EQ(enc->Encode(&sub_ms, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeOne(arrow::time32(arrow::TimeUnit::MILLI), Value::Int(0)), "00");
}

TEST(KeyEncoderTest, CompactTimestamp) {
  // TIMESTAMP(p <= 3) (Arrow s or ms): varint64 of epoch millis only.
  // 1500 ms = 0x5dc -> dc 0b (doc E3).
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MILLI), Value::Int(1500)), "dc0b");
  // 2 s -> 2000 ms = 0x7d0 -> d0 0f.
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::SECOND), Value::Int(2)), "d00f");
  // TIMESTAMP_LTZ (Arrow timestamp with a time zone) is encoded the same way.
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"), Value::Int(1500)), "dc0b");
  // Before 1970: -1 ms -> 10-byte varint.
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MILLI), Value::Int(-1)), "ffffffffffffffffff01");
}

TEST(KeyEncoderTest, NonCompactTimestamp) {
  // TIMESTAMP(p > 3) (Arrow us or ns): varint64 millis, then varint32 nano-of-millisecond.
  // 1500123 us -> 1500 ms (dc 0b) + 123000 ns = 0x1e078 -> f8 c0 07 (doc E3).
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MICRO), Value::Int(1500123)), "dc0bf8c007");
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), Value::Int(1500123)), "dc0bf8c007");
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::NANO), Value::Int(1500123000)), "dc0bf8c007");
  // A whole millisecond still carries its (zero) nanos: 1500 ms in us -> dc 0b 00.
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MICRO), Value::Int(1500000)), "dc0b00");
  // 1 ns before the epoch: millis floored to -1, nanos 999999 = 0xf423f -> bf 84 3d (doc E9).
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::NANO), Value::Int(-1)), "ffffffffffffffffff01bf843d");
  // 1 us before the epoch: millis -1, nanos 999000 = 0xf3e58 -> d8 fc 3c.
  EXPECT_EQ(EncodeOne(arrow::timestamp(arrow::TimeUnit::MICRO), Value::Int(-1)), "ffffffffffffffffff01d8fc3c");
}

TEST(KeyEncoderTest, NullKeyColumnIsRejected) {
  auto schema = arrow::schema({arrow::field("id", arrow::int32()), arrow::field("name", arrow::utf8())});
  auto enc = CompactedKeyEncoder::Create(schema, {0, 1});
  ASSERT_TRUE(enc.ok());
  const Value row[] = {Value::Int(1), Value::Null()};
  std::string out;
  Status st = enc->Encode(row, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'name'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("null"), std::string::npos) << st.message();
}

TEST(KeyEncoderTest, BadValuesAreRejectedNamingTheColumn) {
  auto schema = arrow::schema({arrow::field("i", arrow::int32()), arrow::field("t", arrow::int8()),
                               arrow::field("fb", arrow::fixed_size_binary(4)), arrow::field("d", arrow::decimal128(5, 2)),
                               arrow::field("tm", arrow::time32(arrow::TimeUnit::MILLI))});
  std::string out;
  auto check = [&](int column, Value v, const char* name) {
    auto enc = CompactedKeyEncoder::Create(schema, {column});
    ASSERT_TRUE(enc.ok());
    Value row[5] = {Value::Int(0), Value::Int(0), Value::Bytes("abcd"), Value::Decimal(0, 0), Value::Int(0)};
    row[column] = v;
    Status st = enc->Encode(row, &out);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(st.message().find(std::string("'") + name + "'"), std::string::npos) << st.message();
  };
  check(0, Value::Bytes("1"), "i");                       // wrong kind
  check(0, Value::Int(int64_t{1} << 31), "i");            // out of int32 range
  check(1, Value::Int(128), "t");                         // out of int8 range
  check(2, Value::Bytes("abc"), "fb");                    // BINARY(4) with 3 bytes
  check(3, Value::Decimal(0, 100000), "d");               // 6 digits in DECIMAL(5,2)
  check(4, Value::Int(86400000), "tm");                   // a day is not a time of day
}

TEST(KeyEncoderTest, CreateRejectsBadKeys) {
  auto schema = arrow::schema({arrow::field("id", arrow::int32()), arrow::field("tags", arrow::list(arrow::utf8()))});
  auto empty = CompactedKeyEncoder::Create(schema, {});
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
  auto out_of_range = CompactedKeyEncoder::Create(schema, {2});
  EXPECT_EQ(out_of_range.status().code(), StatusCode::kInvalidArgument);
  auto negative = CompactedKeyEncoder::Create(schema, {-1});
  EXPECT_EQ(negative.status().code(), StatusCode::kInvalidArgument);
  auto unsupported = CompactedKeyEncoder::Create(schema, {1});
  EXPECT_EQ(unsupported.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unsupported.status().message().find("'tags'"), std::string::npos) << unsupported.status().message();
}

}  // namespace
}  // namespace fluss::row
