#include "fluss/write/row_validator.h"

#include "fluss/row/value_kinds.h"

#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include <limits>

namespace fluss::write {

namespace {

using row::KindName;
using row::TypeRoot;
using row::UnitsPerDay;

Status Mismatch(const arrow::Field& f, const Value& v) {
  return Status::InvalidArgument("column '" + f.name() + "' (" + f.type()->ToString() + ") cannot take a " +
                                 KindName(v.kind) + " value");
}

Status IntRange(const arrow::Field& f, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi)
    return Status::InvalidArgument("column '" + f.name() + "' (" + f.type()->ToString() + "): value " +
                                   std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                                   std::to_string(hi) + "]");
  return Status::OK();
}


}  // namespace

RowValidator::RowValidator(std::shared_ptr<arrow::Schema> schema) : schema_(std::move(schema)) {
  auto types = row::DataTypesOf(*schema_);
  if (types.ok()) types_ = std::move(*types);
  else unsupported_ = types.status();
}

Status RowValidator::Check(const Value* values, size_t count) const {
  const arrow::Schema& schema = *schema_;
  FLUSS_RETURN_NOT_OK(unsupported_);
  if (count != static_cast<size_t>(schema.num_fields()))
    return Status::InvalidArgument("row has " + std::to_string(count) + (count == 1 ? " value" : " values") +
                                   " but the table has " + std::to_string(schema.num_fields()) +
                                   (schema.num_fields() == 1 ? " column" : " columns"));
  for (size_t i = 0; i < count; ++i) {
    const arrow::Field& f = *schema.field(static_cast<int>(i));
    const Value& v = values[i];
    if (v.kind == Value::Kind::kNull) {
      if (!f.nullable()) return Status::InvalidArgument("column '" + f.name() + "' is NOT NULL but the value is null");
      continue;
    }
    const row::DataType& t = types_[i];
    switch (t.root) {
      case TypeRoot::kBoolean:
        if (v.kind != Value::Kind::kBool) return Mismatch(f, v);
        break;
      case TypeRoot::kTinyInt:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, INT8_MIN, INT8_MAX));
        break;
      case TypeRoot::kSmallInt:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, INT16_MIN, INT16_MAX));
        break;
      case TypeRoot::kInt:
      case TypeRoot::kDate:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, INT32_MIN, INT32_MAX));
        break;
      case TypeRoot::kBigInt:
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        break;
      case TypeRoot::kTime:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, 0, UnitsPerDay(static_cast<arrow::TimeUnit::type>(t.unit)) - 1));
        break;
      case TypeRoot::kFloat:
      case TypeRoot::kDouble:
        if (v.kind != Value::Kind::kDouble && v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        break;
      case TypeRoot::kChar:
      case TypeRoot::kString:
      case TypeRoot::kBytes:
        if (v.kind != Value::Kind::kBytes) return Mismatch(f, v);
        if (v.s.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max() / 2))
          return Status::InvalidArgument("column '" + f.name() + "': value of " + std::to_string(v.s.size()) +
                                         " bytes is too large");
        break;
      case TypeRoot::kBinary:
        if (v.kind != Value::Kind::kBytes) return Mismatch(f, v);
        if (v.s.size() != static_cast<size_t>(t.length))
          return Status::InvalidArgument("column '" + f.name() + "' (binary(" + std::to_string(t.length) +
                                         ")): value has " + std::to_string(v.s.size()) + " bytes");
        break;
      case TypeRoot::kDecimal: {
        if (v.kind != Value::Kind::kDecimal) return Mismatch(f, v);
        arrow::Decimal128 d(v.dec_hi, v.dec_lo);
        if (!d.FitsInPrecision(t.precision))
          return Status::InvalidArgument("column '" + f.name() + "' (" + f.type()->ToString() + "): value " +
                                         d.ToString(t.scale) + " has more than " + std::to_string(t.precision) +
                                         " digits");
        break;
      }
    }
  }
  return Status::OK();
}

}  // namespace fluss::write
