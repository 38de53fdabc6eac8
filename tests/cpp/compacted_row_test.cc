// CompactedRow (protocol-data.md sections 4.1, 4.3) and the one Arrow->Fluss type map. The worked
// examples E1..E4 and E9 of section 4.5 are byte-identical to Java's CompactedRowWriter ([J]);
// each is encoded, compared byte for byte, decoded back and compared value by value.
#include <gtest/gtest.h>

#include "arrow_rows.h"
#include "fluss/row/compacted_row.h"
#include "fluss/row/data_type.h"
#include "hex.h"

namespace fluss::row {
namespace {

using testing::Builders;
using testing::CharField;
using testing::Dec;
using testing::ExpectColumn;
using testing::Hex;
using testing::Unhex;

std::string Encode(const std::shared_ptr<arrow::Schema>& schema, const std::vector<Value>& values) {
  auto codec = CompactedRowCodec::Make(*schema);
  EXPECT_TRUE(codec.ok()) << codec.status().ToString();
  std::string out;
  Status st = codec->Encode(values.data(), &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

std::shared_ptr<arrow::RecordBatch> Decode(const std::shared_ptr<arrow::Schema>& schema, const std::string& row) {
  auto codec = CompactedRowCodec::Make(*schema);
  EXPECT_TRUE(codec.ok());
  Builders b(schema);
  Status st = codec->Decode(testing::Bytes(row), row.size(), b.raw);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return st.ok() ? b.Finish() : nullptr;
}

TEST(CompactedRowTest, WorkedExampleE1) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                               arrow::field("c", arrow::int64())});
  const std::string expected = Unhex("00 | 01 | 01 61 | 64");
  EXPECT_EQ(Hex(Encode(schema, {Value::Int(1), Value::Bytes("a"), Value::Int(100)})), Hex(expected));
  auto rb = Decode(schema, expected);
  ExpectColumn(rb, 0, "[1]");
  ExpectColumn(rb, 1, R"(["a"])");
  ExpectColumn(rb, 2, "[100]");
}

TEST(CompactedRowTest, WorkedExampleE2) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                               arrow::field("c", arrow::int64()), arrow::field("d", arrow::int16()),
                               arrow::field("e", arrow::boolean()), arrow::field("f", arrow::float64())});
  const std::string expected = Unhex("02 | ffffffff0f | feffffffffffffffff01 | 2c01 | 01 | 000000000000f83f");
  EXPECT_EQ(Hex(Encode(schema, {Value::Int(-1), Value::Null(), Value::Int(-2), Value::Int(300), Value::Bool(true),
                                Value::Double(1.5)})),
            Hex(expected));
  auto rb = Decode(schema, expected);
  ExpectColumn(rb, 0, "[-1]");
  ExpectColumn(rb, 1, "[null]");
  ExpectColumn(rb, 2, "[-2]");
  ExpectColumn(rb, 3, "[300]");
  ExpectColumn(rb, 4, "[true]");
  ExpectColumn(rb, 5, "[1.5]");
}

TEST(CompactedRowTest, WorkedExampleE3) {
  auto schema = arrow::schema({arrow::field("a", arrow::decimal128(10, 2)), arrow::field("b", arrow::decimal128(20, 2)),
                               arrow::field("c", arrow::timestamp(arrow::TimeUnit::MILLI)),
                               arrow::field("d", arrow::timestamp(arrow::TimeUnit::MICRO)),
                               arrow::field("e", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
                               arrow::field("f", arrow::date32()), arrow::field("g", arrow::time32(arrow::TimeUnit::MILLI))});
  const std::string expected = Unhex("00 | d209 | 02 04d2 | dc0b | dc0b f8c007 | dc0b f8c007 | b89401 | f89de301");
  // 1500 ms + 123000 ns = 1500123 us.
  EXPECT_EQ(Hex(Encode(schema, {Dec("1234"), Dec("1234"), Value::Int(1500), Value::Int(1500123), Value::Int(1500123),
                                Value::Int(19000), Value::Int(3723000)})),
            Hex(expected));
  auto rb = Decode(schema, expected);
  ExpectColumn(rb, 0, R"(["12.34"])");
  ExpectColumn(rb, 1, R"(["12.34"])");
  ExpectColumn(rb, 2, "[1500]");
  ExpectColumn(rb, 3, "[1500123]");
  ExpectColumn(rb, 4, "[1500123]");
  ExpectColumn(rb, 5, "[19000]");
  ExpectColumn(rb, 6, "[3723000]");
}

TEST(CompactedRowTest, WorkedExampleE4CharBinaryBytes) {
  auto schema = arrow::schema({CharField("a", 3), arrow::field("b", arrow::fixed_size_binary(4)),
                               arrow::field("c", arrow::binary())});
  // Java's bytes for the BINARY(4) value 01 02 (Java pads it on read); this client takes only
  // exactly n bytes for BINARY(n), as Arrow's fixed_size_binary(n) does.
  const std::string expected = Unhex("00 | 02 6162 | 02 0102 | 01 ff");
  EXPECT_EQ(Hex(Encode(schema, {Value::Bytes("ab"), Value::Bytes(std::string_view("\x01\x02\x00\x00", 4)),
                                Value::Bytes("\xff")})),
            Hex(Unhex("00 | 02 6162 | 04 01020000 | 01 ff")));
  auto codec = CompactedRowCodec::Make(*schema);
  std::string out;
  const Value short_binary[] = {Value::Bytes("ab"), Value::Bytes("\x01\x02"), Value::Bytes("\xff")};
  Status st = codec->Encode(short_binary, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "column 'b' (BINARY(4)): value has 2 bytes, expected 4");
  auto rb = Decode(schema, expected);
  ExpectColumn(rb, 0, R"(["ab"])");
  // BINARY(4) holds exactly 4 bytes in Arrow: the 2 stored bytes are 0x00-padded.
  EXPECT_EQ(Hex(static_cast<const arrow::FixedSizeBinaryArray&>(*rb->column(1)).GetView(0)), "01020000");
  EXPECT_EQ(Hex(static_cast<const arrow::BinaryArray&>(*rb->column(2)).GetView(0)), "ff");
}

TEST(CompactedRowTest, WorkedExampleE9NegativeDecimalsAndTimestamp) {
  auto schema = arrow::schema({arrow::field("a", arrow::decimal128(20, 2)), arrow::field("b", arrow::decimal128(10, 2)),
                               arrow::field("c", arrow::timestamp(arrow::TimeUnit::NANO))});
  const std::string expected = Unhex("00 | 01 9c | fbffffffffffffffff01 | ffffffffffffffffff01 bf843d");
  // 1 ns before the epoch = millis -1, nano-of-milli 999999.
  EXPECT_EQ(Hex(Encode(schema, {Dec("-100"), Dec("-5"), Value::Int(-1)})), Hex(expected));
  auto rb = Decode(schema, expected);
  ExpectColumn(rb, 0, R"(["-1.00"])");
  ExpectColumn(rb, 1, R"(["-0.05"])");
  ExpectColumn(rb, 2, "[-1]");
}

TEST(CompactedRowTest, BitmapSpansBytesAndAllNull) {
  std::vector<std::shared_ptr<arrow::Field>> fields;
  std::vector<Value> values;
  for (int i = 0; i < 9; ++i) {
    fields.push_back(arrow::field("f" + std::to_string(i), arrow::int8()));
    values.push_back(Value::Null());
  }
  auto schema = arrow::schema(fields);
  EXPECT_EQ(Hex(Encode(schema, values)), "ff01");
  values[8] = Value::Int(-1);
  EXPECT_EQ(Hex(Encode(schema, values)), "ff00ff");
}

TEST(CompactedRowTest, EncodeErrorsNameTheColumnAndLeaveOutUnchanged) {
  auto schema = arrow::schema({arrow::field("id", arrow::int32(), false), arrow::field("s", arrow::int16())});
  auto codec = CompactedRowCodec::Make(*schema);
  ASSERT_TRUE(codec.ok());
  std::string out = "x";
  const Value null_id[] = {Value::Null(), Value::Int(1)};
  Status st = codec->Encode(null_id, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'id'"), std::string::npos) << st.message();
  EXPECT_EQ(out, "x");
  const Value too_big[] = {Value::Int(1), Value::Int(40000)};
  st = codec->Encode(too_big, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'s'"), std::string::npos) << st.message();
  EXPECT_EQ(out, "x");
  const Value wrong_kind[] = {Value::Bytes("1"), Value::Int(1)};
  EXPECT_EQ(codec->Encode(wrong_kind, &out).code(), StatusCode::kInvalidArgument);
  auto nested = CompactedRowCodec::Make(*arrow::schema({arrow::field("l", arrow::large_list(arrow::int32()))}));
  EXPECT_EQ(nested.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(nested.status().message().find("'l'"), std::string::npos);
}

TEST(CompactedRowTest, MalformedRowsAreRejectedWithoutTouchingBuilders) {
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                               arrow::field("c", arrow::int64(), false)});
  auto codec = CompactedRowCodec::Make(*schema);
  ASSERT_TRUE(codec.ok());
  for (const char* bad : {"", "00 01 01", "00 01 05 61 64", "00 01 01 61 64 00", "04 01 01 61",
                          "00 ffffffffff0f 01 61 64", "00 01 ffffffff0f 61 64"}) {
    Builders b(schema);
    const std::string row = Unhex(bad);
    Status st = codec->Decode(testing::Bytes(row), row.size(), b.raw);
    EXPECT_EQ(st.code(), StatusCode::kProtocol) << bad;
    for (auto* builder : b.raw) EXPECT_EQ(builder->length(), 0) << bad;
  }
  Builders wrong(arrow::schema({arrow::field("a", arrow::int64())}));
  const std::string row = Unhex("00 01 01 61 64");
  EXPECT_EQ(codec->Decode(testing::Bytes(row), row.size(), wrong.raw).code(), StatusCode::kInvalidArgument);
}

TEST(CompactedRowTest, TimestampsAndTimesInEveryUnit) {
  auto schema = arrow::schema({arrow::field("ts", arrow::timestamp(arrow::TimeUnit::SECOND)),
                               arrow::field("tl", arrow::timestamp(arrow::TimeUnit::NANO, "Europe/Paris")),
                               arrow::field("t0", arrow::time32(arrow::TimeUnit::SECOND)),
                               arrow::field("t6", arrow::time64(arrow::TimeUnit::MICRO))});
  // 2 s -> 2000 ms (compact: d00f); 1500000001 ns -> 1500 ms (dc0b) + 1 ns (01); TIME 1 s ->
  // 1000 ms (e807); TIME 1000 us -> 1 ms (01). (A TIME finer than milliseconds is refused.)
  const std::string row = Encode(schema, {Value::Int(2), Value::Int(1500000001), Value::Int(1), Value::Int(1000)});
  EXPECT_EQ(Hex(row), "00d00fdc0b01e80701");
  auto rb = Decode(schema, row);
  ExpectColumn(rb, 0, "[2]");
  ExpectColumn(rb, 1, "[1500000001]");
  ExpectColumn(rb, 2, "[1]");
  ExpectColumn(rb, 3, "[1000]");
}

TEST(DataTypeTest, ArrowToFlussMap) {
  auto type_of = [](std::shared_ptr<arrow::Field> f) {
    auto t = DataTypeOf(*f);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? t->ToString() : std::string("?");
  };
  EXPECT_EQ(type_of(arrow::field("a", arrow::boolean())), "BOOLEAN");
  EXPECT_EQ(type_of(arrow::field("a", arrow::int8(), false)), "TINYINT NOT NULL");
  EXPECT_EQ(type_of(arrow::field("a", arrow::int32())), "INT");
  EXPECT_EQ(type_of(arrow::field("a", arrow::large_utf8())), "STRING");
  EXPECT_EQ(type_of(CharField("a", 3)), "CHAR(3)");
  EXPECT_EQ(type_of(arrow::field("a", arrow::fixed_size_binary(4))), "BINARY(4)");
  EXPECT_EQ(type_of(arrow::field("a", arrow::large_binary())), "BYTES");
  EXPECT_EQ(type_of(arrow::field("a", arrow::decimal128(20, 2))), "DECIMAL(20,2)");
  EXPECT_EQ(type_of(arrow::field("a", arrow::date32())), "DATE");
  EXPECT_EQ(type_of(arrow::field("a", arrow::time32(arrow::TimeUnit::SECOND))), "TIME(0)");
  EXPECT_EQ(type_of(arrow::field("a", arrow::time64(arrow::TimeUnit::NANO))), "TIME(9)");
  EXPECT_EQ(type_of(arrow::field("a", arrow::timestamp(arrow::TimeUnit::MILLI))), "TIMESTAMP(3)");
  EXPECT_EQ(type_of(arrow::field("a", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"))), "TIMESTAMP_LTZ(6)");

  auto bad = DataTypeOf(*arrow::field("col", arrow::date64()));
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'col'"), std::string::npos);
  auto bad_char = DataTypeOf(*arrow::field("c", arrow::utf8(), true,
                                           arrow::key_value_metadata({kCharLengthMetadataKey}, {"x"})));
  EXPECT_EQ(bad_char.status().code(), StatusCode::kInvalidArgument);

  auto ts = *DataTypeOf(*arrow::field("a", arrow::timestamp(arrow::TimeUnit::MILLI)));
  EXPECT_TRUE(ts.compact());
  EXPECT_FALSE(DataTypeOf(*arrow::field("a", arrow::timestamp(arrow::TimeUnit::MICRO)))->compact());
  EXPECT_TRUE(DataTypeOf(*arrow::field("a", arrow::decimal128(18, 0)))->compact());
  EXPECT_FALSE(DataTypeOf(*arrow::field("a", arrow::decimal128(19, 0)))->compact());
  EXPECT_STREQ(JsonTypeName(TypeRoot::kInt), "INTEGER");
  EXPECT_STREQ(JsonTypeName(TypeRoot::kTimestampLtz), "TIMESTAMP_WITH_LOCAL_TIME_ZONE");
}

TEST(DataTypeTest, InverseMapRoundTrips) {
  for (auto f : {arrow::field("a", arrow::int16(), false), CharField("c", 5),
                 arrow::field("t", arrow::time32(arrow::TimeUnit::MILLI)),
                 arrow::field("u", arrow::time64(arrow::TimeUnit::MICRO)),
                 arrow::field("l", arrow::timestamp(arrow::TimeUnit::NANO, "UTC")),
                 arrow::field("d", arrow::decimal128(38, 10)), arrow::field("b", arrow::fixed_size_binary(3)),
                 arrow::field("s", arrow::large_utf8())}) {
    auto t = DataTypeOf(*f);
    ASSERT_TRUE(t.ok());
    auto back = ArrowFieldOf(f->name(), *t);
    EXPECT_TRUE(back->Equals(*f, /*check_metadata=*/true)) << f->ToString() << " vs " << back->ToString();
  }
}

}  // namespace
}  // namespace fluss::row
