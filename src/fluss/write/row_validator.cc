#include "fluss/write/row_validator.h"

#include <arrow/type.h>

#include "fluss/row/datum.h"

namespace fluss::write {

RowValidator::RowValidator(std::shared_ptr<arrow::Schema> schema) : schema_(std::move(schema)) {
  auto columns = row::ColumnTypesOf(*schema_);
  if (columns.ok()) columns_ = std::move(*columns);
  else unsupported_ = columns.status();
}

Status RowValidator::Check(const Value* values, size_t count) const {
  FLUSS_RETURN_NOT_OK(unsupported_);
  if (count != columns_.size())
    return Status::InvalidArgument("row has " + std::to_string(count) + (count == 1 ? " value" : " values") +
                                   " but the table has " + std::to_string(columns_.size()) +
                                   (columns_.size() == 1 ? " column" : " columns"));
  for (size_t i = 0; i < count; ++i) {
    const row::ColumnType& c = columns_[i];
    if (values[i].kind == Value::Kind::kNull) {
      if (!c.type.nullable) return Status::InvalidArgument("column '" + c.name + "' is NOT NULL but the value is null");
      continue;
    }
    row::Datum ignored;
    FLUSS_RETURN_NOT_OK(row::DatumFromValue(c, values[i], &ignored));
  }
  return Status::OK();
}

}  // namespace fluss::write
