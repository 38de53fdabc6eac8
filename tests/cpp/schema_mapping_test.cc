// Rows of one schema read under another (row/schema_mapping.h, row/value_rows.h): columns matched
// by column id, a column the rows lack is null, a column the reader lacks is dropped; schema
// JSON with column ids (metadata/table_json.h).
#include <gtest/gtest.h>

#include <arrow/array.h>
#include <arrow/json/from_string.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include <string>
#include <string_view>
#include <vector>

#include "fluss/metadata/table_json.h"
#include "fluss/row/kv_value.h"
#include "fluss/row/schema_mapping.h"
#include "fluss/row/value_rows.h"

namespace fluss {
namespace {

std::shared_ptr<arrow::Array> A(const std::shared_ptr<arrow::DataType>& type, const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

Schema Make(std::vector<std::shared_ptr<arrow::Field>> fields, std::vector<int32_t> ids) {
  Schema s;
  s.arrow_schema = arrow::schema(std::move(fields));
  s.primary_keys = {"id"};
  s.column_ids = std::move(ids);
  return s;
}

// Schema 1: (id INT NOT NULL, name STRING); schema 2 adds score BIGINT with column id 5 (a
// nested type may have taken the ids between).
Schema V1() { return Make({arrow::field("id", arrow::int32(), false), arrow::field("name", arrow::utf8())}, {0, 1}); }
Schema V2() {
  return Make({arrow::field("id", arrow::int32(), false), arrow::field("name", arrow::utf8()),
               arrow::field("score", arrow::int64())},
              {0, 1, 5});
}

std::string Value1(int16_t schema_id, const Schema& s, std::vector<Value> row, row::KvFormat format) {
  auto codec = row::KvRowCodec::Make(*s.arrow_schema, format).ValueOrDie();
  std::string out;
  EXPECT_TRUE(row::EncodeValue(schema_id, codec, row.data(), &out).ok());
  return out;
}

TEST(SchemaMapping, MapsByColumnIdAndFindsAddedColumns) {
  EXPECT_EQ(*row::MapColumnsById(V1(), V2()), (std::vector<int32_t>{0, 1, -1}));
  EXPECT_EQ(*row::MapColumnsById(V2(), V1()), (std::vector<int32_t>{0, 1}));
  // Ids, not positions: a reader whose second column has id 5 takes it from the third.
  Schema odd = Make({arrow::field("id", arrow::int32(), false), arrow::field("score", arrow::int64())}, {0, 5});
  EXPECT_EQ(*row::MapColumnsById(V2(), odd), (std::vector<int32_t>{0, 2}));
  // Without ids (a schema built locally): positions.
  Schema local = V2();
  local.column_ids.clear();
  EXPECT_EQ(*row::MapColumnsById(V1(), local), (std::vector<int32_t>{0, 1, -1}));
  Schema retyped = Make({arrow::field("id", arrow::int64(), false), arrow::field("name", arrow::utf8())}, {0, 1});
  auto st = row::MapColumnsById(V1(), retyped);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(st.status().message().find("'id'"), std::string::npos);
}

TEST(SchemaMapping, AdaptBatchAddsNullColumnsAndDropsOthers) {
  auto ids = A(arrow::int32(), "[1, 2]");
  auto names = A(arrow::utf8(), R"(["a", null])");
  auto v1 = arrow::RecordBatch::Make(V1().arrow_schema, 2, {ids, names});
  auto as2 = row::AdaptBatch(v1, *row::MapColumnsById(V1(), V2()), V2().arrow_schema);
  ASSERT_TRUE(as2.ok());
  ASSERT_TRUE((*as2)->ValidateFull().ok());
  EXPECT_TRUE((*as2)->schema()->Equals(*V2().arrow_schema));
  EXPECT_EQ((*as2)->column(0).get(), ids.get());  // shared, not copied
  EXPECT_TRUE((*as2)->column(2)->Equals(*A(arrow::int64(), "[null, null]")));
  auto back = row::AdaptBatch(*as2, *row::MapColumnsById(V2(), V1()), V1().arrow_schema);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE((*back)->Equals(*v1));
}

class ValueRowsOfSchemas : public ::testing::TestWithParam<row::KvFormat> {};

TEST_P(ValueRowsOfSchemas, EachValueDecodedWithItsOwnSchema) {
  const row::KvFormat format = GetParam();
  const std::string a = Value1(1, V1(), {Value::Int(1), Value::Bytes("a")}, format);
  const std::string b = Value1(2, V2(), {Value::Int(2), Value::Bytes("b"), Value::Int(20)}, format);
  const std::string c = Value1(1, V1(), {Value::Int(3), Value::Null()}, format);
  const std::vector<std::string_view> values{a, b, c};

  // A reader of schema 2 that has not seen schema 1 yet says what it needs.
  auto reader2 = row::ValueRowDecoder::Make(V2(), 2, format).ValueOrDie();
  EXPECT_EQ(reader2.MissingSchemas(values), std::vector<int16_t>{1});
  auto missing = reader2.Decode(values, "table db.t");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kProtocol);
  ASSERT_TRUE(reader2.AddSchema(1, V1()).ok());
  EXPECT_TRUE(reader2.MissingSchemas(values).empty());
  auto rb2 = reader2.Decode(values, "table db.t");
  ASSERT_TRUE(rb2.ok()) << rb2.status().ToString();
  ASSERT_TRUE((*rb2)->ValidateFull().ok());
  EXPECT_TRUE((*rb2)->column(0)->Equals(*A(arrow::int32(), "[1, 2, 3]")));
  EXPECT_TRUE((*rb2)->column(1)->Equals(*A(arrow::utf8(), R"(["a", "b", null])")));
  EXPECT_TRUE((*rb2)->column(2)->Equals(*A(arrow::int64(), "[null, 20, null]")));

  // A reader of schema 1 (a handle taken before the change) drops the new column.
  auto reader1 = row::ValueRowDecoder::Make(V1(), 1, format).ValueOrDie();
  ASSERT_TRUE(reader1.AddSchema(2, V2()).ok());
  auto rb1 = reader1.Decode(values, "table db.t");
  ASSERT_TRUE(rb1.ok()) << rb1.status().ToString();
  ASSERT_TRUE((*rb1)->ValidateFull().ok());
  EXPECT_EQ((*rb1)->num_columns(), 2);
  EXPECT_TRUE((*rb1)->column(1)->Equals(*A(arrow::utf8(), R"(["a", "b", null])")));
}

INSTANTIATE_TEST_SUITE_P(KvFormats, ValueRowsOfSchemas,
                         ::testing::Values(row::KvFormat::kCompacted, row::KvFormat::kIndexed));

TEST(SchemaJson, ColumnIdsAndPrimaryKey) {
  auto s = metadata::SchemaFromJson(
      R"({"version":1,"columns":[{"name":"id","data_type":{"type":"INTEGER","nullable":false},"id":0},)"
      R"({"name":"name","data_type":{"type":"STRING"},"id":1},{"name":"score","data_type":{"type":"BIGINT"},"id":5}],)"
      R"("primary_key":["id"],"highest_field_id":5})");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->arrow_schema->Equals(*V2().arrow_schema));
  EXPECT_EQ(s->column_ids, (std::vector<int32_t>{0, 1, 5}));
  EXPECT_EQ(s->primary_keys, std::vector<std::string>{"id"});
  // 0.8 JSON has no ids: positions.
  auto old = metadata::SchemaFromJson(R"({"columns":[{"name":"a","data_type":{"type":"INTEGER"}},{"name":"b","data_type":{"type":"STRING"}}]})");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->column_ids, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(metadata::SchemaFromJson("{").status().code(), StatusCode::kProtocol);
  EXPECT_EQ(metadata::SchemaFromJson(R"({"columns":3})").status().code(), StatusCode::kProtocol);
}

}  // namespace
}  // namespace fluss
