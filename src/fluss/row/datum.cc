#include "fluss/row/datum.h"

#include <limits>

#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "fluss/row/temporal.h"
#include "fluss/row/value_kinds.h"

namespace fluss::row {

Result<std::vector<ColumnType>> ColumnTypesOf(const arrow::Schema& schema) {
  std::vector<ColumnType> out;
  out.reserve(static_cast<size_t>(schema.num_fields()));
  for (const auto& f : schema.fields()) {
    FLUSS_ASSIGN_OR_RETURN(DataType t, DataTypeOf(*f));
    out.push_back(ColumnType{f->name(), t});
  }
  return out;
}

namespace {

Status Invalid(const ColumnType& c, const std::string& what) {
  return Status::InvalidArgument("column '" + c.name + "' (" + c.type.ToString() + "): " + what);
}

Status IntInRange(const ColumnType& c, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi)
    return Invalid(c, "value " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "]");
  return Status::OK();
}

}  // namespace

Status DatumFromValue(const ColumnType& c, const Value& v, Datum* out) {
  using K = Value::Kind;
  const DataType& t = c.type;
  if (v.kind == K::kNull) return Invalid(c, "the value is null");
  auto wrong_kind = [&] { return Invalid(c, std::string("a ") + KindName(v.kind) + " value does not fit"); };
  *out = Datum{};
  switch (t.root) {
    case TypeRoot::kBoolean:
      if (v.kind != K::kBool) return wrong_kind();
      out->i = v.b ? 1 : 0;
      return Status::OK();
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kBigInt: {
      if (v.kind != K::kInt64) return wrong_kind();
      if (t.root == TypeRoot::kTinyInt) FLUSS_RETURN_NOT_OK(IntInRange(c, v.i, INT8_MIN, INT8_MAX));
      if (t.root == TypeRoot::kSmallInt) FLUSS_RETURN_NOT_OK(IntInRange(c, v.i, INT16_MIN, INT16_MAX));
      if (t.root == TypeRoot::kInt || t.root == TypeRoot::kDate)
        FLUSS_RETURN_NOT_OK(IntInRange(c, v.i, INT32_MIN, INT32_MAX));
      out->i = v.i;
      return Status::OK();
    }
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      if (v.kind == K::kDouble) out->d = v.d;
      else if (v.kind == K::kInt64) out->d = static_cast<double>(v.i);
      else return wrong_kind();
      return Status::OK();
    case TypeRoot::kString:
    case TypeRoot::kBytes:
    case TypeRoot::kChar:
    case TypeRoot::kBinary:
      if (v.kind != K::kBytes) return wrong_kind();
      if (v.s.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
        return Invalid(c, "value of " + std::to_string(v.s.size()) + " bytes is too large");
      if ((t.root == TypeRoot::kChar || t.root == TypeRoot::kBinary) && v.s.size() > static_cast<size_t>(t.length))
        return Invalid(c, "value has " + std::to_string(v.s.size()) + " bytes, more than " +
                              std::to_string(t.length));
      out->bytes = v.s;
      return Status::OK();
    case TypeRoot::kDecimal: {
      if (v.kind != K::kDecimal) return wrong_kind();
      const arrow::Decimal128 dec(v.dec_hi, v.dec_lo);
      if (!dec.FitsInPrecision(t.precision))
        return Invalid(c, "unscaled value " + dec.ToIntegerString() + " has more than " +
                              std::to_string(t.precision) + " digits");
      out->dec_hi = v.dec_hi;
      out->dec_lo = v.dec_lo;
      out->i = static_cast<int64_t>(v.dec_lo);  // the whole value when compact (|v| < 10^18)
      return Status::OK();
    }
    case TypeRoot::kTime: {
      if (v.kind != K::kInt64) return wrong_kind();
      FLUSS_RETURN_NOT_OK(IntInRange(c, v.i, 0, UnitsPerDay(static_cast<arrow::TimeUnit::type>(t.unit)) - 1));
      int32_t ms = 0;
      TimeToMillis(v.i, t.unit, &ms);  // within a day: cannot overflow
      out->i = ms;
      return Status::OK();
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (v.kind != K::kInt64) return wrong_kind();
      int64_t millis = 0;
      int32_t nanos = 0;
      if (!TimestampToMillis(v.i, t.unit, &millis, &nanos))
        return Invalid(c, "value " + std::to_string(v.i) + " is out of the millisecond range");
      out->i = millis;
      out->nanos = nanos;
      return Status::OK();
    }
  }
  return Status::Internal("column '" + c.name + "': unhandled type");
}

Status CheckDatumForBuilder(const ColumnType& c, const Datum& d, const char* format) {
  auto corrupt = [&](const std::string& what) {
    return Status::Protocol(std::string(format) + " column '" + c.name + "' (" + c.type.ToString() + "): " + what);
  };
  switch (c.type.root) {
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (d.nanos < 0 || d.nanos > 999999) return corrupt("nano-of-millisecond " + std::to_string(d.nanos));
      int64_t v;
      if (!TimestampFromMillis(d.i, d.nanos, c.type.unit, &v))
        return corrupt("timestamp " + std::to_string(d.i) + " ms does not fit the column unit");
      return Status::OK();
    }
    case TypeRoot::kBinary:
      if (d.bytes.size() > static_cast<size_t>(c.type.length))
        return corrupt("value of " + std::to_string(d.bytes.size()) + " bytes");
      return Status::OK();
    default:
      return Status::OK();
  }
}

namespace {

template <typename B, typename... Args>
Status AppendTo(arrow::ArrayBuilder* b, const ColumnType& c, Args&&... args) {
  auto st = static_cast<B*>(b)->Append(std::forward<Args>(args)...);
  if (st.ok()) return Status::OK();
  return Status::Internal("appending to column '" + c.name + "': " + st.ToString());
}

}  // namespace

Status AppendDatum(const ColumnType& c, const Datum& d, arrow::ArrayBuilder* b) {
  switch (c.type.arrow_type_id) {
    case arrow::Type::BOOL: return AppendTo<arrow::BooleanBuilder>(b, c, d.i != 0);
    case arrow::Type::INT8: return AppendTo<arrow::Int8Builder>(b, c, static_cast<int8_t>(d.i));
    case arrow::Type::INT16: return AppendTo<arrow::Int16Builder>(b, c, static_cast<int16_t>(d.i));
    case arrow::Type::INT32: return AppendTo<arrow::Int32Builder>(b, c, static_cast<int32_t>(d.i));
    case arrow::Type::INT64: return AppendTo<arrow::Int64Builder>(b, c, d.i);
    case arrow::Type::FLOAT: return AppendTo<arrow::FloatBuilder>(b, c, static_cast<float>(d.d));
    case arrow::Type::DOUBLE: return AppendTo<arrow::DoubleBuilder>(b, c, d.d);
    case arrow::Type::DATE32: return AppendTo<arrow::Date32Builder>(b, c, static_cast<int32_t>(d.i));
    case arrow::Type::STRING: return AppendTo<arrow::StringBuilder>(b, c, d.bytes);
    case arrow::Type::LARGE_STRING: return AppendTo<arrow::LargeStringBuilder>(b, c, d.bytes);
    case arrow::Type::BINARY: return AppendTo<arrow::BinaryBuilder>(b, c, d.bytes);
    case arrow::Type::LARGE_BINARY: return AppendTo<arrow::LargeBinaryBuilder>(b, c, d.bytes);
    case arrow::Type::FIXED_SIZE_BINARY: {
      if (d.bytes.size() == static_cast<size_t>(c.type.length))
        return AppendTo<arrow::FixedSizeBinaryBuilder>(b, c, reinterpret_cast<const uint8_t*>(d.bytes.data()));
      std::string padded(d.bytes);
      padded.resize(static_cast<size_t>(c.type.length), '\0');
      return AppendTo<arrow::FixedSizeBinaryBuilder>(b, c, reinterpret_cast<const uint8_t*>(padded.data()));
    }
    case arrow::Type::DECIMAL128: return AppendTo<arrow::Decimal128Builder>(b, c, arrow::Decimal128(d.dec_hi, d.dec_lo));
    case arrow::Type::TIME32:
      return AppendTo<arrow::Time32Builder>(b, c, static_cast<int32_t>(TimeFromMillis(static_cast<int32_t>(d.i), c.type.unit)));
    case arrow::Type::TIME64:
      return AppendTo<arrow::Time64Builder>(b, c, TimeFromMillis(static_cast<int32_t>(d.i), c.type.unit));
    case arrow::Type::TIMESTAMP: {
      int64_t v = 0;
      TimestampFromMillis(d.i, d.nanos, c.type.unit, &v);  // checked by CheckDatumForBuilder
      return AppendTo<arrow::TimestampBuilder>(b, c, v);
    }
    default:
      return Status::Internal("column '" + c.name + "': no builder for " + c.type.ToString());
  }
}

Status AppendRow(const std::vector<ColumnType>& columns, const uint8_t* null_bitmap,
                 const std::vector<Datum>& datums, const std::vector<arrow::ArrayBuilder*>& builders) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if ((null_bitmap[i >> 3] >> (i & 7)) & 1) {
      auto st = builders[i]->AppendNull();
      if (!st.ok()) return Status::Internal("appending to column '" + columns[i].name + "': " + st.ToString());
      continue;
    }
    FLUSS_RETURN_NOT_OK(AppendDatum(columns[i], datums[i], builders[i]));
  }
  return Status::OK();
}

Status CheckBuilders(const std::vector<ColumnType>& columns, const std::vector<arrow::ArrayBuilder*>& builders,
                     const char* what) {
  if (builders.size() != columns.size())
    return Status::InvalidArgument(std::string(what) + ": " + std::to_string(builders.size()) + " builders for " +
                                   std::to_string(columns.size()) + " fields");
  for (size_t i = 0; i < columns.size(); ++i) {
    if (builders[i] == nullptr || builders[i]->type()->id() != columns[i].type.arrow_type_id)
      return Status::InvalidArgument(std::string(what) + ": the builder of column '" + columns[i].name +
                                     "' does not have the field's type");
  }
  return Status::OK();
}

}  // namespace fluss::row
