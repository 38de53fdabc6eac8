#include "fluss/write/row_validator.h"

#include <cstdint>

#include <arrow/type.h>

#include "fluss/row/datum.h"

namespace fluss::write {

RowValidator::RowValidator(std::shared_ptr<arrow::Schema> schema) : schema_(std::move(schema)) {
  auto columns = row::ColumnTypesOf(*schema_);
  if (columns.ok()) columns_ = std::move(*columns);
  else unsupported_ = columns.status();
}

namespace {

/// True for the common values row::DatumFromValue accepts without further checks (a BIGINT
/// int, an INT int in range, a DOUBLE double...): checked here without building a Datum.
/// Everything else takes the full check, which also words the error.
bool PlainlyValid(row::TypeRoot root, const Value& v) {
  using row::TypeRoot;
  switch (root) {
    case TypeRoot::kBoolean: return v.kind == Value::Kind::kBool;
    case TypeRoot::kTinyInt: return v.kind == Value::Kind::kInt64 && v.i >= INT8_MIN && v.i <= INT8_MAX;
    case TypeRoot::kSmallInt: return v.kind == Value::Kind::kInt64 && v.i >= INT16_MIN && v.i <= INT16_MAX;
    case TypeRoot::kInt: return v.kind == Value::Kind::kInt64 && v.i >= INT32_MIN && v.i <= INT32_MAX;
    case TypeRoot::kBigInt: return v.kind == Value::Kind::kInt64;
    case TypeRoot::kFloat:
    case TypeRoot::kDouble: return v.kind == Value::Kind::kDouble;
    // STRING must be UTF-8: plainly so only when the caller vouches for it (Value::utf8).
    case TypeRoot::kString: return v.kind == Value::Kind::kBytes && v.utf8 && v.s.size() <= row::kMaxBytesValue;
    case TypeRoot::kBytes: return v.kind == Value::Kind::kBytes && v.s.size() <= row::kMaxBytesValue;
    default: return false;
  }
}

}  // namespace

Status RowValidator::Check(const Value* values, size_t count) const {
  FLUSS_RETURN_NOT_OK(unsupported_);
  if (count != columns_.size())
    return Status::InvalidArgument("row has " + std::to_string(count) + (count == 1 ? " value" : " values") +
                                   " but the table has " + std::to_string(columns_.size()) +
                                   (columns_.size() == 1 ? " column" : " columns"));
  for (size_t i = 0; i < count; ++i) {
    const row::ColumnType& c = columns_[i];
    const Value& v = values[i];
    if (v.kind == Value::Kind::kNull) {
      if (!c.type.nullable) return Status::InvalidArgument("column '" + c.name + "' is NOT NULL but the value is null");
      continue;
    }
    if (PlainlyValid(c.type.root, v)) continue;
    row::Datum ignored;
    FLUSS_RETURN_NOT_OK(row::DatumFromValue(c, values[i], &ignored));
  }
  return Status::OK();
}

}  // namespace fluss::write
