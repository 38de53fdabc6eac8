// Integration tests against a real cluster (FLUSS_BOOTSTRAP_SERVERS): nested types through the
// C++ API. Rows of nested fluss::Values and Arrow batches with nested columns are written to log
// tables (ARROW and INDEXED) and primary-key tables (COMPACTED and INDEXED), then read back by
// the log scanner, a limit scan and lookups; every value and Arrow type is compared exactly.
#include <gtest/gtest.h>

#include <arrow/api.h>
#include <arrow/json/from_string.h>

#include <map>

#include "fluss/client.h"
#include "it_support.h"

namespace fluss {
namespace {

std::shared_ptr<arrow::Schema> NestedSchema(bool pk) {
  auto address = arrow::struct_({arrow::field("city", arrow::utf8()), arrow::field("zip", arrow::int32(), false)});
  return arrow::schema({
      arrow::field("id", arrow::int32(), !pk),
      arrow::field("tags", arrow::list(arrow::field("item", arrow::utf8()))),
      arrow::field("attrs", arrow::map(arrow::utf8(), arrow::int64())),
      arrow::field("address", address),
      arrow::field("matrix", arrow::list(arrow::list(arrow::int16()))),
  });
}

// Row i as Arrow JSON (a positional list); ValueRow builds the same row as Values.
std::string RowJson(int i) {
  if (i % 3 == 2) return "[" + std::to_string(i) + ", null, null, null, null]";
  return "[" + std::to_string(i) + R"(, ["a", null, "a tag longer than seven bytes"], [["k", )" + std::to_string(i) +
         R"(], ["n", null]], {"city": "c)" + std::to_string(i) + R"(", "zip": )" + std::to_string(1000 + i) +
         R"(}, [[1, null], [], null, [-32768]]])";
}

struct ValueRow {
  std::vector<Value> top, tags, attrs, address, matrix, m0, m1, m3;
  std::string city;
  void Build(int i) {
    city = "c" + std::to_string(i);
    tags = {Value::Bytes("a"), Value::Null(), Value::Bytes("a tag longer than seven bytes")};
    attrs = {Value::Bytes("k"), Value::Int(i), Value::Bytes("n"), Value::Null()};
    address = {Value::Bytes(city), Value::Int(1000 + i)};
    m0 = {Value::Int(1), Value::Null()};
    m1 = {};
    m3 = {Value::Int(-32768)};
    matrix = {Value::Array(m0.data(), m0.size()), Value::Array(m1.data(), 0), Value::Null(),
              Value::Array(m3.data(), m3.size())};
    if (i % 3 == 2) {
      top = {Value::Int(i), Value::Null(), Value::Null(), Value::Null(), Value::Null()};
    } else {
      top = {Value::Int(i), Value::Array(tags.data(), tags.size()), Value::Map(attrs.data(), 2),
             Value::Row(address.data(), address.size()), Value::Array(matrix.data(), matrix.size())};
    }
  }
};

/// The expected rows [first, last) as one record batch of `schema`.
std::shared_ptr<arrow::RecordBatch> Expected(const std::shared_ptr<arrow::Schema>& schema, int first, int last) {
  // A struct array of the row type (Arrow's JSON reads the positional rows), split in columns.
  arrow::FieldVector fields = schema->fields();
  std::string json = "[";
  for (int i = first; i < last; ++i) json += (i > first ? "," : "") + RowJson(i);
  json += "]";
  auto rows = arrow::json::ArrayFromJSONString(arrow::struct_(fields), json);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  auto batch = arrow::RecordBatch::FromStructArray(*rows);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return arrow::RecordBatch::Make(schema, (*batch)->num_rows(), (*batch)->columns());
}

class NestedTypesIT : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(it::Connect(&conn_, &admin_)); }
  void TearDown() override {
    for (const auto& p : created_) EXPECT_TRUE(AwaitStatus([&](auto cb) { admin_->DropTableAsync(p, true, cb); }).ok());
    if (conn_) EXPECT_TRUE(conn_->Close().ok());
  }

  std::shared_ptr<Table> Create(const std::string& suffix, bool pk, std::map<std::string, std::string> props) {
    TablePath path = it::TestTablePath("nested_it_");
    path.table_name += suffix;
    TableDescriptor d;
    d.schema.arrow_schema = NestedSchema(pk);
    if (pk) d.schema.primary_keys = {"id"};
    d.bucket_count = 1;
    d.properties = std::move(props);
    return it::CreateTable(*admin_, *conn_, path, d, &created_);
  }

  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Admin> admin_;
  std::vector<TablePath> created_;
};

TEST_F(NestedTypesIT, LogTablesRoundTripValuesAndArrow) {
  for (const char* format : {"ARROW", "INDEXED"}) {
    SCOPED_TRACE(format);
    auto table = Create(std::string("_") + format, false, {{"table.log.format", format}});
    ASSERT_TRUE(table);
    EXPECT_TRUE(table->info().descriptor.schema.arrow_schema->Equals(*NestedSchema(false)))
        << table->info().descriptor.schema.arrow_schema->ToString();
    auto writer = table->NewAppendWriter();
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (int i = 0; i < 3; ++i) {
      ValueRow row;
      row.Build(i);
      auto r = (*writer)->Append(row.top.data(), row.top.size());
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
    auto arrow_rows = (*writer)->WriteArrowBatch(Expected(NestedSchema(false), 3, 6));
    ASSERT_TRUE(arrow_rows.ok()) << arrow_rows.status().ToString();
    ASSERT_TRUE(AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); }).ok());

    auto scanner = table->NewLogScanner();
    ASSERT_TRUE(scanner.ok());
    ASSERT_TRUE((*scanner)->Subscribe(0, kEarliestOffset).ok());
    auto got = Await<std::shared_ptr<arrow::Table>>([&](auto cb) { (*scanner)->ToArrowAsync(cb); });
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    auto expected = arrow::Table::FromRecordBatches({Expected(NestedSchema(false), 0, 6)}).ValueOrDie();
    EXPECT_TRUE((*got)->schema()->Equals(*expected->schema())) << (*got)->schema()->ToString();
    EXPECT_TRUE((*got)->Equals(*expected)) << (*got)->ToString();

    auto limited = Await<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { table->LimitScanAsync(0, 2, cb); });
    ASSERT_TRUE(limited.ok()) << limited.status().ToString();
    // (the last records of the log, as Java's LimitBatchScanner)
    EXPECT_TRUE((*limited)->Equals(*Expected(NestedSchema(false), 4, 6))) << (*limited)->ToString();
  }
}

TEST_F(NestedTypesIT, PrimaryKeyTablesLookUpNestedRows) {
  for (const char* format : {"COMPACTED", "INDEXED"}) {
    SCOPED_TRACE(format);
    auto table = Create(std::string("_pk_") + format, true, {{"table.kv.format", format}});
    ASSERT_TRUE(table);
    auto writer = table->NewUpsertWriter();
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (int i = 0; i < 3; ++i) {
      ValueRow row;
      row.Build(i);
      auto r = (*writer)->Upsert(row.top.data(), row.top.size());
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
    // A nested value that does not fit is refused naming its path; the queued rows stay.
    ValueRow bad;
    bad.Build(7);
    bad.address[1] = Value::Null();
    auto refused = (*writer)->Upsert(bad.top.data(), bad.top.size());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().message(), "column 'address.zip' (INT NOT NULL): the value is null");
    ASSERT_TRUE(AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); }).ok());

    auto lookuper = table->NewLookuper();
    ASSERT_TRUE(lookuper.ok());
    for (int i = 0; i < 4; ++i) {
      std::vector<Value> key(5, Value::Null());
      key[0] = Value::Int(i);
      auto r = Await<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { (*lookuper)->LookupAsync(key.data(), key.size(), cb); });
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      if (i == 3) {
        EXPECT_EQ(*r, nullptr);
        continue;
      }
      ASSERT_NE(*r, nullptr);
      EXPECT_TRUE((*r)->Equals(*Expected(NestedSchema(true), i, i + 1))) << (*r)->ToString();
    }
  }
}

}  // namespace
}  // namespace fluss
