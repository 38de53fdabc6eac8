#include "fluss/row/key_encoder.h"

#include <arrow/type.h>

#include "fluss/row/compacted_row.h"

namespace fluss::row {

Status KeyEncoder::Init(std::shared_ptr<arrow::Schema> schema, std::vector<int> key_columns, const char* what) {
  if (!schema) return Status::InvalidArgument(std::string(what) + ": no schema");
  if (key_columns.empty()) return Status::InvalidArgument(std::string(what) + ": no key columns");
  std::vector<ColumnType> columns;
  for (int index : key_columns) {
    if (index < 0 || index >= schema->num_fields())
      return Status::InvalidArgument(std::string(what) + ": key column index " + std::to_string(index) +
                                     " is out of range for a schema of " + std::to_string(schema->num_fields()) +
                                     " columns");
    const arrow::Field& field = *schema->field(index);
    auto type = DataTypeOf(field);
    if (!type.ok() || type->is_nested())
      return Status::InvalidArgument("key column '" + field.name() + "' has type " + field.type()->ToString() +
                                     ", which cannot be part of a key");
    columns.push_back(ColumnType{field.name(), *type});
  }
  schema_ = std::move(schema);
  key_columns_ = std::move(key_columns);
  columns_ = std::move(columns);
  return Status::OK();
}

Status KeyEncoder::KeyError(size_t k, const std::string& what) const {
  const ColumnType& c = columns_[k];
  return Status::InvalidArgument("key column '" + c.name + "' (" + c.type.ToString() + "): " + what);
}

Status KeyEncoder::KeyDatum(size_t k, const Value* values, Datum* d) const {
  const Value& v = values[key_columns_[k]];
  if (v.kind == Value::Kind::kNull) return KeyError(k, "a key column must not be null");
  return DatumFromValue(columns_[k], v, d);
}

Result<CompactedKeyEncoder> CompactedKeyEncoder::Create(std::shared_ptr<arrow::Schema> schema,
                                                        std::vector<int> key_columns) {
  CompactedKeyEncoder enc;
  FLUSS_RETURN_NOT_OK(enc.Init(std::move(schema), std::move(key_columns), "key encoder"));
  return enc;
}

Status CompactedKeyEncoder::Encode(const Value* values, std::string* out) const {
  out->clear();
  for (size_t k = 0; k < columns_.size(); ++k) {
    Datum d;
    FLUSS_RETURN_NOT_OK(KeyDatum(k, values, &d));
    FLUSS_RETURN_NOT_OK(AppendCompactedField(columns_[k], d, out));
  }
  return Status::OK();
}

}  // namespace fluss::row
