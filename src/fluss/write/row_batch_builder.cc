#include "fluss/write/row_batch_builder.h"

#include "fluss/row/data_type.h"

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>


namespace fluss::write {

namespace {

using row::TypeRoot;

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


}  // namespace

RowBatchBuilder::RowBatchBuilder(std::shared_ptr<arrow::Schema> schema) : schema_(std::move(schema)) {
  for (const auto& f : schema_->fields()) {
    std::unique_ptr<arrow::ArrayBuilder> builder;
    auto st = arrow::MakeBuilder(arrow::default_memory_pool(), f->type(), &builder);
    (void)st;  // every type accepted by Validate has a builder
    builders_.push_back(std::move(builder));
    AppendFn fn = nullptr;
    int32_t width = 8;
    auto type = row::DataTypeOf(*f);  // a type without a Fluss equivalent fails Validate
    if (type.ok()) {
      switch (type->root) {
        case TypeRoot::kBoolean: fn = AppendBool; width = 1; break;
        case TypeRoot::kTinyInt: fn = AppendInt<arrow::Int8Builder, int8_t>; width = 1; break;
        case TypeRoot::kSmallInt: fn = AppendInt<arrow::Int16Builder, int16_t>; width = 2; break;
        case TypeRoot::kInt: fn = AppendInt<arrow::Int32Builder, int32_t>; width = 4; break;
        case TypeRoot::kBigInt: fn = AppendInt<arrow::Int64Builder, int64_t>; break;
        case TypeRoot::kFloat: fn = AppendFloat<arrow::FloatBuilder, float>; width = 4; break;
        case TypeRoot::kDouble: fn = AppendFloat<arrow::DoubleBuilder, double>; break;
        case TypeRoot::kChar:
        case TypeRoot::kString:
          fn = type->large() ? AppendBytes<arrow::LargeStringBuilder> : AppendBytes<arrow::StringBuilder>;
          width = 4;
          break;
        case TypeRoot::kBytes:
          fn = type->large() ? AppendBytes<arrow::LargeBinaryBuilder> : AppendBytes<arrow::BinaryBuilder>;
          width = 4;
          break;
        case TypeRoot::kBinary: fn = AppendFixed; width = type->length; break;
        case TypeRoot::kDecimal: fn = AppendDecimal; width = 16; break;
        case TypeRoot::kDate: fn = AppendInt<arrow::Date32Builder, int32_t>; width = 4; break;
        case TypeRoot::kTime:
          // TIME(0|3) is an Arrow time32, TIME(6|9) a time64 (row::ArrowTypeOf).
          if (type->precision <= 3) {
            fn = AppendInt<arrow::Time32Builder, int32_t>;
            width = 4;
          } else {
            fn = AppendInt<arrow::Time64Builder, int64_t>;
          }
          break;
        case TypeRoot::kTimestamp:
        case TypeRoot::kTimestampLtz: fn = AppendInt<arrow::TimestampBuilder, int64_t>; break;
      }
    }
    append_.push_back(fn);
    fixed_width_.push_back(width);
  }
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
