// IndexedRow and INDEXED log batches (protocol-data.md sections 1.4, 3, 4.1, 4.2, 4.5, pitfalls
// 7-9). Every expected byte string is derived by hand from the protocol rules (derivation in the
// comments); the worked examples E1..E9 and the 71-byte batch are the digest's, which were
// checked against the real Java classes.
#include <gtest/gtest.h>

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/builder.h>
#include <arrow/json/from_string.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/key_value_metadata.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "fluss/client.h"
#include "fluss/record/indexed_log.h"
#include "fluss/record/log_batch.h"
#include "fluss/row/indexed_row.h"
#include "fluss/util/bytes.h"

namespace fluss {
namespace {

using record::DecodeIndexedLogBatch;
using record::IndexedBatchBuilder;
using record::LogBatchHeader;
using row::DecodeIndexedRow;
using row::EncodeIndexedRow;

// "00 | 0102" -> bytes; spaces and '|' are ignored.
std::string Unhex(std::string_view s) {
  std::string out;
  int hi = -1;
  for (char ch : s) {
    if (ch == ' ' || ch == '|' || ch == '\n') continue;
    int v = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : std::tolower(ch) - 'a' + 10;
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<char>(hi * 16 + v));
      hi = -1;
    }
  }
  EXPECT_EQ(hi, -1) << "odd number of hex digits in " << s;
  return out;
}

std::string Hex(std::string_view b) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}
std::string Hex(const arrow::Buffer& b) {
  return Hex(std::string_view(reinterpret_cast<const char*>(b.data()), static_cast<size_t>(b.size())));
}

std::shared_ptr<arrow::Field> CharField(const std::string& name, int n, bool nullable = true) {
  return arrow::field(name, arrow::utf8(), nullable,
                      arrow::key_value_metadata({row::kCharLengthMetadataKey}, {std::to_string(n)}));
}

Value Dec(const std::string& unscaled) {
  auto d = arrow::Decimal128::FromString(unscaled);
  EXPECT_TRUE(d.ok()) << unscaled;
  return Value::Decimal(d->high_bits(), d->low_bits());
}

std::string Encode(const std::shared_ptr<arrow::Schema>& schema, const std::vector<Value>& values) {
  EXPECT_EQ(values.size(), static_cast<size_t>(schema->num_fields()));
  std::string out;
  Status st = EncodeIndexedRow(*schema, values.data(), &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// Decodes rows of `schema` into one RecordBatch with DecodeIndexedRow.
std::shared_ptr<arrow::RecordBatch> DecodeRows(const std::shared_ptr<arrow::Schema>& schema,
                                               const std::vector<std::string>& rows) {
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> owned;
  std::vector<arrow::ArrayBuilder*> builders;
  for (const auto& f : schema->fields()) {
    owned.push_back(arrow::MakeBuilder(f->type()).ValueOrDie());
    builders.push_back(owned.back().get());
  }
  for (const auto& r : rows) {
    Status st = DecodeIndexedRow(*schema, reinterpret_cast<const uint8_t*>(r.data()), r.size(), builders);
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) return nullptr;
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (auto& b : owned) arrays.push_back(b->Finish().ValueOrDie());
  return arrow::RecordBatch::Make(schema, static_cast<int64_t>(rows.size()), arrays);
}

// Column `i` of `rb` equals the JSON array `json` of the column's type.
void ExpectColumn(const std::shared_ptr<arrow::RecordBatch>& rb, int i, const std::string& json) {
  ASSERT_NE(rb, nullptr);
  auto expected = arrow::json::ArrayFromJSONString(rb->column(i)->type(), json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_TRUE(rb->column(i)->Equals(**expected))
      << "column " << rb->schema()->field(i)->name() << ": got " << rb->column(i)->ToString()
      << "\nexpected " << json;
}

std::string_view BinaryAt(const std::shared_ptr<arrow::RecordBatch>& rb, int col, int64_t row) {
  const auto& a = *rb->column(col);
  if (a.type_id() == arrow::Type::FIXED_SIZE_BINARY)
    return static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(row);
  return static_cast<const arrow::BinaryArray&>(a).GetView(row);
}

std::shared_ptr<arrow::Buffer> BufferOf(const std::string& bytes) {
  auto buf = arrow::AllocateBuffer(static_cast<int64_t>(bytes.size())).ValueOrDie();
  std::memcpy(buf->mutable_data(), bytes.data(), bytes.size());
  return std::shared_ptr<arrow::Buffer>(std::move(buf));
}

// ---------------------------------------------------------------------------------------------
// Worked examples of protocol-data.md 4.5 (all [J]: byte-identical to Java's IndexedRowWriter).
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, WorkedExampleE1) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                               arrow::field("c", arrow::int64())});
  // bitmap: 3 fields -> 1 byte, no nulls -> 00. One variable-length column (b) -> one slot,
  // holding len('a') = 1. Values: INT 1 (4 LE), 'a' = 61, BIGINT 100 = 0x64 (8 LE).
  const std::string expected = Unhex("00 | 01000000 | 01000000 | 61 | 6400000000000000");
  std::string row = Encode(schema, {Value::Int(1), Value::Bytes("a"), Value::Int(100)});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, "[1]");
  ExpectColumn(rb, 1, R"(["a"])");
  ExpectColumn(rb, 2, "[100]");
}

TEST(IndexedRowTest, WorkedExampleE2) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                               arrow::field("c", arrow::int64()), arrow::field("d", arrow::int16()),
                               arrow::field("e", arrow::boolean()), arrow::field("f", arrow::float64())});
  // bitmap: field 1 (b) is NULL -> bit 1 -> 02. The single var-list slot stays 0 (the only
  // variable-length value is null) and b has no value bytes. INT -1 = ffffffff,
  // BIGINT -2 = feff..ff, SMALLINT 300 = 0x012c -> 2c01, true -> 01,
  // DOUBLE 1.5 = 0x3ff8000000000000 -> 000000000000f83f.
  const std::string expected =
      Unhex("02 | 00000000 | ffffffff | feffffffffffffff | 2c01 | 01 | 000000000000f83f");
  std::string row = Encode(schema, {Value::Int(-1), Value::Null(), Value::Int(-2), Value::Int(300),
                                    Value::Bool(true), Value::Double(1.5)});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, "[-1]");
  ExpectColumn(rb, 1, "[null]");
  ExpectColumn(rb, 2, "[-2]");
  ExpectColumn(rb, 3, "[300]");
  ExpectColumn(rb, 4, "[true]");
  ExpectColumn(rb, 5, "[1.5]");
}

TEST(IndexedRowTest, WorkedExampleE3) {
  auto schema = arrow::schema({
      arrow::field("d10", arrow::decimal128(10, 2)),
      arrow::field("d20", arrow::decimal128(20, 2)),
      arrow::field("ts3", arrow::timestamp(arrow::TimeUnit::MILLI)),
      arrow::field("ts6", arrow::timestamp(arrow::TimeUnit::MICRO)),
      arrow::field("ltz6", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
      arrow::field("date", arrow::date32()),
      arrow::field("time", arrow::time32(arrow::TimeUnit::MILLI)),
  });
  // bitmap 00 (7 fields). Variable-length: only DECIMAL(20,2) (precision > 18) -> one slot,
  // length 2. DECIMAL(10,2) 12.34: compact, unscaled 1234 = 0x4d2 as int64 LE. DECIMAL(20,2)
  // 12.34: big-endian minimal two's complement of 1234 -> 04 d2. TIMESTAMP(3) 1500 ms: compact,
  // 1500 = 0x5dc as int64 LE. TIMESTAMP(6) / TIMESTAMP_LTZ(6) 1500 ms + 123000 ns (Arrow
  // micros 1500123): int64 millis 1500, int32 nano-of-milli 123000 = 0x1e078 -> 78e00100.
  // DATE 19000 = 0x4a38; TIME 3723000 ms = 0x38cef8.
  const std::string expected = Unhex(
      "00 | 02000000 | d204000000000000 | 04d2 | dc05000000000000 |"
      "dc05000000000000 78e00100 | dc05000000000000 78e00100 | 384a0000 | f8ce3800");
  std::string row = Encode(schema, {Dec("1234"), Dec("1234"), Value::Int(1500), Value::Int(1500123),
                                    Value::Int(1500123), Value::Int(19000), Value::Int(3723000)});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, R"(["12.34"])");
  ExpectColumn(rb, 1, R"(["12.34"])");
  ExpectColumn(rb, 2, "[1500]");
  ExpectColumn(rb, 3, "[1500123]");
  ExpectColumn(rb, 4, "[1500123]");
  ExpectColumn(rb, 5, "[19000]");
  ExpectColumn(rb, 6, "[3723000]");
}

TEST(IndexedRowTest, WorkedExampleE4CharBinaryBytes) {
  auto schema = arrow::schema({CharField("c", 3), arrow::field("b", arrow::fixed_size_binary(4)),
                               arrow::field("y", arrow::binary())});
  // bitmap 00. CHAR(3) and BINARY(4) are fixed (n bytes, 0x00-padded); only BYTES is
  // variable -> one slot, length 1. 'ab' -> 61 62 00; 01 02 -> 01 02 00 00; ff.
  const std::string expected = Unhex("00 | 01000000 | 616200 | 01020000 | ff");
  // (Java also takes the 2-byte value 01 02 and pads it; this client takes exactly n bytes.)
  std::string row = Encode(schema, {Value::Bytes("ab"), Value::Bytes(std::string_view("\x01\x02\x00\x00", 4)),
                                    Value::Bytes("\xff")});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, R"(["ab"])");  // reader strips the trailing 0x00 of CHAR
  // Arrow's fixed_size_binary(4) keeps all four stored bytes (Java returns 01 02 after
  // stripping; re-padded to the fixed width that is the same value).
  EXPECT_EQ(Hex(BinaryAt(rb, 1, 0)), "01020000");
  EXPECT_EQ(Hex(BinaryAt(rb, 2, 0)), "ff");
}

TEST(IndexedRowTest, WorkedExampleE9NegativeDecimalsAndTimestamp) {
  auto schema = arrow::schema({arrow::field("d20", arrow::decimal128(20, 2)),
                               arrow::field("d10", arrow::decimal128(10, 2)),
                               arrow::field("ts9", arrow::timestamp(arrow::TimeUnit::NANO))});
  // bitmap 00; one variable-length column (DECIMAL(20,2)) -> slot = 1.
  // DECIMAL(20,2) -1.00: unscaled -100; Java BigInteger.toByteArray: bitLength(-100) = 7 ->
  // 7/8+1 = 1 byte, -100 = 0x9c. DECIMAL(10,2) -0.05: unscaled -5 as int64 LE = fbff..ff.
  // TIMESTAMP(9) -1 ns: floored millis -1 (ff..ff), nano-of-milli 999999 = 0xf423f -> 3f420f00.
  const std::string expected = Unhex("00 | 01000000 | 9c | fbffffffffffffff | ffffffffffffffff 3f420f00");
  std::string row = Encode(schema, {Dec("-100"), Dec("-5"), Value::Int(-1)});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, R"(["-1.00"])");
  ExpectColumn(rb, 1, R"(["-0.05"])");
  ExpectColumn(rb, 2, "[-1]");
}

// ---------------------------------------------------------------------------------------------
// Nulls (pitfall 7: the variable-length list is packed over the non-null values only).
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, NullsPackTheVariableLengthList) {
  auto schema = arrow::schema({arrow::field("s1", arrow::utf8()), arrow::field("i", arrow::int32()),
                               arrow::field("s2", arrow::utf8()), arrow::field("b", arrow::binary()),
                               arrow::field("s3", arrow::utf8())});
  // Nulls at fields 0 and 3 -> bits 0 and 3 -> 0x09. Four variable-length columns (s1, s2, b,
  // s3) -> four slots; the non-null ones in field order are s2 (len 2) and s3 (len 1), packed
  // from the first slot: [2, 1, 0, 0] (slot 0 is NOT s1's). Values: INT 7, 'xy', 'z'.
  const std::string expected =
      Unhex("09 | 02000000 01000000 00000000 00000000 | 07000000 | 7879 | 7a");
  std::string row = Encode(schema, {Value::Null(), Value::Int(7), Value::Bytes("xy"), Value::Null(),
                                    Value::Bytes("z")});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, "[null]");
  ExpectColumn(rb, 1, "[7]");
  ExpectColumn(rb, 2, R"(["xy"])");
  ExpectColumn(rb, 3, "[null]");
  ExpectColumn(rb, 4, R"(["z"])");
}

TEST(IndexedRowTest, NullBitmapSpansBytes) {
  std::vector<std::shared_ptr<arrow::Field>> fields;
  std::vector<Value> values;
  for (int i = 0; i < 10; ++i) {
    fields.push_back(arrow::field("f" + std::to_string(i), arrow::int8()));
    values.push_back(i == 0 || i == 9 ? Value::Null() : Value::Int(i));
  }
  auto schema = arrow::schema(fields);
  // 10 fields -> ceil(10/8) = 2 bitmap bytes. Field 0 -> byte 0 bit 0 (01); field 9 -> byte 1
  // bit 1 (02). No variable-length columns. TINYINT 1..8 one byte each.
  const std::string expected = Unhex("01 02 | 0102030405060708");
  EXPECT_EQ(Hex(Encode(schema, values)), Hex(expected));
  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, "[null]");
  ExpectColumn(rb, 1, "[1]");
  ExpectColumn(rb, 8, "[8]");
  ExpectColumn(rb, 9, "[null]");
}

TEST(IndexedRowTest, AllNullRowIsHeaderOnly) {
  auto schema = arrow::schema({arrow::field("s", arrow::utf8()), arrow::field("l", arrow::int64()),
                               arrow::field("d", arrow::decimal128(20, 2))});
  // Three nulls -> 0x07; two variable-length columns (STRING, DECIMAL(20,2)) -> two zero slots;
  // no value bytes at all.
  const std::string expected = Unhex("07 | 00000000 00000000");
  EXPECT_EQ(Hex(Encode(schema, {Value::Null(), Value::Null(), Value::Null()})), Hex(expected));
  auto rb = DecodeRows(schema, {expected});
  for (int i = 0; i < 3; ++i) ExpectColumn(rb, i, "[null]");
}

TEST(IndexedRowTest, NullInNotNullColumnIsRejected) {
  auto schema = arrow::schema({arrow::field("k", arrow::int32(), /*nullable=*/false)});
  std::string out = "keep";
  Value v = Value::Null();
  Status st = EncodeIndexedRow(*schema, &v, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'k'"), std::string::npos) << st.message();
  EXPECT_EQ(out, "keep");  // nothing appended on failure
}

// ---------------------------------------------------------------------------------------------
// TIMESTAMP: compact (precision <= 3, millis only) vs non-compact (millis + nano-of-milli).
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, TimestampCompactAndNonCompact) {
  auto schema = arrow::schema({arrow::field("s", arrow::timestamp(arrow::TimeUnit::SECOND)),
                               arrow::field("ms", arrow::timestamp(arrow::TimeUnit::MILLI)),
                               arrow::field("us", arrow::timestamp(arrow::TimeUnit::MICRO)),
                               arrow::field("ns", arrow::timestamp(arrow::TimeUnit::NANO)),
                               arrow::field("ltz", arrow::timestamp(arrow::TimeUnit::NANO, "UTC"))});
  // bitmap 00, no variable-length columns.
  // TIMESTAMP(0) -1 s: compact, millis -1000 = 0x...fc18 -> 18fcffffffffffff (8 bytes only).
  // TIMESTAMP(3) -1 ms: compact -> ffffffffffffffff.
  // TIMESTAMP(6) -1 us: millis floor(-1/1000) = -1, nanos (-1 + 1000) * 1000 = 999000 = 0xf3e58.
  // TIMESTAMP(9) -1000001 ns: millis floor(-1000001/1e6) = -2, nanos -1000001 + 2000000 =
  //   999999 = 0xf423f.
  // TIMESTAMP_LTZ(9) 1000000123 ns: millis 1000 = 0x3e8, nanos 123 = 0x7b.
  const std::string expected = Unhex(
      "00 | 18fcffffffffffff | ffffffffffffffff | ffffffffffffffff 583e0f00 |"
      "feffffffffffffff 3f420f00 | e803000000000000 7b000000");
  std::string row = Encode(schema, {Value::Int(-1), Value::Int(-1), Value::Int(-1), Value::Int(-1000001),
                                    Value::Int(1000000123)});
  EXPECT_EQ(Hex(row), Hex(expected));
  EXPECT_EQ(row.size(), 1u + 8 + 8 + 12 + 12 + 12);

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, "[-1]");
  ExpectColumn(rb, 1, "[-1]");
  ExpectColumn(rb, 2, "[-1]");
  ExpectColumn(rb, 3, "[-1000001]");
  ExpectColumn(rb, 4, "[1000000123]");
}

TEST(IndexedRowTest, TimestampFromJavaWithOutOfRangeNanosIsRejected) {
  auto schema = arrow::schema({arrow::field("us", arrow::timestamp(arrow::TimeUnit::MICRO))});
  // nano-of-milli must be in 0..999999; 1000000 = 0xf4240.
  const std::string bad = Unhex("00 | 0000000000000000 40420f00");
  auto b = arrow::MakeBuilder(schema->field(0)->type()).ValueOrDie();
  Status st = DecodeIndexedRow(*schema, reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), {b.get()});
  EXPECT_EQ(st.code(), StatusCode::kProtocol);
  EXPECT_EQ(b->length(), 0);
}

// ---------------------------------------------------------------------------------------------
// TIME: always int32 milliseconds of day, whatever the precision.
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, TimeIsStoredAsMilliseconds) {
  auto schema = arrow::schema({arrow::field("s", arrow::time32(arrow::TimeUnit::SECOND)),
                               arrow::field("ms", arrow::time32(arrow::TimeUnit::MILLI)),
                               arrow::field("us", arrow::time64(arrow::TimeUnit::MICRO)),
                               arrow::field("ns", arrow::time64(arrow::TimeUnit::NANO))});
  // TIME(0) 3723 s -> 3723000 ms = 0x38cef8. TIME(3) 86399999 ms = 0x5265bff.
  // TIME(6) 3723000000 us -> 3723000 ms. TIME(9) 0 ns -> 0 ms. (A value finer than
  // milliseconds is refused: Fluss TIME holds milliseconds.)
  const std::string expected = Unhex("00 | f8ce3800 | ff5b2605 | f8ce3800 | 00000000");
  std::string row = Encode(schema, {Value::Int(3723), Value::Int(86399999), Value::Int(3723000000),
                                    Value::Int(0)});
  {
    std::string refused;
    const Value sub_ms[] = {Value::Null(), Value::Null(), Value::Int(3723000999), Value::Null()};
    EXPECT_EQ(EncodeIndexedRow(*schema, sub_ms, &refused).code(), StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, "[3723]");
  ExpectColumn(rb, 1, "[86399999]");
  ExpectColumn(rb, 2, "[3723000000]");
  ExpectColumn(rb, 3, "[0]");
}

// ---------------------------------------------------------------------------------------------
// DECIMAL: compact (precision <= 18, int64 LE) vs non-compact (minimal big-endian bytes).
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, DecimalCompactAndNonCompact) {
  auto schema = arrow::schema({arrow::field("a", arrow::decimal128(18, 0)),
                               arrow::field("b", arrow::decimal128(19, 0)),
                               arrow::field("c", arrow::decimal128(38, 0)),
                               arrow::field("d", arrow::decimal128(38, 0)),
                               arrow::field("e", arrow::decimal128(19, 2))});
  // a: precision 18 -> compact: 10^18-1 = 0x0de0b6b3a763ffff -> ffff63a7b3b6e00d.
  // b..e: precision > 18 -> variable, four slots, Java BigInteger.toByteArray (bitLength/8+1
  //   bytes, big-endian two's complement):
  // b: 0 -> one byte 00.
  // c: 10^38-1 = 0x4b3b4ca85a86c47a098a223fffffffff (bitLength 126 -> 16 bytes).
  // d: -(10^38-1) = two's complement 0xb4c4b357a5793b85f675ddc000000001 (16 bytes).
  // e: 1.28 -> unscaled 128: bitLength 8 -> 2 bytes 00 80 (the 00 keeps it positive).
  // Slots [1, 16, 16, 2].
  const std::string expected = Unhex(
      "00 | 01000000 10000000 10000000 02000000 | ffff63a7b3b6e00d | 00 |"
      "4b3b4ca85a86c47a098a223fffffffff | b4c4b357a5793b85f675ddc000000001 | 0080");
  std::string row = Encode(schema, {Dec("999999999999999999"), Dec("0"),
                                    Dec("99999999999999999999999999999999999999"),
                                    Dec("-99999999999999999999999999999999999999"), Dec("128")});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, R"(["999999999999999999"])");
  ExpectColumn(rb, 1, R"(["0"])");
  ExpectColumn(rb, 2, R"(["99999999999999999999999999999999999999"])");
  ExpectColumn(rb, 3, R"(["-99999999999999999999999999999999999999"])");
  ExpectColumn(rb, 4, R"(["1.28"])");
}

TEST(IndexedRowTest, DecimalMinimalTwosComplementBoundaries) {
  auto t = arrow::decimal128(20, 0);
  auto schema = arrow::schema({arrow::field("a", t), arrow::field("b", t), arrow::field("c", t),
                               arrow::field("d", t), arrow::field("e", t)});
  // -128: bitLength 7 -> 1 byte 80. -129: bitLength 8 -> 2 bytes ff7f. 255: bitLength 8 ->
  // 2 bytes 00ff. -1: bitLength 0 -> 1 byte ff. 127: 1 byte 7f. Slots [1, 2, 2, 1, 1].
  const std::string expected =
      Unhex("00 | 01000000 02000000 02000000 01000000 01000000 | 80 | ff7f | 00ff | ff | 7f");
  std::string row = Encode(schema, {Dec("-128"), Dec("-129"), Dec("255"), Dec("-1"), Dec("127")});
  EXPECT_EQ(Hex(row), Hex(expected));
  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, R"(["-128"])");
  ExpectColumn(rb, 1, R"(["-129"])");
  ExpectColumn(rb, 2, R"(["255"])");
  ExpectColumn(rb, 3, R"(["-1"])");
  ExpectColumn(rb, 4, R"(["127"])");
}

TEST(IndexedRowTest, CompactDecimalOutsideInt64IsRejected) {
  auto schema = arrow::schema({arrow::field("a", arrow::decimal128(18, 0))});
  Value v = Value::Decimal(1, 0);  // 2^64
  std::string out;
  EXPECT_EQ(EncodeIndexedRow(*schema, &v, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(out.empty());
}

// ---------------------------------------------------------------------------------------------
// CHAR(n) / BINARY(n): fixed n bytes, 0x00-padded; the reader strips trailing 0x00 (pitfall 8).
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, CharAndBinaryPadding) {
  auto schema = arrow::schema({CharField("c5", 5), CharField("c3", 3),
                               arrow::field("b4", arrow::fixed_size_binary(4)),
                               arrow::field("z4", arrow::fixed_size_binary(4)),
                               arrow::field("y", arrow::binary())});
  // CHAR(5) 'é' = UTF-8 c3 a9 (2 bytes) + 3 pad bytes (n counts BYTES). CHAR(3) '' -> 000000.
  // BINARY(4) 01 00 00 00 and 00 01 00 00 stored as is. BYTES ff 00 is variable:
  // slot 2, no padding, no stripping.
  const std::string expected = Unhex("00 | 02000000 | c3a9000000 | 000000 | 01000000 | 00010000 | ff00");
  std::string row = Encode(schema, {Value::Bytes("\xc3\xa9"), Value::Bytes(""),
                                    Value::Bytes(std::string_view("\x01\x00\x00\x00", 4)),
                                    Value::Bytes(std::string_view("\x00\x01\x00\x00", 4)),
                                    Value::Bytes(std::string_view("\xff\x00", 2))});
  EXPECT_EQ(Hex(row), Hex(expected));

  auto rb = DecodeRows(schema, {expected});
  ExpectColumn(rb, 0, R"(["é"])");
  ExpectColumn(rb, 1, R"([""])");
  EXPECT_EQ(Hex(BinaryAt(rb, 2, 0)), "01000000");
  EXPECT_EQ(Hex(BinaryAt(rb, 3, 0)), "00010000");
  EXPECT_EQ(Hex(BinaryAt(rb, 4, 0)), "ff00");  // BYTES keep their trailing 00
}

TEST(IndexedRowTest, CharAndBinaryLongerThanNAreRejected) {
  auto schema = arrow::schema({CharField("c", 2)});
  Value v = Value::Bytes("\xc3\xa9\x61");  // 'éa' = 3 UTF-8 bytes > CHAR(2)
  std::string out;
  Status st = EncodeIndexedRow(*schema, &v, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'c'"), std::string::npos) << st.message();
  EXPECT_TRUE(out.empty());

  auto bschema = arrow::schema({arrow::field("b", arrow::fixed_size_binary(4))});
  Value w = Value::Bytes("12345");
  EXPECT_EQ(EncodeIndexedRow(*bschema, &w, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(out.empty());
}

TEST(IndexedRowTest, FloatAndDoubleAcceptIntegers) {
  auto schema = arrow::schema({arrow::field("f", arrow::float32()), arrow::field("d", arrow::float64())});
  // FLOAT 2.5 = 0x40200000 -> 00002040; FLOAT from int 3 = 0x40400000 -> 00004040;
  // DOUBLE from int -2 = 0xc000000000000000.
  EXPECT_EQ(Hex(Encode(schema, {Value::Double(2.5), Value::Int(-2)})), "00" "00002040" "00000000000000c0");
  EXPECT_EQ(Hex(Encode(schema, {Value::Int(3), Value::Double(1.5)})), "00" "00004040" "000000000000f83f");
}

// ---------------------------------------------------------------------------------------------
// Decoder robustness: bad rows fail with kProtocol and leave the builders untouched.
// ---------------------------------------------------------------------------------------------

TEST(IndexedRowTest, MalformedRowsAreRejected) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("s", arrow::utf8())});
  auto try_decode = [&](const std::string& bytes) {
    auto b0 = arrow::MakeBuilder(arrow::int32()).ValueOrDie();
    auto b1 = arrow::MakeBuilder(arrow::utf8()).ValueOrDie();
    Status st = DecodeIndexedRow(*schema, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                 {b0.get(), b1.get()});
    const int64_t appended = st.ok() ? 1 : 0;  // all or nothing
    EXPECT_EQ(b0->length(), appended);
    EXPECT_EQ(b1->length(), appended);
    return st.code();
  };
  EXPECT_EQ(try_decode(Unhex("00 | 01000000 | 07000000 | 61")), StatusCode::kOk);
  EXPECT_EQ(try_decode(Unhex("00 | 01")), StatusCode::kProtocol);                        // short header
  EXPECT_EQ(try_decode(Unhex("00 | 05000000 | 07000000 | 61")), StatusCode::kProtocol);  // past the end
  EXPECT_EQ(try_decode(Unhex("00 | ffffffff | 07000000 | 61")), StatusCode::kProtocol);  // negative
  EXPECT_EQ(try_decode(Unhex("00 | 01000000 | 07000000 | 61 62")), StatusCode::kProtocol);  // trailing
  EXPECT_EQ(try_decode(Unhex("00 | 01000000 | 0700")), StatusCode::kProtocol);           // truncated int

  auto dschema = arrow::schema({arrow::field("d", arrow::decimal128(38, 0))});
  auto b = arrow::MakeBuilder(dschema->field(0)->type()).ValueOrDie();
  // 17-byte decimal: more than a decimal128 holds.
  std::string d17 = Unhex("00 | 11000000") + std::string(17, '\x01');
  EXPECT_EQ(DecodeIndexedRow(*dschema, reinterpret_cast<const uint8_t*>(d17.data()), d17.size(), {b.get()}).code(),
            StatusCode::kProtocol);
}

// ---------------------------------------------------------------------------------------------
// INDEXED log batches.
// ---------------------------------------------------------------------------------------------

TEST(IndexedLogTest, WorkedExample71ByteBatch) {
  // protocol-data.md 1.4 [C]: table (a INT, b STRING, c BIGINT), schema id 1, row (1, 'a', 100).
  const std::string expected = Unhex(
      "0000000000000000"   // BaseOffset 0
      "3b000000"           // Length 59 = 71 - 12
      "00"                 // Magic 0
      "0000000000000000"   // CommitTimestamp 0
      "76577389"           // CRC-32C 0x89735776 over bytes 25..70
      "0100"               // SchemaId 1
      "01"                 // Attributes: append-only
      "00000000"           // LastOffsetDelta 0 (1 record)
      "ffffffffffffffff"   // WriterId -1
      "ffffffff"           // BatchSequence -1
      "01000000"           // RecordCount 1
      "13000000"           // record Length 19 = 1 (change type) + 18 (row E1)
      "00"                 // change type +A
      "00 01000000 01000000 61 6400000000000000");  // IndexedRow E1
  ASSERT_EQ(expected.size(), 71u);

  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                               arrow::field("c", arrow::int64())});
  IndexedBatchBuilder builder(schema);
  EXPECT_EQ(builder.size_in_bytes(), 48);
  std::vector<Value> row = {Value::Int(1), Value::Bytes("a"), Value::Int(100)};
  ASSERT_TRUE(builder.Append(row.data()).ok());
  EXPECT_EQ(builder.size_in_bytes(), 71);
  EXPECT_EQ(builder.num_records(), 1);
  auto batch = builder.Finish(1);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_TRUE((*batch)->is_mutable());
  EXPECT_EQ(Hex(**batch), Hex(expected));
  EXPECT_EQ(builder.size_in_bytes(), 48);  // reset after Finish
  EXPECT_EQ(builder.num_records(), 0);

  auto header = record::ParseLogBatchHeader((*batch)->data(), static_cast<size_t>((*batch)->size()));
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->crc, 0x89735776u);
  std::vector<int8_t> change_types;
  auto rb = DecodeIndexedLogBatch(*batch, *header, schema, &change_types);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ExpectColumn(*rb, 0, "[1]");
  ExpectColumn(*rb, 1, R"(["a"])");
  ExpectColumn(*rb, 2, "[100]");
  EXPECT_EQ(change_types, std::vector<int8_t>{0});
}

TEST(IndexedLogTest, HeaderOnlyBatch) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32())});
  IndexedBatchBuilder builder(schema);
  auto batch = builder.Finish(3);
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ((*batch)->size(), 48);
  auto header = record::ParseLogBatchHeader((*batch)->data(), 48);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->record_count, 0);
  EXPECT_EQ(header->last_offset_delta, 0);
  EXPECT_EQ(header->schema_id, 3);
  auto rb = DecodeIndexedLogBatch(*batch, *header, schema);
  ASSERT_TRUE(rb.ok());
  EXPECT_EQ(*rb, nullptr);
}

TEST(IndexedLogTest, FailedAppendLeavesBuilderUnchanged) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), CharField("c", 1)});
  IndexedBatchBuilder builder(schema);
  std::vector<Value> good = {Value::Int(1), Value::Bytes("x")};
  std::vector<Value> bad = {Value::Int(2), Value::Bytes("xy")};
  ASSERT_TRUE(builder.Append(good.data()).ok());
  const int64_t size = builder.size_in_bytes();
  EXPECT_EQ(builder.Append(bad.data()).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.size_in_bytes(), size);
  EXPECT_EQ(builder.num_records(), 1);

  auto unsupported = arrow::schema({arrow::field("l", arrow::large_list(arrow::int32()))});
  IndexedBatchBuilder nb(unsupported);
  Value n = Value::Null();
  EXPECT_EQ(nb.Append(&n).code(), StatusCode::kInvalidArgument);
}

TEST(IndexedLogTest, ChangelogBatchWithChangeTypes) {
  // A server changelog batch of a primary-key table: Attributes 0x00, change types 1..4.
  // Table (k INT NOT NULL, v STRING). Rows (derived by 4.2):
  //   (1, 'x'): 00 | 01000000 | 01000000 | 78      -> 10 bytes, record Length 11 = 0x0b
  //   (1, 'y'): same with 79
  //   (1, NULL): 02 | 00000000 | 01000000          -> 9 bytes, record Length 10 = 0x0a
  const std::string records = Unhex(
      "0b000000 01 00 01000000 01000000 78"    // +I (1, 'x')
      "0b000000 02 00 01000000 01000000 78"    // -U (1, 'x')
      "0b000000 03 00 01000000 01000000 79"    // +U (1, 'y')
      "0a000000 04 02 00000000 01000000");     // -D (1, NULL)
  std::string bytes = std::string(48, '\0') + records;
  auto* p = reinterpret_cast<uint8_t*>(bytes.data());
  record::WriteLogBatchHeader(p, bytes.size(), 1, 4, -1, -1);
  p[27] = 0;  // Attributes: not append-only
  util::PutLe<uint32_t>(p + record::kCrcOffset, record::ComputeBatchCrc(p, bytes.size()));
  auto buf = BufferOf(bytes);
  auto header = record::ParseLogBatchHeader(buf->data(), static_cast<size_t>(buf->size()));
  ASSERT_TRUE(header.ok());
  EXPECT_FALSE(header->append_only());

  auto schema = arrow::schema({arrow::field("k", arrow::int32(), false), arrow::field("v", arrow::utf8())});
  std::vector<int8_t> change_types = {9, 9, 9, 9, 9, 9};  // replaced, not appended to
  auto rb = DecodeIndexedLogBatch(buf, *header, schema, &change_types);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ((*rb)->num_rows(), 4);
  ExpectColumn(*rb, 0, "[1, 1, 1, 1]");
  ExpectColumn(*rb, 1, R"(["x", "x", "y", null])");
  EXPECT_EQ(change_types, (std::vector<int8_t>{1, 2, 3, 4}));
}

TEST(IndexedLogTest, MalformedBatchesAreRejected) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32())});
  // Row (7): 00 | 07000000 -> 5 bytes, record Length 6.
  auto decode = [&](const std::string& records, int32_t count) {
    std::string bytes = std::string(48, '\0') + records;
    record::WriteLogBatchHeader(reinterpret_cast<uint8_t*>(bytes.data()), bytes.size(), 1, count, -1, -1);
    auto buf = BufferOf(bytes);
    auto header = record::ParseLogBatchHeader(buf->data(), static_cast<size_t>(buf->size()));
    EXPECT_TRUE(header.ok());
    return DecodeIndexedLogBatch(buf, *header, schema).status().code();
  };
  EXPECT_EQ(decode(Unhex("06000000 00 00 07000000"), 1), StatusCode::kOk);
  EXPECT_EQ(decode(Unhex("06000000 05 00 07000000"), 1), StatusCode::kProtocol);  // change type 5
  EXPECT_EQ(decode(Unhex("07000000 00 00 07000000"), 1), StatusCode::kProtocol);  // Length too long
  EXPECT_EQ(decode(Unhex("00000000"), 1), StatusCode::kProtocol);                 // Length 0
  EXPECT_EQ(decode(Unhex("06000000 00 00 07000000"), 2), StatusCode::kProtocol);  // missing record
  EXPECT_EQ(decode(Unhex("06000000 00 00 07000000 00"), 1), StatusCode::kProtocol);  // trailing byte
  EXPECT_EQ(decode(Unhex("07000000 00 00 07000000 00"), 1), StatusCode::kProtocol);  // row too long
  EXPECT_EQ(decode(Unhex("0600"), 1), StatusCode::kProtocol);                     // cut Length
}

// ---------------------------------------------------------------------------------------------
// Every supported type: Arrow batch -> Values -> INDEXED batch -> Arrow batch, exact values.
// ---------------------------------------------------------------------------------------------

TEST(IndexedLogTest, EveryTypeRoundTripsThroughArrow) {
  using arrow::TimeUnit;
  struct Col {
    std::shared_ptr<arrow::Field> field;
    const char* json;  // three rows: typical, extreme, null
  };
  const std::vector<Col> cols = {
      {arrow::field("bool", arrow::boolean()), "[true, false, null]"},
      {arrow::field("i8", arrow::int8()), "[127, -128, null]"},
      {arrow::field("i16", arrow::int16()), "[32767, -32768, null]"},
      {arrow::field("i32", arrow::int32()), "[2147483647, -2147483648, null]"},
      {arrow::field("i64", arrow::int64()), "[9223372036854775807, -9223372036854775808, null]"},
      {arrow::field("f32", arrow::float32()), "[1.5, -3.4028234663852886e38, null]"},
      {arrow::field("f64", arrow::float64()), "[3.141592653589793, -1e308, null]"},
      {arrow::field("str", arrow::utf8()), R"(["héllo wörld", "", null])"},
      {arrow::field("bin", arrow::binary()), R"(["abc", "", null])"},
      {arrow::field("fsb", arrow::fixed_size_binary(3)), R"(["xyz", "a c", null])"},
      {arrow::field("dec18", arrow::decimal128(18, 4)), R"(["12345678901234.5678", "-99999999999999.9999", null])"},
      {arrow::field("dec38", arrow::decimal128(38, 10)),
       R"(["1234567890123456789012345678.0123456789", "-9999999999999999999999999999.9999999999", null])"},
      {arrow::field("date", arrow::date32()), "[19000, -719162, null]"},
      {arrow::field("t_s", arrow::time32(TimeUnit::SECOND)), "[0, 86399, null]"},
      {arrow::field("t_ms", arrow::time32(TimeUnit::MILLI)), "[3723000, 86399999, null]"},
      {arrow::field("t_us", arrow::time64(TimeUnit::MICRO)), "[3723000000, 86399999000, null]"},
      {arrow::field("t_ns", arrow::time64(TimeUnit::NANO)), "[1000000, 86399999000000, null]"},
      {arrow::field("ts_s", arrow::timestamp(TimeUnit::SECOND)), "[1700000000, -62135596800, null]"},
      {arrow::field("ts_ms", arrow::timestamp(TimeUnit::MILLI)), "[1700000000123, -1, null]"},
      {arrow::field("ts_us", arrow::timestamp(TimeUnit::MICRO)), "[1700000000123456, -1, null]"},
      {arrow::field("ts_ns", arrow::timestamp(TimeUnit::NANO)), "[1700000000123456789, -1, null]"},
      {arrow::field("ltz_us", arrow::timestamp(TimeUnit::MICRO, "UTC")), "[1500123, -1000001, null]"},
      {arrow::field("lstr", arrow::large_utf8()), R"(["large", "", null])"},
      {arrow::field("lbin", arrow::large_binary()), R"(["", "z", null])"},
      {CharField("chr", 4), R"(["abcd", "é", null])"},
      {arrow::field("nn", arrow::int32(), /*nullable=*/false), "[1, 2, 3]"},
  };
  std::vector<std::shared_ptr<arrow::Field>> fields;
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (const auto& c : cols) {
    fields.push_back(c.field);
    auto a = arrow::json::ArrayFromJSONString(c.field->type(), c.json);
    ASSERT_TRUE(a.ok()) << c.field->name() << ": " << a.status().ToString();
    arrays.push_back(*a);
  }
  auto schema = arrow::schema(fields);
  auto input = arrow::RecordBatch::Make(schema, 3, arrays);

  IndexedBatchBuilder builder(schema);
  std::vector<Value> values;
  row::ValueArena scratch;
  for (int64_t r = 0; r < input->num_rows(); ++r) {
    Status st = row::RowValuesFromArrow(*input, r, &values, &scratch);
    ASSERT_TRUE(st.ok()) << st.ToString();
    st = builder.Append(values.data());
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(row::RowValuesFromArrow(*input, 3, &values, &scratch).code(), StatusCode::kInvalidArgument);

  auto batch = builder.Finish(7);
  ASSERT_TRUE(batch.ok());
  auto header = record::ParseLogBatchHeader((*batch)->data(), static_cast<size_t>((*batch)->size()));
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->schema_id, 7);
  EXPECT_EQ(header->record_count, 3);
  EXPECT_EQ(header->last_offset_delta, 2);
  EXPECT_TRUE(header->append_only());
  EXPECT_EQ(header->batch_size(), static_cast<size_t>((*batch)->size()));
  EXPECT_EQ(header->crc, record::ComputeBatchCrc((*batch)->data(), static_cast<size_t>((*batch)->size())));

  // The all-null row (row 2): record = Length | +A | bitmap (26 fields -> 4 bytes; every
  // nullable field null: bits 0..24 set -> ff ff ff 01) | 5 variable-length slots (str, bin,
  // dec38, lstr, lbin; chr is CHAR(4), so fixed), all 0 | nn INT 3.
  // Row size = 4 + 5*4 + 4 = 28 -> record Length 29 = 0x1d; it is the last record.
  const std::string tail = Unhex("1d000000 00 ffffff01 00000000 00000000 00000000 00000000 00000000 03000000");
  const std::string all = Hex(**batch);
  EXPECT_EQ(all.substr(all.size() - 2 * tail.size()), Hex(tail));

  std::vector<int8_t> change_types;
  auto rb = DecodeIndexedLogBatch(*batch, *header, schema, &change_types);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ(change_types, (std::vector<int8_t>{0, 0, 0}));
  ASSERT_EQ((*rb)->num_columns(), input->num_columns());
  for (int i = 0; i < input->num_columns(); ++i)
    EXPECT_TRUE((*rb)->column(i)->Equals(*input->column(i)))
        << schema->field(i)->name() << ": got " << (*rb)->column(i)->ToString() << "\nexpected "
        << input->column(i)->ToString();
}

}  // namespace
}  // namespace fluss
