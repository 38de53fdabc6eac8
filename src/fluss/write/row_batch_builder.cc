#include "fluss/write/row_batch_builder.h"
#include "fluss/row/value_kinds.h"

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include <limits>

namespace fluss::write {

namespace {

using row::KindName;
using row::UnitsPerDay;

using arrow::Type;

template <typename B, typename C>
arrow::Status AppendInt(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<B*>(b)->Append(static_cast<C>(v.i));
}

template <typename B, typename C>
arrow::Status AppendFloat(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  const double d = v.kind == Value::Kind::kInt64 ? static_cast<double>(v.i) : v.d;
  return static_cast<B*>(b)->Append(static_cast<C>(d));
}

arrow::Status AppendBool(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<arrow::BooleanBuilder*>(b)->Append(v.b);
}

template <typename B>
arrow::Status AppendBytes(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<B*>(b)->Append(reinterpret_cast<const uint8_t*>(v.s.data()),
                                    static_cast<int32_t>(v.s.size()));
}

arrow::Status AppendFixed(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<arrow::FixedSizeBinaryBuilder*>(b)->Append(reinterpret_cast<const uint8_t*>(v.s.data()));
}

arrow::Status AppendDecimal(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<arrow::Decimal128Builder*>(b)->Append(arrow::Decimal128(v.dec_hi, v.dec_lo));
}


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

RowBatchBuilder::RowBatchBuilder(std::shared_ptr<arrow::Schema> schema) : schema_(std::move(schema)) {
  for (const auto& f : schema_->fields()) {
    std::unique_ptr<arrow::ArrayBuilder> builder;
    auto st = arrow::MakeBuilder(arrow::default_memory_pool(), f->type(), &builder);
    (void)st;  // every type accepted by Validate has a builder
    builders_.push_back(std::move(builder));
    AppendFn fn = nullptr;
    int32_t width = 8;
    switch (f->type()->id()) {
      case Type::BOOL: fn = AppendBool; width = 1; break;
      case Type::INT8: fn = AppendInt<arrow::Int8Builder, int8_t>; width = 1; break;
      case Type::INT16: fn = AppendInt<arrow::Int16Builder, int16_t>; width = 2; break;
      case Type::INT32: fn = AppendInt<arrow::Int32Builder, int32_t>; width = 4; break;
      case Type::INT64: fn = AppendInt<arrow::Int64Builder, int64_t>; break;
      case Type::FLOAT: fn = AppendFloat<arrow::FloatBuilder, float>; width = 4; break;
      case Type::DOUBLE: fn = AppendFloat<arrow::DoubleBuilder, double>; break;
      case Type::STRING: fn = AppendBytes<arrow::StringBuilder>; width = 4; break;
      case Type::BINARY: fn = AppendBytes<arrow::BinaryBuilder>; width = 4; break;
      case Type::FIXED_SIZE_BINARY:
        fn = AppendFixed;
        width = static_cast<const arrow::FixedSizeBinaryType&>(*f->type()).byte_width();
        break;
      case Type::DECIMAL128: fn = AppendDecimal; width = 16; break;
      case Type::DATE32: fn = AppendInt<arrow::Date32Builder, int32_t>; width = 4; break;
      case Type::TIME32: fn = AppendInt<arrow::Time32Builder, int32_t>; width = 4; break;
      case Type::TIME64: fn = AppendInt<arrow::Time64Builder, int64_t>; break;
      case Type::TIMESTAMP: fn = AppendInt<arrow::TimestampBuilder, int64_t>; break;
      default: break;
    }
    append_.push_back(fn);
    fixed_width_.push_back(width);
  }
}

Status RowBatchBuilder::Validate(const arrow::Schema& schema, const Value* values, size_t count) {
  if (count != static_cast<size_t>(schema.num_fields()))
    return Status::InvalidArgument("row has " + std::to_string(count) + " values but the table has " +
                                   std::to_string(schema.num_fields()) + " columns");
  for (size_t i = 0; i < count; ++i) {
    const arrow::Field& f = *schema.field(static_cast<int>(i));
    const Value& v = values[i];
    if (v.kind == Value::Kind::kNull) {
      if (!f.nullable()) return Status::InvalidArgument("column '" + f.name() + "' is NOT NULL but the value is null");
      continue;
    }
    switch (f.type()->id()) {
      case Type::BOOL:
        if (v.kind != Value::Kind::kBool) return Mismatch(f, v);
        break;
      case Type::INT8:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, INT8_MIN, INT8_MAX));
        break;
      case Type::INT16:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, INT16_MIN, INT16_MAX));
        break;
      case Type::INT32:
      case Type::DATE32:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, INT32_MIN, INT32_MAX));
        break;
      case Type::INT64:
      case Type::TIMESTAMP:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        break;
      case Type::TIME32:
      case Type::TIME64:
        if (v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        FLUSS_RETURN_NOT_OK(IntRange(f, v.i, 0, UnitsPerDay(static_cast<const arrow::TimeType&>(*f.type()).unit()) - 1));
        break;
      case Type::FLOAT:
      case Type::DOUBLE:
        if (v.kind != Value::Kind::kDouble && v.kind != Value::Kind::kInt64) return Mismatch(f, v);
        break;
      case Type::STRING:
      case Type::BINARY:
        if (v.kind != Value::Kind::kBytes) return Mismatch(f, v);
        if (v.s.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max() / 2))
          return Status::InvalidArgument("column '" + f.name() + "': value of " + std::to_string(v.s.size()) +
                                         " bytes is too large");
        break;
      case Type::FIXED_SIZE_BINARY: {
        if (v.kind != Value::Kind::kBytes) return Mismatch(f, v);
        const int w = static_cast<const arrow::FixedSizeBinaryType&>(*f.type()).byte_width();
        if (v.s.size() != static_cast<size_t>(w))
          return Status::InvalidArgument("column '" + f.name() + "' (binary(" + std::to_string(w) + ")): value has " +
                                         std::to_string(v.s.size()) + " bytes");
        break;
      }
      case Type::DECIMAL128: {
        if (v.kind != Value::Kind::kDecimal) return Mismatch(f, v);
        const auto& dt = static_cast<const arrow::Decimal128Type&>(*f.type());
        arrow::Decimal128 d(v.dec_hi, v.dec_lo);
        if (!d.FitsInPrecision(dt.precision()))
          return Status::InvalidArgument("column '" + f.name() + "' (" + dt.ToString() + "): value " +
                                         d.ToString(dt.scale()) + " has more than " +
                                         std::to_string(dt.precision()) + " digits");
        break;
      }
      default:
        return Status::InvalidArgument("column '" + f.name() + "' has unsupported type " + f.type()->ToString());
    }
  }
  return Status::OK();
}

Result<int64_t> RowBatchBuilder::Append(const Value* values) {
  int64_t bytes = 0;
  for (size_t i = 0; i < builders_.size(); ++i) {
    auto st = append_[i](builders_[i].get(), values[i]);
    if (!st.ok()) return Status::Internal("appending to column '" + schema_->field(static_cast<int>(i))->name() +
                                          "': " + st.ToString());
    bytes += fixed_width_[i] + static_cast<int64_t>(values[i].s.size());
  }
  ++num_rows_;
  estimated_bytes_ += bytes;
  return bytes;
}

Result<std::shared_ptr<arrow::RecordBatch>> RowBatchBuilder::Finish() {
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (auto& b : builders_) {
    std::shared_ptr<arrow::Array> a;
    auto st = b->Finish(&a);
    if (!st.ok()) return Status::Internal("finishing a batch: " + st.ToString());
    arrays.push_back(std::move(a));
  }
  auto rb = arrow::RecordBatch::Make(schema_, num_rows_, std::move(arrays));
  num_rows_ = 0;
  estimated_bytes_ = 0;
  return rb;
}

}  // namespace fluss::write
