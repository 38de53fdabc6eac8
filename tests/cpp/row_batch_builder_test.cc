// write/RowBatchBuilder: Values -> an Arrow batch of the table's schema, the append function of
// each column chosen once from its Fluss type (row/data_type.h), and Validate's checks with the
// messages naming the column.
#include <gtest/gtest.h>

#include <arrow/type.h>

#include "arrow_rows.h"
#include "fluss/write/row_batch_builder.h"
#include "fluss/write/row_validator.h"

namespace fluss::write {
namespace {

using fluss::testing::CharField;
using fluss::testing::Dec;
using fluss::testing::ExpectColumn;

std::shared_ptr<arrow::Schema> EveryType() {
  return arrow::schema({
      arrow::field("b", arrow::boolean()),
      arrow::field("i8", arrow::int8()),
      arrow::field("i16", arrow::int16()),
      arrow::field("i32", arrow::int32()),
      arrow::field("i64", arrow::int64()),
      arrow::field("f32", arrow::float32()),
      arrow::field("f64", arrow::float64()),
      arrow::field("s", arrow::utf8()),
      CharField("c", 3),
      arrow::field("ls", arrow::large_utf8()),
      arrow::field("bin", arrow::binary()),
      arrow::field("lbin", arrow::large_binary()),
      arrow::field("fix", arrow::fixed_size_binary(2)),
      arrow::field("dec", arrow::decimal128(5, 2)),
      arrow::field("day", arrow::date32()),
      arrow::field("t_s", arrow::time32(arrow::TimeUnit::SECOND)),
      arrow::field("t_us", arrow::time64(arrow::TimeUnit::MICRO)),
      arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MILLI)),
      arrow::field("ltz", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
  });
}

TEST(RowBatchBuilder, AppendsEveryMappedType) {
  auto schema = EveryType();
  const std::vector<Value> row = {
      Value::Bool(true), Value::Int(-8),     Value::Int(300),        Value::Int(-70000),  Value::Int(1LL << 40),
      Value::Int(2),     Value::Double(2.5), Value::Bytes("hé"),     Value::Bytes("abc"), Value::Bytes("large"),
      Value::Bytes("\x01"), Value::Bytes("xy"), Value::Bytes("zz"), Dec("-12345"),       Value::Int(19000),
      Value::Int(86399), Value::Int(1000),   Value::Int(1700000000123LL), Value::Int(-1)};
  ASSERT_TRUE(RowValidator(schema).Check(row.data(), row.size()).ok());
  RowBatchBuilder b(schema);
  ASSERT_TRUE(b.Append(row.data()).ok());
  std::vector<Value> nulls(row.size(), Value::Null());
  ASSERT_TRUE(RowValidator(schema).Check(nulls.data(), nulls.size()).ok());
  ASSERT_TRUE(b.Append(nulls.data()).ok());
  EXPECT_EQ(b.num_rows(), 2);
  auto rb = b.Finish();
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ASSERT_TRUE((*rb)->schema()->Equals(*schema));
  ExpectColumn(*rb, 0, "[true, null]");
  ExpectColumn(*rb, 1, "[-8, null]");
  ExpectColumn(*rb, 2, "[300, null]");
  ExpectColumn(*rb, 3, "[-70000, null]");
  ExpectColumn(*rb, 4, "[1099511627776, null]");
  ExpectColumn(*rb, 5, "[2.0, null]");  // an int goes into a float column
  ExpectColumn(*rb, 6, "[2.5, null]");
  ExpectColumn(*rb, 7, R"(["hé", null])");
  ExpectColumn(*rb, 8, R"(["abc", null])");
  ExpectColumn(*rb, 9, R"(["large", null])");
  ExpectColumn(*rb, 10, R"(["\u0001", null])");
  ExpectColumn(*rb, 11, R"(["xy", null])");
  ExpectColumn(*rb, 12, R"(["zz", null])");
  ExpectColumn(*rb, 13, R"(["-123.45", null])");
  ExpectColumn(*rb, 14, "[19000, null]");
  ExpectColumn(*rb, 15, "[86399, null]");
  ExpectColumn(*rb, 16, "[1000, null]");
  ExpectColumn(*rb, 17, "[1700000000123, null]");
  ExpectColumn(*rb, 18, "[-1, null]");
  EXPECT_EQ(b.num_rows(), 0);  // reusable
}

TEST(RowBatchBuilder, ValidateNamesTheColumnAndAppendsNothing) {
  auto schema = arrow::schema({arrow::field("id", arrow::int8(), false), arrow::field("tod", arrow::time32(arrow::TimeUnit::MILLI)),
                               arrow::field("fix", arrow::fixed_size_binary(2)), arrow::field("amount", arrow::decimal128(3, 1)),
                               arrow::field("name", arrow::utf8())});
  struct Case {
    std::vector<Value> row;
    const char* message;
  };
  const Case cases[] = {
      {{Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null()},
       "column 'id' is NOT NULL but the value is null"},
      {{Value::Int(128), Value::Null(), Value::Null(), Value::Null(), Value::Null()},
       "column 'id' (TINYINT NOT NULL): value 128 is out of range [-128, 127]"},
      {{Value::Int(1), Value::Int(86400000), Value::Null(), Value::Null(), Value::Null()},
       "column 'tod' (TIME(3)): value 86400000 is out of range [0, 86399999]"},
      {{Value::Int(1), Value::Null(), Value::Bytes("abc"), Value::Null(), Value::Null()},
       "column 'fix' (BINARY(2)): value has 3 bytes, expected 2"},
      {{Value::Int(1), Value::Null(), Value::Null(), Dec("1000"), Value::Null()},
       "column 'amount' (DECIMAL(3,1)): value 100.0 has more than 3 digits"},
      {{Value::Int(1), Value::Null(), Value::Null(), Value::Null(), Value::Int(5)},
       "column 'name' (STRING): a value of kind int does not fit"},
      {{Value::Int(1)}, "row has 1 value but the table has 5 columns"},
  };
  for (const auto& c : cases) {
    Status st = RowValidator(schema).Check(c.row.data(), c.row.size());
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.message;
    EXPECT_EQ(st.message(), c.message);
  }
  // A type without a Fluss equivalent is rejected, naming the column.
  auto odd = arrow::schema({arrow::field("u", arrow::uint32())});
  const Value v = Value::Int(1);
  Status st = RowValidator(odd).Check(&v, 1);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'u'"), std::string::npos) << st.message();
}

// Rows past the builders' first reservation (RowBatchBuilder grows them by doubling and then
// appends without checks): every value, null or not, lands in its row.
TEST(RowBatchBuilder, ManyRowsAcrossReservations) {
  auto schema = arrow::schema({arrow::field("b", arrow::boolean()), arrow::field("i", arrow::int32()),
                               arrow::field("d", arrow::float64()), arrow::field("s", arrow::utf8()),
                               arrow::field("bin", arrow::large_binary())});
  RowBatchBuilder b(schema);
  const int kRows = 5000;  // several doublings from the first 1024 rows
  std::vector<std::string> text(kRows);
  for (int r = 0; r < kRows; ++r) {
    text[r] = std::string(static_cast<size_t>(r % 40), static_cast<char>('a' + r % 26));
    std::vector<Value> row = {Value::Bool(r % 2 == 0), Value::Int(r), Value::Double(r * 0.5), Value::Utf8(text[r]),
                              Value::Bytes(text[r])};
    if (r % 7 == 3) row[r % 5] = Value::Null();
    ASSERT_TRUE(RowValidator(schema).Check(row.data(), row.size()).ok()) << r;
    ASSERT_TRUE(b.Append(row.data()).ok()) << r;
  }
  auto rb = b.Finish();
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ASSERT_EQ((*rb)->num_rows(), kRows);
  ASSERT_TRUE((*rb)->ValidateFull().ok());
  const auto& bools = static_cast<const arrow::BooleanArray&>(*(*rb)->column(0));
  const auto& ints = static_cast<const arrow::Int32Array&>(*(*rb)->column(1));
  const auto& doubles = static_cast<const arrow::DoubleArray&>(*(*rb)->column(2));
  const auto& strings = static_cast<const arrow::StringArray&>(*(*rb)->column(3));
  const auto& bins = static_cast<const arrow::LargeBinaryArray&>(*(*rb)->column(4));
  for (int r = 0; r < kRows; ++r) {
    const int null_column = r % 7 == 3 ? r % 5 : -1;
    EXPECT_EQ(bools.IsNull(r), null_column == 0) << r;
    EXPECT_EQ(ints.IsNull(r), null_column == 1) << r;
    EXPECT_EQ(doubles.IsNull(r), null_column == 2) << r;
    EXPECT_EQ(strings.IsNull(r), null_column == 3) << r;
    EXPECT_EQ(bins.IsNull(r), null_column == 4) << r;
    if (null_column != 0) EXPECT_EQ(bools.Value(r), r % 2 == 0) << r;
    if (null_column != 1) EXPECT_EQ(ints.Value(r), r) << r;
    if (null_column != 2) EXPECT_EQ(doubles.Value(r), r * 0.5) << r;
    if (null_column != 3) EXPECT_EQ(strings.GetView(r), text[r]) << r;
    if (null_column != 4) EXPECT_EQ(bins.GetView(r), text[r]) << r;
  }
  // Reusable after Finish, starting from an empty reservation again.
  const std::vector<Value> one = {Value::Bool(true), Value::Int(7), Value::Double(1), Value::Utf8("x"), Value::Bytes("y")};
  ASSERT_TRUE(b.Append(one.data()).ok());
  auto again = b.Finish();
  ASSERT_TRUE(again.ok());
  ExpectColumn(*again, 1, "[7]");
  ExpectColumn(*again, 3, R"(["x"])");
}

// A STRING value is checked for UTF-8 unless the caller vouches for it (Value::Utf8, as the
// Python client does for a str); CHAR is checked either way, BYTES never.
TEST(RowValidator, Utf8CheckedUnlessVouchedFor) {
  auto schema = arrow::schema({arrow::field("s", arrow::utf8()), CharField("c", 4), arrow::field("bin", arrow::binary())});
  const std::string bad = "a\xff";
  std::vector<Value> row = {Value::Bytes(bad), Value::Bytes("ok"), Value::Bytes(bad)};
  Status st = RowValidator(schema).Check(row.data(), row.size());
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "column 's' (STRING): value is not valid UTF-8");
  row[0] = Value::Bytes("h\xc3\xa9");
  EXPECT_TRUE(RowValidator(schema).Check(row.data(), row.size()).ok());
  row[0] = Value::Utf8("h\xc3\xa9");
  EXPECT_TRUE(RowValidator(schema).Check(row.data(), row.size()).ok());
  row[1] = Value::Utf8(bad);  // vouching does not skip CHAR's checks
  st = RowValidator(schema).Check(row.data(), row.size());
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "column 'c' (CHAR(4)): value is not valid UTF-8");
  row[1] = Value::Utf8("abcde");
  st = RowValidator(schema).Check(row.data(), row.size());
  EXPECT_EQ(st.message(), "column 'c' (CHAR(4)): value has 5 bytes, more than 4");
  row[1] = Value::Null();
  row[0] = Value::Int(3);  // the kind is still checked
  st = RowValidator(schema).Check(row.data(), row.size());
  EXPECT_EQ(st.message(), "column 's' (STRING): a value of kind int does not fit");
}

}  // namespace
}  // namespace fluss::write
