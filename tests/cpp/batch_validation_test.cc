// record/ValidateBatchFull: the verdict of arrow::RecordBatch::ValidateFull on every case
// (valid and invalid UTF-8, ASCII and not, sliced, large strings, bad offsets, nested strings,
// other columns), with its ASCII fast path for top-level strings.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/util/decimal.h>

#include "fluss/record/batch_validation.h"

namespace fluss::record {
namespace {

/// A string array of `type` (utf8 or large_utf8) holding exactly `values` (nullopt = null),
/// bytes not checked.
template <typename Offset>
std::shared_ptr<arrow::Array> RawStrings(std::shared_ptr<arrow::DataType> type,
                                         const std::vector<std::optional<std::string>>& values) {
  std::vector<Offset> offsets{0};
  std::string data;
  std::vector<uint8_t> valid((values.size() + 7) / 8, 0);
  int64_t nulls = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) {
      data += *values[i];
      valid[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    } else {
      ++nulls;
    }
    offsets.push_back(static_cast<Offset>(data.size()));
  }
  auto data_buf = arrow::Buffer::FromString(data);
  auto offsets_buf = arrow::Buffer::FromString(std::string(reinterpret_cast<const char*>(offsets.data()),
                                                           offsets.size() * sizeof(Offset)));
  auto valid_buf = arrow::Buffer::FromString(std::string(valid.begin(), valid.end()));
  return arrow::MakeArray(arrow::ArrayData::Make(type, static_cast<int64_t>(values.size()),
                                                 {valid_buf, offsets_buf, data_buf}, nulls));
}

std::shared_ptr<arrow::RecordBatch> OneColumn(const std::shared_ptr<arrow::Array>& a) {
  return arrow::RecordBatch::Make(arrow::schema({arrow::field("c", a->type())}), a->length(), {a});
}

/// ValidateBatchFull agrees with Arrow's ValidateFull on `batch`; returns whether it is valid.
bool SameVerdict(const arrow::RecordBatch& batch) {
  const arrow::Status ours = ValidateBatchFull(batch);
  const arrow::Status arrows = batch.ValidateFull();
  EXPECT_EQ(ours.ok(), arrows.ok()) << "ours: " << ours.ToString() << "; Arrow: " << arrows.ToString();
  return ours.ok();
}

TEST(ValidateBatchFull, StringsValidAndNotAsArrowSays) {
  using V = std::vector<std::optional<std::string>>;
  const V ascii{std::string("alpha"), std::nullopt, std::string(""), std::string("a longer ascii value, 40 bytes long....")};
  const V utf8{std::string("h\xc3\xa9"), std::string("\xe2\x82\xac 5"), std::nullopt, std::string("plain")};
  const V bad{std::string("ok"), std::string("a\xff" "b"), std::string("fine")};
  const V truncated{std::string("x"), std::string("\xe2\x82")};  // a cut multi-byte character
  for (auto type : {arrow::utf8(), arrow::large_utf8()}) {
    SCOPED_TRACE(type->ToString());
    auto make = [&](const V& v) {
      return type->id() == arrow::Type::STRING ? RawStrings<int32_t>(type, v) : RawStrings<int64_t>(type, v);
    };
    EXPECT_TRUE(SameVerdict(*OneColumn(make(ascii))));
    EXPECT_TRUE(SameVerdict(*OneColumn(make(utf8))));
    EXPECT_FALSE(SameVerdict(*OneColumn(make(bad))));
    EXPECT_FALSE(SameVerdict(*OneColumn(make(truncated))));
    // Sliced: only the bytes the slice's values span count.
    EXPECT_TRUE(SameVerdict(*OneColumn(make(bad)->Slice(2, 1))));
    EXPECT_FALSE(SameVerdict(*OneColumn(make(bad)->Slice(1, 2))));
    // Many ASCII values, and one bad byte at each position of the fast path's 32-byte steps.
    V many;
    for (int i = 0; i < 300; ++i) many.push_back(std::string(static_cast<size_t>(i % 23), static_cast<char>('a' + i % 26)));
    EXPECT_TRUE(SameVerdict(*OneColumn(make(many))));
    for (size_t at : {size_t{0}, size_t{7}, size_t{31}, size_t{32}, size_t{100}}) {
      V one_bad = many;
      for (auto& v : one_bad)
        if (v && v->size() > at % 20) { (*v)[at % 20] = '\x80'; break; }
      EXPECT_FALSE(SameVerdict(*OneColumn(make(one_bad)))) << at;
    }
  }
}

TEST(ValidateBatchFull, OffsetsOutsideTheDataAreRefused) {
  auto good = RawStrings<int32_t>(arrow::utf8(), {std::string("abc"), std::string("de")});
  auto data = good->data()->Copy();
  const int32_t offsets[] = {0, 3, 50};  // past the 5 data bytes
  data->buffers[1] = arrow::Buffer::FromString(std::string(reinterpret_cast<const char*>(offsets), sizeof(offsets)));
  EXPECT_FALSE(SameVerdict(*OneColumn(arrow::MakeArray(data))));
  const int32_t backwards[] = {0, 4, 2};
  data->buffers[1] = arrow::Buffer::FromString(std::string(reinterpret_cast<const char*>(backwards), sizeof(backwards)));
  EXPECT_FALSE(SameVerdict(*OneColumn(arrow::MakeArray(data))));
}

TEST(ValidateBatchFull, OtherColumnsTakeArrowsFullChecks) {
  // A list of strings (nested: Arrow's own check), a decimal beyond its precision, ints.
  arrow::ListBuilder lists(arrow::default_memory_pool(), std::make_shared<arrow::StringBuilder>());
  auto* items = static_cast<arrow::StringBuilder*>(lists.value_builder());
  ASSERT_TRUE(lists.Append().ok());
  ASSERT_TRUE(items->Append("\xff").ok());
  std::shared_ptr<arrow::Array> bad_list;
  ASSERT_TRUE(lists.Finish(&bad_list).ok());
  EXPECT_FALSE(SameVerdict(*OneColumn(bad_list)));

  arrow::Decimal128Builder decimals(arrow::decimal128(3, 1));
  ASSERT_TRUE(decimals.Append(arrow::Decimal128(12345)).ok());  // 1234.5: 5 digits in DECIMAL(3,1)
  std::shared_ptr<arrow::Array> bad_decimal;
  ASSERT_TRUE(decimals.Finish(&bad_decimal).ok());
  EXPECT_FALSE(SameVerdict(*OneColumn(bad_decimal)));

  arrow::Int64Builder ints;
  ASSERT_TRUE(ints.AppendValues({1, 2, 3}).ok());
  auto strings = RawStrings<int32_t>(arrow::utf8(), {std::string("a"), std::nullopt, std::string("\xc3\xa9")});
  auto schema = arrow::schema({arrow::field("i", arrow::int64()), arrow::field("s", arrow::utf8())});
  auto batch = arrow::RecordBatch::Make(schema, 3, {*ints.Finish(), strings});
  EXPECT_TRUE(SameVerdict(*batch));
  // A column shorter than the batch.
  auto short_batch = arrow::RecordBatch::Make(schema, 4, {batch->column(0), batch->column(1)});
  EXPECT_FALSE(SameVerdict(*short_batch));
}

}  // namespace
}  // namespace fluss::record
