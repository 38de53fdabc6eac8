#include "fluss/write/row_batch_builder.h"

#include "fluss/row/data_type.h"
#include "fluss/row/datum.h"

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>


namespace fluss::write {

namespace {

using row::TypeRoot;

// The scalar appends below write without capacity checks: RowBatchBuilder::Append reserves
// room for the row in every builder first (RowBatchBuilder::Reserve). Byte strings reserve
// their data bytes themselves.
template <typename B, typename C>
arrow::Status AppendInt(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) static_cast<B*>(b)->UnsafeAppendNull();
  else static_cast<B*>(b)->UnsafeAppend(static_cast<C>(v.i));
  return arrow::Status::OK();
}

template <typename B, typename C>
arrow::Status AppendFloat(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) {
    static_cast<B*>(b)->UnsafeAppendNull();
  } else {
    const double d = v.kind == Value::Kind::kInt64 ? static_cast<double>(v.i) : v.d;
    static_cast<B*>(b)->UnsafeAppend(static_cast<C>(d));
  }
  return arrow::Status::OK();
}

arrow::Status AppendBool(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) static_cast<arrow::BooleanBuilder*>(b)->UnsafeAppendNull();
  else static_cast<arrow::BooleanBuilder*>(b)->UnsafeAppend(v.b);
  return arrow::Status::OK();
}

template <typename B>
arrow::Status AppendBytes(arrow::ArrayBuilder* b, const Value& v) {
  auto* builder = static_cast<B*>(b);
  if (v.kind == Value::Kind::kNull) {
    builder->UnsafeAppendNull();
    return arrow::Status::OK();
  }
  ARROW_RETURN_NOT_OK(builder->ReserveData(static_cast<int64_t>(v.s.size())));
  builder->UnsafeAppend(reinterpret_cast<const uint8_t*>(v.s.data()),
                        static_cast<typename B::offset_type>(v.s.size()));
  return arrow::Status::OK();
}

arrow::Status AppendFixed(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<arrow::FixedSizeBinaryBuilder*>(b)->Append(reinterpret_cast<const uint8_t*>(v.s.data()));
}

arrow::Status AppendDecimal(arrow::ArrayBuilder* b, const Value& v) {
  if (v.kind == Value::Kind::kNull) return b->AppendNull();
  return static_cast<arrow::Decimal128Builder*>(b)->Append(arrow::Decimal128(v.dec_hi, v.dec_lo));
}

/// Appends a checked value `v` of `c` (any type, nested ones recursively) to `b`.
Status AppendNestedValue(const row::ColumnType& c, const Value& v, arrow::ArrayBuilder* b) {
  auto ok = [&](const arrow::Status& st) {
    return st.ok() ? Status::OK() : Status::Internal("appending to column '" + c.name + "': " + st.ToString());
  };
  if (v.kind == Value::Kind::kNull) return ok(b->AppendNull());
  switch (c.type.root) {
    case TypeRoot::kArray: {
      auto* list = static_cast<arrow::ListBuilder*>(b);
      FLUSS_RETURN_NOT_OK(ok(list->Append()));
      for (size_t k = 0; k < v.count; ++k)
        FLUSS_RETURN_NOT_OK(AppendNestedValue(c.type.children[0], v.items[k], list->value_builder()));
      return Status::OK();
    }
    case TypeRoot::kMap: {
      auto* map = static_cast<arrow::MapBuilder*>(b);
      FLUSS_RETURN_NOT_OK(ok(map->Append()));
      for (size_t k = 0; k < v.count; ++k) {
        FLUSS_RETURN_NOT_OK(AppendNestedValue(c.type.children[0], v.items[2 * k], map->key_builder()));
        FLUSS_RETURN_NOT_OK(AppendNestedValue(c.type.children[1], v.items[2 * k + 1], map->item_builder()));
      }
      return Status::OK();
    }
    case TypeRoot::kRow: {
      auto* row = static_cast<arrow::StructBuilder*>(b);
      for (size_t k = 0; k < v.count; ++k)
        FLUSS_RETURN_NOT_OK(AppendNestedValue(c.type.children[k], v.items[k], row->field_builder(static_cast<int>(k))));
      return ok(row->Append());
    }
    default: {
      // Leaves go through the Fluss units (datum.h), as the row formats' values do.
      row::Datum d;
      FLUSS_RETURN_NOT_OK(row::DatumFromValue(c, v, &d));
      return row::AppendDatum(c, d, row::RowFormat::kCompacted, b);
    }
  }
}

/// Rough encoded bytes of a nested value: 8 per leaf plus the bytes of byte strings.
int64_t NestedBytes(const Value& v) {
  if (v.kind == Value::Kind::kNull) return 1;
  if (v.kind != Value::Kind::kArray && v.kind != Value::Kind::kMap && v.kind != Value::Kind::kRow)
    return 8 + static_cast<int64_t>(v.s.size());
  const size_t n = v.kind == Value::Kind::kMap ? 2 * v.count : v.count;
  int64_t bytes = 8;
  for (size_t k = 0; k < n; ++k) bytes += NestedBytes(v.items[k]);
  return bytes;
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
        case TypeRoot::kArray:
        case TypeRoot::kMap:
        case TypeRoot::kRow: break;  // nested_
      }
    }
    append_.push_back(fn);
    fixed_width_.push_back(width);
    nested_.push_back(type.ok() && type->is_nested() ? std::optional<row::ColumnType>(row::ColumnType{f->name(), *type})
                                                     : std::nullopt);
  }
}

Status RowBatchBuilder::Reserve() {
  // Doubling, so a batch of n rows grows each builder log2(n) times rather than checking
  // (out of line, in Arrow) on every value.
  const int64_t capacity = capacity_ == 0 ? kFirstCapacity : 2 * capacity_;
  for (size_t i = 0; i < builders_.size(); ++i) {
    if (nested_[i]) continue;  // appended with checks
    auto st = builders_[i]->Reserve(capacity - num_rows_);
    if (!st.ok()) return Status::Internal("reserving room for " + std::to_string(capacity) + " rows: " + st.ToString());
  }
  capacity_ = capacity;
  return Status::OK();
}

Result<int64_t> RowBatchBuilder::Append(const Value* values) {
  if (num_rows_ == capacity_) FLUSS_RETURN_NOT_OK(Reserve());
  int64_t bytes = 0;
  for (size_t i = 0; i < builders_.size(); ++i) {
    if (nested_[i]) {
      FLUSS_RETURN_NOT_OK(AppendNestedValue(*nested_[i], values[i], builders_[i].get()));
      bytes += NestedBytes(values[i]);
      continue;
    }
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
  capacity_ = 0;  // a finished Arrow builder is left empty, without capacity
  estimated_bytes_ = 0;
  return rb;
}

}  // namespace fluss::write
