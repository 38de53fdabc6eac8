// Partition-value strings of every partition-key type, on the worked values of
// protocol-data.md section 8 (Java PartitionUtils.convertValueOfType).
#include <gtest/gtest.h>

#include <arrow/api.h>

#include <cmath>
#include <limits>
#include <string>

#include "fluss/row/partition_name.h"

namespace fluss::row {
namespace {

std::string Of(const std::shared_ptr<arrow::DataType>& arrow_type, const Value& v) {
  auto type = DataTypeOf(*arrow::field("k", arrow_type));
  EXPECT_TRUE(type.ok());
  auto s = PartitionValueString(*type, v, "k");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : "<" + s.status().ToString() + ">";
}

TEST(PartitionName, ScalarTypes) {
  EXPECT_EQ(Of(arrow::utf8(), Value::Bytes("Fluss")), "Fluss");
  EXPECT_EQ(Of(arrow::boolean(), Value::Bool(true)), "true");
  EXPECT_EQ(Of(arrow::boolean(), Value::Bool(false)), "false");
  EXPECT_EQ(Of(arrow::int8(), Value::Int(-5)), "-5");
  EXPECT_EQ(Of(arrow::int64(), Value::Int(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(Of(arrow::binary(), Value::Bytes(std::string("\x0a\xff", 2))), "0aff");
  EXPECT_EQ(Of(arrow::fixed_size_binary(2), Value::Bytes(std::string("\x0a\xff", 2))), "0aff");
  EXPECT_EQ(Of(arrow::date32(), Value::Int(20235)), "2025-05-27");
  EXPECT_EQ(Of(arrow::date32(), Value::Int(0)), "1970-01-01");
  EXPECT_EQ(Of(arrow::date32(), Value::Int(-1)), "1969-12-31");
  EXPECT_EQ(Of(arrow::time32(arrow::TimeUnit::MILLI), Value::Int(5402199)), "01-30-02_199");
  EXPECT_EQ(Of(arrow::time64(arrow::TimeUnit::MICRO), Value::Int(int64_t{5402199} * 1000 + 7)), "01-30-02_199");
  EXPECT_EQ(Of(arrow::time32(arrow::TimeUnit::SECOND), Value::Int(0)), "00-00-00_000");
}

TEST(PartitionName, FloatingPointAsJavaToString) {
  EXPECT_EQ(Of(arrow::float64(), Value::Double(5.73)), "5_73");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(-1.5)), "-1_5");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(100.0)), "100_0");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(1e20)), "1_0E20");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(1e-4)), "1_0E-4");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(0.001)), "0_001");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(1234567.0)), "1234567_0");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(1e7)), "1_0E7");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(12345678.9)), "1_23456789E7");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(0.0)), "0_0");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(-0.0)), "-0_0");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(std::nan(""))), "NaN");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(std::numeric_limits<double>::infinity())), "Inf");
  EXPECT_EQ(Of(arrow::float64(), Value::Double(-std::numeric_limits<double>::infinity())), "-Inf");
  EXPECT_EQ(Of(arrow::float32(), Value::Double(0.1)), "0_1");  // the float 0.1f, not the double
  EXPECT_EQ(Of(arrow::float32(), Value::Double(5.73)), "5_73");
  EXPECT_EQ(Of(arrow::float64(), Value::Int(3)), "3_0");
}

TEST(PartitionName, Timestamps) {
  const auto ms = arrow::timestamp(arrow::TimeUnit::MILLI);
  EXPECT_EQ(Of(ms, Value::Int(1500)), "1970-01-01-00-00-01_5");
  EXPECT_EQ(Of(ms, Value::Int(0)), "1970-01-01-00-00-00_");
  EXPECT_EQ(Of(ms, Value::Int(100)), "1970-01-01-00-00-00_1");
  EXPECT_EQ(Of(arrow::timestamp(arrow::TimeUnit::NANO), Value::Int(int64_t{1748662955428} * 1000000 + 99988)),
            "2025-05-31-03-42-35_428099988");
  EXPECT_EQ(Of(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), Value::Int(-1)), "1969-12-31-23-59-59_999999");
  EXPECT_EQ(Of(arrow::timestamp(arrow::TimeUnit::SECOND), Value::Int(86400)), "1970-01-02-00-00-00_");
}

TEST(PartitionName, RefusedValuesNameTheColumn) {
  auto str = DataTypeOf(*arrow::field("k", arrow::utf8()));
  for (const char* bad : {"", ".", "..", "a b", "é", "a/b", "a.b"}) {
    auto s = PartitionValueString(*str, Value::Bytes(bad), "region");
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.status().message().find("'region'"), std::string::npos);
  }
  EXPECT_FALSE(PartitionValueString(*str, Value::Bytes(std::string(201, 'a')), "k").ok());
  EXPECT_TRUE(PartitionValueString(*str, Value::Bytes(std::string(200, 'a')), "k").ok());
  EXPECT_FALSE(PartitionValueString(*str, Value::Null(), "k").ok());
  auto dec = DataTypeOf(*arrow::field("k", arrow::decimal128(10, 2)));
  EXPECT_FALSE(PartitionValueString(*dec, Value::Decimal(0, 1), "k").ok());
  EXPECT_EQ(JoinPartitionName({"20240101", "eu"}), "20240101$eu");
  EXPECT_EQ(JoinPartitionName({"US"}), "US");
}

TEST(PartitionName, NamerJoinsKeysInPartitionKeyOrderFromRowsAndArrow) {
  auto schema = arrow::schema({arrow::field("id", arrow::int32()), arrow::field("day", arrow::date32()),
                               arrow::field("region", arrow::utf8())});
  // Partition-key order, not column order.
  auto namer = PartitionNamer::Make(*schema, {"region", "day"});
  ASSERT_TRUE(namer.ok()) << namer.status().ToString();
  const Value row[] = {Value::Int(1), Value::Int(20235), Value::Bytes("US")};
  auto name = namer->NameOf(row);
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  EXPECT_EQ(*name, "US$2025-05-27");

  arrow::Int32Builder ids;
  arrow::Date32Builder days;
  arrow::StringBuilder regions;
  ASSERT_TRUE(ids.AppendValues({1, 2}).ok());
  ASSERT_TRUE(days.AppendValues({20235, 0}).ok());
  ASSERT_TRUE(regions.Append("EU").ok());
  ASSERT_TRUE(regions.AppendNull().ok());
  auto batch = arrow::RecordBatch::Make(schema, 2, {*ids.Finish(), *days.Finish(), *regions.Finish()});
  auto first = namer->NameOf(*batch, 0);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(*first, "EU$2025-05-27");
  auto second = namer->NameOf(*batch, 1);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("region"), std::string::npos) << second.status().ToString();

  EXPECT_FALSE(PartitionNamer::Make(*schema, {"nope"}).ok());
}

TEST(PartitionName, SpecOfSplitsAtDollar) {
  const std::map<std::string, std::string> two{{"region", "US"}, {"day", "2025-05-27"}};
  EXPECT_EQ(PartitionSpecOf({"region", "day"}, "US$2025-05-27"), two);
  const std::map<std::string, std::string> one{{"k", "a_b-c"}};
  EXPECT_EQ(PartitionSpecOf({"k"}, "a_b-c"), one);
}

}  // namespace
}  // namespace fluss::row
