// Nested types (ARRAY, MAP, ROW) in CompactedRow and IndexedRow (protocol-data.md 4.4): the
// worked examples E5..E10 of section 4.5 (byte-identical to Java's writers, [J]) are encoded,
// compared byte for byte and decoded back; then nesting in depth, nullability at every level,
// the paths errors name, malformed bytes, the type map and the Arrow builders.
#include <gtest/gtest.h>

#include <cstring>

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "arrow_rows.h"
#include "fluss/row/arrow_input.h"
#include "fluss/row/compacted_row.h"
#include "fluss/row/data_type.h"
#include "fluss/row/datum.h"
#include "fluss/row/indexed_row.h"
#include "fluss/row/value_arena.h"
#include "fluss/write/row_batch_builder.h"
#include "fluss/write/row_validator.h"
#include "hex.h"

namespace fluss::row {
namespace {

using testing::Builders;
using testing::Dec;
using testing::ExpectColumn;
using testing::Hex;
using testing::Unhex;

Value Arr(const std::vector<Value>& v) { return Value::Array(v.data(), v.size()); }
Value Rw(const std::vector<Value>& v) { return Value::Row(v.data(), v.size()); }

std::string EncodeAs(RowFormat f, const std::shared_ptr<arrow::Schema>& schema, const std::vector<Value>& values) {
  auto columns = ColumnTypesOf(*schema);
  EXPECT_TRUE(columns.ok()) << columns.status().ToString();
  std::string out;
  Status st = f == RowFormat::kCompacted ? EncodeCompactedFields(*columns, values.data(), &out)
                                         : EncodeIndexedFields(*columns, values.data(), &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

std::shared_ptr<arrow::RecordBatch> DecodeAs(RowFormat f, const std::shared_ptr<arrow::Schema>& schema,
                                             const std::string& row) {
  auto columns = ColumnTypesOf(*schema);
  EXPECT_TRUE(columns.ok());
  Builders b(schema);
  std::vector<Datum> scratch;
  const auto* data = testing::Bytes(row);
  Status st = f == RowFormat::kCompacted ? DecodeCompactedFields(*columns, data, row.size(), &b.raw, &scratch)
                                         : DecodeIndexedFields(*columns, data, row.size(), &b.raw, &scratch);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return st.ok() ? b.Finish() : nullptr;
}

Status DecodeStatus(RowFormat f, const std::shared_ptr<arrow::Schema>& schema, const std::string& row) {
  auto columns = ColumnTypesOf(*schema);
  Builders b(schema);
  std::vector<Datum> scratch;
  const auto* data = testing::Bytes(row);
  Status st = f == RowFormat::kCompacted ? DecodeCompactedFields(*columns, data, row.size(), &b.raw, &scratch)
                                         : DecodeIndexedFields(*columns, data, row.size(), &b.raw, &scratch);
  for (auto* builder : b.raw) EXPECT_EQ(builder->length(), 0) << "a failed decode touched a builder";
  return st;
}

/// Encodes `values` in both formats, compares with the expected hex, decodes each back and
/// compares column 0.. with `json`.
void RoundTrip(const std::shared_ptr<arrow::Schema>& schema, const std::vector<Value>& values,
               const std::string& compacted_hex, const std::string& indexed_hex, const std::vector<std::string>& json) {
  for (RowFormat f : {RowFormat::kCompacted, RowFormat::kIndexed}) {
    const std::string& hex = f == RowFormat::kCompacted ? compacted_hex : indexed_hex;
    if (hex.empty()) continue;
    const std::string expected = Unhex(hex);
    EXPECT_EQ(Hex(EncodeAs(f, schema, values)), Hex(expected)) << RowFormatName(f);
    auto rb = DecodeAs(f, schema, expected);
    for (size_t i = 0; i < json.size(); ++i) ExpectColumn(rb, static_cast<int>(i), json[i]);
  }
}

const char* kE5Array = "03000000 | 02000000 | 01000000 00000000 03000000 | 00000000";

TEST(NestedCodec, WorkedExampleE5ArrayOfIntWithNull) {
  auto schema = arrow::schema({arrow::field("a", arrow::list(arrow::int32()))});
  const std::vector<Value> items = {Value::Int(1), Value::Null(), Value::Int(3)};
  RoundTrip(schema, {Arr(items)}, std::string("00 | 18 | ") + kE5Array, std::string("00 | 18000000 | ") + kE5Array,
            {"[[1, null, 3]]"});
  const std::vector<Value> no_nulls = {Value::Int(1), Value::Int(2), Value::Int(3)};
  RoundTrip(schema, {Arr(no_nulls)}, "00 | 18 | 03000000 00000000 01000000 02000000 03000000 00000000", "",
            {"[[1, 2, 3]]"});
}

TEST(NestedCodec, WorkedExampleE6ArrayOfStringInlineAndOutOfLine) {
  auto schema = arrow::schema({arrow::field("a", arrow::list(arrow::utf8()))});
  const std::vector<Value> items = {Value::Bytes("a"), Value::Bytes("bcdefghij")};
  const std::string array = "02000000 | 00000000 | 6100000000000081 | 0900000018000000 | 62636465666768696a 00000000000000";
  RoundTrip(schema, {Arr(items)}, "00 | 28 | " + array, "00 | 28000000 | " + array, {R"([["a", "bcdefghij"]])"});
}

TEST(NestedCodec, WorkedExampleE7Map) {
  auto schema = arrow::schema({arrow::field("m", arrow::map(arrow::utf8(), arrow::int32()))});
  const std::vector<Value> entries = {Value::Bytes("k"), Value::Int(7)};
  const std::string map = "10000000 | 01000000 00000000 6b00000000000081 | 01000000 00000000 07000000 00000000";
  RoundTrip(schema, {Value::Map(entries.data(), 1)}, "00 | 24 | " + map, "00 | 24000000 | " + map,
            {R"([[["k", 7]]])"});
}

TEST(NestedCodec, WorkedExampleE8RowInTheEnclosingFormat) {
  auto schema = arrow::schema(
      {arrow::field("r", arrow::struct_({arrow::field("x", arrow::int32()), arrow::field("y", arrow::utf8())}))});
  const std::vector<Value> fields = {Value::Int(5), Value::Bytes("z")};
  RoundTrip(schema, {Rw(fields)}, "00 | 04 | 00 05 01 7a", "00 | 0a000000 | 00 01000000 05000000 7a",
            {R"([{"x": 5, "y": "z"}])"});
}

TEST(NestedCodec, WorkedExampleE10TimestampDecimalBooleanElements) {
  auto schema = arrow::schema({arrow::field("t", arrow::list(arrow::timestamp(arrow::TimeUnit::MICRO))),
                               arrow::field("d", arrow::list(arrow::decimal128(20, 2))),
                               arrow::field("b", arrow::list(arrow::boolean()))});
  const std::vector<Value> ts = {Value::Int(1500123)};  // 1500 ms + 123000 ns
  const std::vector<Value> dec = {Dec("1234")};
  const std::vector<Value> bools = {Value::Bool(true), Value::Bool(false), Value::Bool(true)};
  RoundTrip(schema, {Arr(ts), Arr(dec), Arr(bools)},
            "00 | 18 01000000 00000000 78e0010010000000 dc05000000000000 |"
            " 20 01000000 00000000 0200000010000000 04d2 0000000000000000000000000000 |"
            " 10 03000000 00000000 010001 0000000000",
            "", {"[[1500123]]", R"([["12.34"]])", "[[true, false, true]]"});
}

TEST(NestedCodec, EveryElementTypeRoundTripsInBothFormats) {
  // One array column per element type, with a null element each; decoded back equal.
  auto schema = arrow::schema({
      arrow::field("b", arrow::list(arrow::boolean())),
      arrow::field("i8", arrow::list(arrow::int8())),
      arrow::field("i16", arrow::list(arrow::int16())),
      arrow::field("i32", arrow::list(arrow::int32())),
      arrow::field("i64", arrow::list(arrow::int64())),
      arrow::field("f", arrow::list(arrow::float32())),
      arrow::field("d", arrow::list(arrow::float64())),
      arrow::field("s", arrow::list(arrow::utf8())),
      arrow::field("y", arrow::list(arrow::binary())),
      arrow::field("bin", arrow::list(arrow::fixed_size_binary(3))),
      arrow::field("dec", arrow::list(arrow::decimal128(10, 2))),
      arrow::field("day", arrow::list(arrow::date32())),
      arrow::field("tod", arrow::list(arrow::time32(arrow::TimeUnit::MILLI))),
      arrow::field("ts3", arrow::list(arrow::timestamp(arrow::TimeUnit::MILLI))),
      arrow::field("ltz9", arrow::list(arrow::timestamp(arrow::TimeUnit::NANO, "UTC"))),
  });
  std::vector<std::vector<Value>> items = {
      {Value::Bool(true), Value::Null()},
      {Value::Int(-128), Value::Null()},
      {Value::Int(-300), Value::Null()},
      {Value::Int(-70000), Value::Null()},
      {Value::Int(-5000000000LL), Value::Null()},
      {Value::Double(1.5), Value::Null()},
      {Value::Double(-2.25), Value::Null()},
      {Value::Bytes("seven77"), Value::Bytes("eight888"), Value::Null()},
      {Value::Bytes(std::string_view("\x00\xff", 2)), Value::Null()},
      {Value::Bytes("abc"), Value::Null()},
      {Dec("-1234"), Value::Null()},
      {Value::Int(19000), Value::Null()},
      {Value::Int(3723004), Value::Null()},
      {Value::Int(-1), Value::Null()},
      {Value::Int(-1), Value::Null()},
  };
  std::vector<Value> row;
  for (const auto& v : items) row.push_back(Arr(v));
  const std::vector<std::string> json = {
      "[[true, null]]",           "[[-128, null]]",   "[[-300, null]]",      "[[-70000, null]]",
      "[[-5000000000, null]]",    "[[1.5, null]]",    "[[-2.25, null]]",     R"([["seven77", "eight888", null]])",
      R"([["\u0000\u00ff", null]])", R"([["abc", null]])", R"([["-12.34", null]])", "[[19000, null]]",
      "[[3723004, null]]",        "[[-1, null]]",     "[[-1, null]]"};
  for (RowFormat f : {RowFormat::kCompacted, RowFormat::kIndexed}) {
    auto rb = DecodeAs(f, schema, EncodeAs(f, schema, row));
    ASSERT_NE(rb, nullptr);
    for (size_t i = 0; i < json.size(); ++i) {
      if (i == 8) {  // BYTES: compare the raw bytes
        auto values = std::static_pointer_cast<arrow::ListArray>(rb->column(8))->values();
        EXPECT_EQ(Hex(static_cast<const arrow::BinaryArray&>(*values).GetView(0)), "00ff");
        EXPECT_TRUE(values->IsNull(1));
        continue;
      }
      ExpectColumn(rb, static_cast<int>(i), json[i]);
    }
  }
}

TEST(NestedCodec, NestingInDepthRoundTrips) {
  // ARRAY<ROW<id INT NOT NULL, tags ARRAY<STRING>, attrs MAP<STRING, ARRAY<INT>>, inner ROW<z DOUBLE>>>
  auto inner = arrow::struct_({arrow::field("z", arrow::float64())});
  auto element = arrow::struct_({arrow::field("id", arrow::int32(), false), arrow::field("tags", arrow::list(arrow::utf8())),
                                 arrow::field("attrs", arrow::map(arrow::utf8(), arrow::list(arrow::int32()))),
                                 arrow::field("inner", inner)});
  auto schema = arrow::schema({arrow::field("k", arrow::int64(), false), arrow::field("items", arrow::list(element)),
                               arrow::field("after", arrow::utf8())});
  const std::vector<Value> tags = {Value::Bytes("x"), Value::Null(), Value::Bytes("a long tag value")};
  const std::vector<Value> ints = {Value::Int(1), Value::Int(2)};
  const std::vector<Value> attrs = {Value::Bytes("one"), Arr(ints), Value::Bytes("none"), Value::Null()};
  const std::vector<Value> z = {Value::Double(0.5)};
  const std::vector<Value> e0 = {Value::Int(7), Arr(tags), Value::Map(attrs.data(), 2), Rw(z)};
  const std::vector<Value> e1 = {Value::Int(8), Value::Null(), Value::Null(), Value::Null()};
  const std::vector<Value> elements = {Rw(e0), Value::Null(), Rw(e1)};
  const std::vector<Value> row = {Value::Int(42), Arr(elements), Value::Bytes("tail")};
  const std::string json =
      R"([[{"id": 7, "tags": ["x", null, "a long tag value"], "attrs": [["one", [1, 2]], ["none", null]],)"
      R"( "inner": {"z": 0.5}}, null, {"id": 8, "tags": null, "attrs": null, "inner": null}]])";
  for (RowFormat f : {RowFormat::kCompacted, RowFormat::kIndexed}) {
    const std::string bytes = EncodeAs(f, schema, row);
    auto rb = DecodeAs(f, schema, bytes);
    ExpectColumn(rb, 0, "[42]");
    ExpectColumn(rb, 1, json);
    ExpectColumn(rb, 2, R"(["tail"])");
    // Every truncation of the row is refused without touching a builder.
    for (size_t n = 0; n < bytes.size(); ++n) {
      Status st = DecodeStatus(f, schema, bytes.substr(0, n));
      EXPECT_EQ(st.code(), StatusCode::kProtocol) << RowFormatName(f) << " truncated to " << n;
    }
  }
}

TEST(NestedCodec, ChecksNameThePathInsideTheColumn) {
  auto address = arrow::struct_({arrow::field("city", arrow::utf8()), arrow::field("zip", arrow::int32(), false)});
  auto schema = arrow::schema({
      arrow::field("tags", arrow::list(arrow::field("item", arrow::int16(), false))),
      arrow::field("attrs", arrow::map(arrow::utf8(), arrow::int8())),
      arrow::field("address", address),
  });
  write::RowValidator validator(schema);
  const std::vector<Value> ok_tags = {Value::Int(1)};
  const std::vector<Value> ok_attrs = {Value::Bytes("k"), Value::Int(1)};
  const std::vector<Value> ok_address = {Value::Bytes("c"), Value::Int(1)};
  struct Case {
    std::vector<Value> tags, attrs, address;
    const char* message;
  };
  const Case cases[] = {
      {{Value::Int(1), Value::Int(2), Value::Int(3), Value::Int(40000)}, ok_attrs, ok_address,
       "column 'tags[3]' (SMALLINT NOT NULL): value 40000 is out of range [-32768, 32767]"},
      {{Value::Null()}, ok_attrs, ok_address, "column 'tags[0]' (SMALLINT NOT NULL): the value is null"},
      {ok_tags, {Value::Bytes("a"), Value::Int(1), Value::Null(), Value::Int(2)}, ok_address,
       "column 'attrs[1].key' (STRING NOT NULL): the value is null"},
      {ok_tags, {Value::Bytes("a"), Value::Bytes("x")}, ok_address,
       "column 'attrs[0].value' (TINYINT): a value of kind bytes does not fit"},
      {ok_tags, ok_attrs, {Value::Bytes("c"), Value::Null()}, "column 'address.zip' (INT NOT NULL): the value is null"},
      {ok_tags, ok_attrs, {Value::Bytes("c")},
       "column 'address' (ROW<city STRING, zip INT NOT NULL>): a row of 1 field(s) for a type of 2"},
  };
  for (const auto& c : cases) {
    const std::vector<Value> row = {Arr(c.tags), Value::Map(c.attrs.data(), c.attrs.size() / 2), Rw(c.address)};
    Status st = validator.Check(row.data(), row.size());
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.message;
    EXPECT_EQ(st.message(), c.message);
    for (RowFormat f : {RowFormat::kCompacted, RowFormat::kIndexed}) {
      auto columns = ColumnTypesOf(*schema);
      std::string out = "x";
      Status enc = f == RowFormat::kCompacted ? EncodeCompactedFields(*columns, row.data(), &out)
                                              : EncodeIndexedFields(*columns, row.data(), &out);
      EXPECT_EQ(enc.message(), c.message);
      EXPECT_EQ(out, "x");  // nothing appended on failure
    }
  }
  // A value of the wrong nested kind.
  const std::vector<Value> wrong = {Rw(ok_tags), Value::Null(), Value::Null()};
  EXPECT_EQ(validator.Check(wrong.data(), wrong.size()).message(),
            "column 'tags' (ARRAY<SMALLINT NOT NULL>): a value of kind row does not fit");
}

TEST(NestedCodec, MalformedNestedBytesAreRefused) {
  auto schema = arrow::schema({arrow::field("a", arrow::list(arrow::utf8()), false)});
  struct Case {
    const char* hex;
    const char* what;
  };
  const Case cases[] = {
      {"00 | 03 | 010000", "no element count"},
      {"00 | 08 | ffffffff 00000000", "negative element count"},
      {"00 | 08 | 05000000 00000000", "does not fit"},
      // element 0 out of line at offset 0x40, beyond the 16-byte array
      {"00 | 10 | 01000000 00000000 0100000040000000", "run past"},
  };
  for (const auto& c : cases) {
    for (RowFormat f : {RowFormat::kCompacted}) {
      Status st = DecodeStatus(f, schema, Unhex(c.hex));
      EXPECT_EQ(st.code(), StatusCode::kProtocol) << c.hex;
      EXPECT_NE(st.message().find(c.what), std::string::npos) << st.message();
    }
  }
  // A null element where the element type is NOT NULL.
  auto strict = arrow::schema({arrow::field("a", arrow::list(arrow::field("item", arrow::int32(), false)))});
  Status st = DecodeStatus(RowFormat::kCompacted, strict, Unhex("00 | 10 | 01000000 01000000 00000000 00000000"));
  EXPECT_EQ(st.code(), StatusCode::kProtocol);
  EXPECT_NE(st.message().find("null"), std::string::npos) << st.message();
  // A map whose key array says it is larger than the map.
  auto map = arrow::schema({arrow::field("m", arrow::map(arrow::utf8(), arrow::int32()))});
  st = DecodeStatus(RowFormat::kIndexed, map, Unhex("00 | 08000000 | 40000000 00000000"));
  EXPECT_EQ(st.code(), StatusCode::kProtocol) << st.ToString();
}

TEST(NestedCodec, TypeMapAndSpelling) {
  auto address = arrow::struct_({arrow::field("city", arrow::utf8()), arrow::field("zip", arrow::int32(), false)});
  struct Case {
    std::shared_ptr<arrow::DataType> type;
    const char* fluss;
    std::shared_ptr<arrow::DataType> read_back;  // ArrowTypeOf(DataTypeOf(type))
  };
  const Case cases[] = {
      {arrow::list(arrow::utf8()), "ARRAY<STRING>", arrow::list(arrow::field("item", arrow::utf8()))},
      {arrow::list(arrow::field("element", arrow::int32(), false)), "ARRAY<INT NOT NULL>",
       arrow::list(arrow::field("item", arrow::int32(), false))},
      {arrow::map(arrow::utf8(), arrow::int32()), "MAP<STRING NOT NULL, INT>", arrow::map(arrow::utf8(), arrow::int32())},
      {address, "ROW<city STRING, zip INT NOT NULL>", address},
      {arrow::list(arrow::map(arrow::int64(), address)), "ARRAY<MAP<BIGINT NOT NULL, ROW<city STRING, zip INT NOT NULL>>>",
       arrow::list(arrow::map(arrow::int64(), address))},
  };
  for (const auto& c : cases) {
    auto t = DataTypeOf(*arrow::field("c", c.type));
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(t->ToString(), c.fluss);
    EXPECT_TRUE(ArrowTypeOf(*t)->Equals(*c.read_back)) << ArrowTypeOf(*t)->ToString();
    // Nullability kept at every level: the read-back field compares equal with names.
    EXPECT_TRUE(ArrowFieldOf("c", *t)->Equals(*arrow::field("c", c.read_back))) << ArrowFieldOf("c", *t)->ToString();
  }
  // Arrow types with no Fluss equivalent, named by their path inside the column.
  struct Bad {
    std::shared_ptr<arrow::DataType> type;
    const char* message;
  };
  const Bad bad[] = {
      {arrow::large_list(arrow::int32()), "column 'c': Arrow type large_list<item: int32> has no Fluss equivalent"},
      {arrow::list(arrow::uint8()), "column 'c[]': Arrow type uint8 has no Fluss equivalent"},
      {arrow::struct_({arrow::field("zip", arrow::float16())}), "column 'c.zip': Arrow type halffloat has no Fluss equivalent"},
      {arrow::map(arrow::utf8(), arrow::uint32()), "column 'c.value': Arrow type uint32 has no Fluss equivalent"},
      {arrow::struct_({}), "column 'c': a struct needs at least one field"},
  };
  for (const auto& b : bad) {
    auto t = DataTypeOf(*arrow::field("c", b.type));
    ASSERT_FALSE(t.ok()) << b.type->ToString();
    EXPECT_EQ(t.status().message(), b.message);
  }
}

TEST(NestedCodec, RowBatchBuilderAndValueFromArrowRoundTrip) {
  // Values -> Arrow builders (the ARROW log path) -> Values (ValueFromArrow) -> the same Arrow.
  auto element = arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("b", arrow::list(arrow::utf8()))});
  auto schema = arrow::schema({arrow::field("m", arrow::map(arrow::utf8(), arrow::list(element))),
                               arrow::field("t", arrow::list(arrow::time64(arrow::TimeUnit::MICRO)))});
  const std::vector<Value> strings = {Value::Bytes("p"), Value::Null()};
  const std::vector<Value> e = {Value::Int(3), Arr(strings)};
  const std::vector<Value> list = {Rw(e), Value::Null()};
  const std::vector<Value> entries = {Value::Bytes("k"), Arr(list), Value::Bytes("empty"), Arr({})};
  const std::vector<Value> times = {Value::Int(1000)};
  const std::vector<Value> row = {Value::Map(entries.data(), 2), Arr(times)};
  write::RowBatchBuilder builder(schema);
  ASSERT_TRUE(builder.Append(row.data()).ok());
  const std::vector<Value> nulls = {Value::Null(), Value::Null()};
  ASSERT_TRUE(builder.Append(nulls.data()).ok());
  auto rb = builder.Finish();
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ASSERT_TRUE((*rb)->ValidateFull().ok());
  ExpectColumn(*rb, 0, R"([[["k", [{"a": 3, "b": ["p", null]}, null]], ["empty", []]], null])");
  ExpectColumn(*rb, 1, "[[1000], null]");

  ValueArena arena;
  std::vector<Value> back;
  write::RowBatchBuilder again(schema);
  for (int64_t r = 0; r < 2; ++r) {
    arena.Clear();
    ASSERT_TRUE(RowValuesFromArrow(**rb, r, &back, &arena).ok());
    ASSERT_TRUE(again.Append(back.data()).ok());
  }
  auto rb2 = again.Finish();
  ASSERT_TRUE(rb2.ok());
  EXPECT_TRUE((*rb2)->Equals(**rb)) << (*rb2)->ToString();
}

}  // namespace
}  // namespace fluss::row

namespace fluss::row {
namespace {

TEST(ArrowInput, NestedColumnsConformIgnoringChildNamesButNotNulls) {
  auto want = arrow::field("tags", arrow::list(arrow::field("item", arrow::int32(), false)));
  // pyarrow's spelling: a nullable child named "item"; or Java's "element".
  for (const char* child : {"item", "element"}) {
    auto type = arrow::list(arrow::field(child, arrow::int32()));
    auto got = arrow::json::ArrayFromJSONString(type, "[[1, 2], null, []]").ValueOrDie();
    auto out = ConformArrowColumn(*want, got);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_TRUE((*out)->type()->Equals(*want->type()));
    EXPECT_TRUE((*out)->ValidateFull().ok());
  }
  auto with_null = arrow::json::ArrayFromJSONString(arrow::list(arrow::int32()), "[[1, null], [null]]").ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*want, with_null).status().message(), "column 'tags[]' is NOT NULL but has 2 nulls");
  // A null hidden by slicing is not written, so it does not count.
  EXPECT_TRUE(ConformArrowColumn(*want, with_null->Slice(2)).ok());
  auto wider = arrow::json::ArrayFromJSONString(arrow::list(arrow::int64()), "[[1]]").ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*want, wider).status().message(),
            "column 'tags' has type list<item: int64> but the table's type is list<item: int32 not null>");

  auto address = arrow::field(
      "address", arrow::struct_({arrow::field("city", arrow::utf8()), arrow::field("zip", arrow::int32(), false)}));
  auto rows = arrow::json::ArrayFromJSONString(
                  arrow::struct_({arrow::field("city", arrow::utf8()), arrow::field("zip", arrow::int32())}),
                  R"([{"city": "a", "zip": 1}, null, {"city": "b", "zip": null}])")
                  .ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*address, rows).status().message(), "column 'address.zip' is NOT NULL but has 1 null");
  EXPECT_TRUE(ConformArrowColumn(*address, rows->Slice(0, 2)).ok());  // the null struct's zip does not count
  auto renamed = arrow::json::ArrayFromJSONString(
                     arrow::struct_({arrow::field("town", arrow::utf8()), arrow::field("zip", arrow::int32())}), "[]")
                     .ValueOrDie();
  EXPECT_FALSE(ConformArrowColumn(*address, renamed).ok());

  auto attrs = arrow::field("attrs", arrow::map(arrow::utf8(), arrow::field("value", arrow::int32(), false)));
  auto map = arrow::json::ArrayFromJSONString(arrow::map(arrow::utf8(), arrow::int32()), R"([[["a", 1], ["b", null]]])")
                 .ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*attrs, map).status().message(), "column 'attrs.value' is NOT NULL but has 1 null");
}

}  // namespace
}  // namespace fluss::row

namespace fluss::row {
namespace {

TEST(DataTypeMap, PrecisionMetadataGivesEveryPrecisionTheServerAllows) {
  auto with_precision = [](std::shared_ptr<arrow::DataType> type, const char* p) {
    return arrow::field("t", std::move(type), true, arrow::key_value_metadata({kPrecisionMetadataKey}, {p}));
  };
  struct Case {
    std::shared_ptr<arrow::Field> field;
    const char* fluss;
  };
  const Case cases[] = {
      {with_precision(arrow::timestamp(arrow::TimeUnit::MILLI), "2"), "TIMESTAMP(2)"},
      {with_precision(arrow::timestamp(arrow::TimeUnit::MILLI), "1"), "TIMESTAMP(1)"},
      {with_precision(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), "4"), "TIMESTAMP_LTZ(4)"},
      {with_precision(arrow::timestamp(arrow::TimeUnit::NANO), "8"), "TIMESTAMP(8)"},
      {with_precision(arrow::time64(arrow::TimeUnit::MICRO), "5"), "TIME(5)"},
      {with_precision(arrow::time32(arrow::TimeUnit::MILLI), "3"), "TIME(3)"},
  };
  for (const auto& c : cases) {
    auto t = DataTypeOf(*c.field);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(t->ToString(), c.fluss);
    auto back = ArrowFieldOf("t", *t);
    EXPECT_TRUE(back->type()->Equals(*c.field->type())) << back->ToString();
    auto again = DataTypeOf(*back);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->ToString(), c.fluss);  // the metadata survives the round trip (when not the unit's own)
  }
  for (const char* bad : {"3", "10", "-1", "x"}) {
    auto t = DataTypeOf(*with_precision(arrow::timestamp(arrow::TimeUnit::MICRO), bad));
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_FALSE(DataTypeOf(*arrow::field("b", arrow::fixed_size_binary(0))).ok());
}

}  // namespace
}  // namespace fluss::row

namespace fluss::row {
namespace {

TEST(NestedCodec, MapKeysMustBeDistinct) {
  auto schema = arrow::schema({arrow::field("m", arrow::map(arrow::utf8(), arrow::int32())),
                               arrow::field("n", arrow::map(arrow::int64(), arrow::int32()))});
  write::RowValidator validator(schema);
  const std::vector<Value> dup = {Value::Bytes("a"), Value::Int(1), Value::Bytes("b"), Value::Int(2),
                                  Value::Bytes("a"), Value::Int(3)};
  const std::vector<Value> row = {Value::Map(dup.data(), 3), Value::Null()};
  EXPECT_EQ(validator.Check(row.data(), row.size()).message(),
            "column 'm' (MAP<STRING NOT NULL, INT>): entries 0 and 2 have the same key");
  const std::vector<Value> ints = {Value::Int(-1), Value::Int(1), Value::Int(1), Value::Int(2), Value::Int(-1), Value::Null()};
  const std::vector<Value> row2 = {Value::Null(), Value::Map(ints.data(), 3)};
  EXPECT_EQ(validator.Check(row2.data(), row2.size()).message(),
            "column 'n' (MAP<BIGINT NOT NULL, INT>): entries 0 and 2 have the same key");
  const std::vector<Value> distinct = {Value::Int(-1), Value::Int(1), Value::Int(1), Value::Int(2)};
  const std::vector<Value> row3 = {Value::Null(), Value::Map(distinct.data(), 2)};
  EXPECT_TRUE(validator.Check(row3.data(), row3.size()).ok());

  auto field = arrow::field("m", arrow::map(arrow::utf8(), arrow::int32()));
  auto ok = arrow::json::ArrayFromJSONString(field->type(), R"([[["a", 1], ["b", 2]], null, [["a", 1]]])").ValueOrDie();
  EXPECT_TRUE(ConformArrowColumn(*field, ok).ok());
  auto repeated = arrow::json::ArrayFromJSONString(field->type(), R"([[["a", 1]], [["b", 2], ["b", 3]]])").ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*field, repeated).status().message(), "column 'm': the map at position 1 has a repeated key");
  auto ints_field = arrow::field("n", arrow::map(arrow::int64(), arrow::int32()));
  auto int_keys = arrow::json::ArrayFromJSONString(ints_field->type(), R"([[[5, 1], [6, 2], [5, 3]]])").ValueOrDie();
  EXPECT_FALSE(ConformArrowColumn(*ints_field, int_keys).ok());
  EXPECT_TRUE(ConformArrowColumn(*ints_field, int_keys->Slice(1)).ok());
}

}  // namespace
}  // namespace fluss::row

namespace fluss::row {
namespace {

TEST(ArrowInput, CharLengthAndTimeFractionsAreCheckedAtEveryLevel) {
  auto char3 = [](const std::string& name) {
    return arrow::field(name, arrow::utf8(), true, arrow::key_value_metadata({kCharLengthMetadataKey}, {"3"}));
  };
  auto top = char3("c");
  auto ok = arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["abc", null, ""])").ValueOrDie();
  EXPECT_TRUE(ConformArrowColumn(*top, ok).ok());
  auto long_value = arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["abc", "abcd"])").ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*top, long_value).status().message(),
            "column 'c': (CHAR(3)) value has 4 bytes, more than 3 (row 1)");
  auto tags = arrow::field("tags", arrow::list(char3("item")));
  auto nested = arrow::json::ArrayFromJSONString(arrow::list(arrow::utf8()), R"([["ab"], ["toolong"]])").ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*tags, nested).status().message(),
            "column 'tags[]': (CHAR(3)) value has 7 bytes, more than 3 (row 1)");
  // A value under a null struct is not written, so it is not checked.
  auto addr = arrow::field("addr", arrow::struct_({char3("city")}));
  auto hidden = arrow::StructArray::Make({arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["Paris"])").ValueOrDie()},
                                         std::vector<std::string>{"city"},
                                         arrow::AllocateBitmap(1).ValueOrDie(), 1)
                    .ValueOrDie();
  std::memset(hidden->data()->buffers[0]->mutable_data(), 0, 1);
  EXPECT_TRUE(ConformArrowColumn(*addr, hidden).ok()) << ConformArrowColumn(*addr, hidden).status().ToString();

  auto t6 = arrow::field("t", arrow::time64(arrow::TimeUnit::MICRO));
  auto ms = arrow::json::ArrayFromJSONString(t6->type(), "[3723456000, null]").ValueOrDie();
  EXPECT_TRUE(ConformArrowColumn(*t6, ms).ok());
  auto us = arrow::json::ArrayFromJSONString(t6->type(), "[3723456789]").ValueOrDie();
  EXPECT_NE(ConformArrowColumn(*t6, us).status().message().find("fraction of a millisecond"), std::string::npos);
  auto ts4 = arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO), true,
                          arrow::key_value_metadata({kPrecisionMetadataKey}, {"4"}));
  auto fine = arrow::json::ArrayFromJSONString(ts4->type(), "[1000100]").ValueOrDie();
  EXPECT_TRUE(ConformArrowColumn(*ts4, fine).ok());
  auto too_fine = arrow::json::ArrayFromJSONString(ts4->type(), "[1000101]").ValueOrDie();
  EXPECT_EQ(ConformArrowColumn(*ts4, too_fine).status().message(),
            "column 'ts': (TIMESTAMP(4)) value 1000101 has more than 4 fractional digits of the second");

  // The same rules for Values.
  auto schema = arrow::schema({t6, ts4});
  write::RowValidator validator(schema);
  const std::vector<Value> row = {Value::Int(3723456789), Value::Null()};
  EXPECT_NE(validator.Check(row.data(), 2).message().find("column 't' (TIME(6)): value 3723456789 has a fraction"),
            std::string::npos);
  const std::vector<Value> row2 = {Value::Null(), Value::Int(1000101)};
  EXPECT_EQ(validator.Check(row2.data(), 2).message(),
            "column 'ts' (TIMESTAMP(4)): value 1000101 has more than 4 fractional digits of the second");
}

// (found by the Python property tests) Arrow input outside the Fluss type is refused in every log
// format: a TIME outside the day, a TIMESTAMP beyond the millisecond range, a CHAR value ending in
// U+0000 (Fluss strips it when reading), also inside nested values; the row path refuses the
// same CHAR values.
TEST(ArrowInput, ValuesOutsideTheFlussTypeAreRefused) {
  auto json = [](const std::shared_ptr<arrow::DataType>& t, const char* text) {
    return arrow::json::ArrayFromJSONString(t, text).ValueOrDie();
  };
  auto t = arrow::field("t", arrow::time32(arrow::TimeUnit::SECOND));
  EXPECT_TRUE(ConformArrowColumn(*t, json(t->type(), "[0, 86399, null]")).ok());
  EXPECT_EQ(ConformArrowColumn(*t, json(t->type(), "[0, 86400]")).status().message(),
            "column 't': (TIME(0)) value 86400 is out of range [0, 86399] (row 1)");
  EXPECT_EQ(ConformArrowColumn(*t, json(t->type(), "[-1]")).status().message(),
            "column 't': (TIME(0)) value -1 is out of range [0, 86399] (row 0)");
  auto ts = arrow::field("ts", arrow::timestamp(arrow::TimeUnit::SECOND));
  EXPECT_TRUE(ConformArrowColumn(*ts, json(ts->type(), "[-1099511627776, 253402300799]")).ok());
  EXPECT_EQ(ConformArrowColumn(*ts, json(ts->type(), "[4611686018427387904]")).status().message(),
            "column 'ts': (TIMESTAMP(0)) value 4611686018427387904 is out of the millisecond range (row 0)");
  auto char3 = arrow::key_value_metadata({"fluss.char_length"}, {"3"});
  auto ch = arrow::field("ch", arrow::utf8(), true, char3);
  EXPECT_TRUE(ConformArrowColumn(*ch, json(arrow::utf8(), R"(["a\u0000b", ""])")).ok());
  EXPECT_EQ(ConformArrowColumn(*ch, json(arrow::utf8(), R"(["ab", "a\u0000"])")).status().message(),
            "column 'ch': (CHAR(3)) " + std::string(kCharEndsInNul) + " (row 1)");
  auto tags = arrow::field("tags", arrow::list(arrow::field("item", arrow::utf8(), true, char3)));
  EXPECT_EQ(ConformArrowColumn(*tags, json(arrow::list(arrow::utf8()), R"([["x", "\u0000"]])")).status().message(),
            "column 'tags[]': (CHAR(3)) " + std::string(kCharEndsInNul) + " (row 1)");

  write::RowValidator validator(arrow::schema({ch, tags}));
  const std::string nul("\0", 1), b_nul("b\0", 2);  // (Values are views: these outlive them)
  const std::vector<Value> inner = {Value::Bytes("ok"), Value::Bytes(b_nul)};
  const std::vector<Value> top = {Value::Bytes(nul), Value::Null()};
  const std::vector<Value> nested = {Value::Bytes("a"), Arr(inner)};
  EXPECT_EQ(validator.Check(top.data(), top.size()).message(), "column 'ch' (CHAR(3)): " + std::string(kCharEndsInNul));
  EXPECT_EQ(validator.Check(nested.data(), nested.size()).message(),
            "column 'tags[1]' (CHAR(3)): " + std::string(kCharEndsInNul));
}

}  // namespace
}  // namespace fluss::row
