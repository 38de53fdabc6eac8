// Helpers of the row-codec unit tests: builders for a schema, finishing them into a RecordBatch,
// comparing a column with an Arrow JSON array, CHAR(n) fields and decimal Values.
#pragma once

#include <gtest/gtest.h>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/json/from_string.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/key_value_metadata.h>

#include <memory>
#include <string>
#include <vector>

#include "fluss/client.h"
#include "fluss/row/data_type.h"

namespace fluss::testing {

/// One arrow::ArrayBuilder per field of a schema; Finish() makes the RecordBatch.
struct Builders {
  explicit Builders(std::shared_ptr<arrow::Schema> s) : schema(std::move(s)) {
    for (const auto& f : schema->fields()) {
      owned.push_back(arrow::MakeBuilder(f->type()).ValueOrDie());
      raw.push_back(owned.back().get());
    }
  }
  std::shared_ptr<arrow::RecordBatch> Finish() {
    std::vector<std::shared_ptr<arrow::Array>> arrays;
    for (auto& b : owned) arrays.push_back(b->Finish().ValueOrDie());
    const int64_t n = arrays.empty() ? 0 : arrays[0]->length();
    return arrow::RecordBatch::Make(schema, n, arrays);
  }
  std::shared_ptr<arrow::Schema> schema;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> owned;
  std::vector<arrow::ArrayBuilder*> raw;
};

/// Column `i` of `rb` equals the JSON array `json` of the column's type.
inline void ExpectColumn(const std::shared_ptr<arrow::RecordBatch>& rb, int i, const std::string& json) {
  ASSERT_NE(rb, nullptr);
  auto expected = arrow::json::ArrayFromJSONString(rb->column(i)->type(), json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_TRUE(rb->column(i)->Equals(**expected))
      << "column " << rb->schema()->field(i)->name() << ": got " << rb->column(i)->ToString() << "\nexpected "
      << json;
}

inline std::shared_ptr<arrow::Field> CharField(const std::string& name, int n, bool nullable = true) {
  return arrow::field(name, arrow::utf8(), nullable,
                      arrow::key_value_metadata({row::kCharLengthMetadataKey}, {std::to_string(n)}));
}

/// A kDecimal Value of the unscaled integer `unscaled` ("1234", "-5").
inline Value Dec(const std::string& unscaled) {
  auto d = arrow::Decimal128::FromString(unscaled);
  EXPECT_TRUE(d.ok()) << unscaled;
  return Value::Decimal(d->high_bits(), d->low_bits());
}

}  // namespace fluss::testing
