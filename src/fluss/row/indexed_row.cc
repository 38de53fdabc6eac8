#include "fluss/row/indexed_row.h"

#include <limits>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "fluss/row/nested_codec.h"
#include "fluss/util/bytes.h"

namespace fluss::row {

using util::AppendLe;
using util::GetLe;

namespace {

/// Bytes of a fixed-width IndexedRow value of `t`; 0 for the variable-length types.
int32_t FixedWidth(const DataType& t) {
  if (const int width = FixedScalarWidth(t.root)) return width;
  switch (t.root) {
    case TypeRoot::kChar:
    case TypeRoot::kBinary: return t.length;
    case TypeRoot::kDecimal: return t.compact() ? 8 : 0;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: return t.compact() ? 8 : 12;
    case TypeRoot::kString:
    case TypeRoot::kBytes:
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: return 0;
    default: return 0;
  }
}

size_t NumVariable(const std::vector<ColumnType>& columns) {
  size_t n = 0;
  for (const ColumnType& c : columns) n += FixedWidth(c.type) == 0;
  return n;
}

/// Appends the IndexedRow bytes of `d`; for a variable-length value also writes its length into
/// the next slot of the variable-length list at `*var_slot`.
Status PutValue(const ColumnType& c, const Datum& d, std::string* out, size_t* var_slot) {
  const DataType& t = c.type;
  auto var_length = [&](size_t len) {
    util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(out->data()) + *var_slot, static_cast<int32_t>(len));
    *var_slot += 4;
  };
  if (const int width = FixedScalarWidth(t.root)) {
    const size_t at = out->size();
    out->resize(at + static_cast<size_t>(width));
    PutFixedScalar(t.root, d, reinterpret_cast<uint8_t*>(out->data()) + at);
    return Status::OK();
  }
  switch (t.root) {
    case TypeRoot::kString:
    case TypeRoot::kBytes:
      var_length(d.bytes.size());
      out->append(d.bytes);
      return Status::OK();
    case TypeRoot::kChar:
    case TypeRoot::kBinary:  // fixed n bytes, 0x00-padded
      out->append(d.bytes);
      out->append(static_cast<size_t>(t.length) - d.bytes.size(), '\0');
      return Status::OK();
    case TypeRoot::kDecimal:
      if (t.compact()) {
        AppendLe<int64_t>(out, d.i);
      } else {
        var_length(util::AppendMinimalBigEndian(out, d.dec_hi, d.dec_lo));
      }
      return Status::OK();
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      AppendLe<int64_t>(out, d.i);
      if (!t.compact()) AppendLe<int32_t>(out, d.nanos);
      return Status::OK();
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: {
      const size_t before = out->size();
      FLUSS_RETURN_NOT_OK(AppendNestedBytes(c, *d.nested, RowFormat::kIndexed, out));
      var_length(out->size() - before);
      return Status::OK();
    }
    default: break;  // the fixed-width scalars, above
  }
  return Status::OK();
}

/// Reads the value of `t` stored at `p` (`len` bytes, bounds-checked by the caller).
bool GetValue(const DataType& t, const uint8_t* p, size_t len, Datum* d) {
  *d = Datum{};
  if (FixedScalarWidth(t.root) > 0) {
    GetFixedScalar(t.root, p, d);
    return true;
  }
  switch (t.root) {
    case TypeRoot::kChar:  // strip the 0x00 padding (Java IndexedRow.getChar)
      while (len > 0 && p[len - 1] == 0) --len;
      [[fallthrough]];
    case TypeRoot::kString:
    case TypeRoot::kBytes:
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow:
    case TypeRoot::kBinary:  // all n bytes: Arrow's fixed_size_binary(n) has no shorter values
      d->bytes = std::string_view(reinterpret_cast<const char*>(p), len);
      return true;
    case TypeRoot::kDecimal:
      if (t.compact()) {
        d->i = GetLe<int64_t>(p);
        d->dec_lo = static_cast<uint64_t>(d->i);
        d->dec_hi = d->i < 0 ? -1 : 0;
        return true;
      }
      return util::ReadBigEndianTwosComplement(p, len, &d->dec_hi, &d->dec_lo);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      d->i = GetLe<int64_t>(p);
      d->nanos = t.compact() ? 0 : GetLe<int32_t>(p + 8);
      return true;
    default: break;  // the fixed-width scalars, above
  }
  return false;
}

}  // namespace

Status EncodeIndexedFields(const std::vector<ColumnType>& columns, const Value* values, std::string* out) {
  const size_t start = out->size();
  const size_t bitmap = (columns.size() + 7) / 8;
  out->append(bitmap + 4 * NumVariable(columns), '\0');
  size_t var_slot = start + bitmap;  // next free slot of the variable-length list
  return EncodeRowFields(columns, values, out, start,
                         [&](size_t i, const Datum& d) { return PutValue(columns[i], d, out, &var_slot); });
}

Status DecodeIndexedFields(const std::vector<ColumnType>& columns, const uint8_t* data, size_t size,
                           const std::vector<arrow::ArrayBuilder*>* builders, std::vector<Datum>* datums) {
  const size_t bitmap = (columns.size() + 7) / 8;
  const size_t header = bitmap + 4 * NumVariable(columns);
  if (size < header)
    return Status::Protocol("IndexedRow of " + std::to_string(size) + " bytes is shorter than its " +
                            std::to_string(header) + "-byte header");
  auto is_null = [&](size_t i) { return (data[i >> 3] >> (i & 7)) & 1; };
  auto corrupt = [&](const ColumnType& c, const std::string& what) {
    return Status::Protocol("IndexedRow column '" + c.name + "': " + what);
  };

  // Pass 1: walk the fields, taking the next variable-length slot for each non-null
  // variable-length value, and read and check every value before touching a builder.
  datums->resize(columns.size());
  size_t pos = header;
  size_t var_slot = bitmap;
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnType& c = columns[i];
    if (is_null(i)) {
      if (!c.type.nullable) return corrupt(c, "null in a NOT NULL column");
      continue;
    }
    size_t len;
    const int32_t width = FixedWidth(c.type);
    if (width > 0) {
      len = static_cast<size_t>(width);
    } else {
      const int32_t n = GetLe<int32_t>(data + var_slot);
      var_slot += 4;
      if (n < 0) return corrupt(c, "negative length " + std::to_string(n));
      len = static_cast<size_t>(n);
    }
    if (len > size - pos) return corrupt(c, "value runs past the end of the row");
    if (!GetValue(c.type, data + pos, len, &(*datums)[i])) return corrupt(c, "decimal of " + std::to_string(len) + " bytes");
    FLUSS_RETURN_NOT_OK(CheckDatumForBuilder(c, (*datums)[i], RowFormat::kIndexed));
    pos += len;
  }
  if (pos != size)
    return Status::Protocol("IndexedRow has " + std::to_string(size - pos) +
                            " bytes after its last field (schema mismatch?)");
  if (!builders) return Status::OK();
  return AppendRow(columns, data, *datums, RowFormat::kIndexed, *builders);  // pass 2
}

Result<IndexedRowCodec> IndexedRowCodec::Make(const arrow::Schema& schema) {
  IndexedRowCodec codec;
  FLUSS_ASSIGN_OR_RETURN(codec.columns_, ColumnTypesOf(schema));
  codec.num_variable_ = NumVariable(codec.columns_);
  codec.bitmap_bytes_ = (codec.columns_.size() + 7) / 8;
  return codec;
}

Status IndexedRowCodec::Encode(const Value* values, std::string* out) const {
  return EncodeIndexedFields(columns_, values, out);
}

Status IndexedRowCodec::CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const {
  return row::CheckBuilders(columns_, builders, "IndexedRow decode");
}

Status IndexedRowCodec::Decode(const uint8_t* data, size_t size,
                               const std::vector<arrow::ArrayBuilder*>& builders) const {
  if (builders.size() != columns_.size()) return CheckBuilders(builders);
  thread_local std::vector<Datum> datums;
  return DecodeIndexedFields(columns_, data, size, &builders, &datums);
}

Status EncodeIndexedRow(const arrow::Schema& schema, const Value* values, std::string* out) {
  FLUSS_ASSIGN_OR_RETURN(auto codec, IndexedRowCodec::Make(schema));
  return codec.Encode(values, out);
}

Status DecodeIndexedRow(const arrow::Schema& schema, const uint8_t* data, size_t size,
                        const std::vector<arrow::ArrayBuilder*>& builders) {
  FLUSS_ASSIGN_OR_RETURN(auto codec, IndexedRowCodec::Make(schema));
  FLUSS_RETURN_NOT_OK(codec.CheckBuilders(builders));
  return codec.Decode(data, size, builders);
}

Status ValueFromArrow(const arrow::Array& a, int64_t row, const std::string& column, Value* out, ValueArena* arena) {
  Value& v = *out;
  if (a.IsNull(row)) {
    v = Value::Null();
    return Status::OK();
  }
  switch (a.type_id()) {
    case arrow::Type::BOOL: v = Value::Bool(static_cast<const arrow::BooleanArray&>(a).Value(row)); break;
    case arrow::Type::INT8: v = Value::Int(static_cast<const arrow::Int8Array&>(a).Value(row)); break;
    case arrow::Type::INT16: v = Value::Int(static_cast<const arrow::Int16Array&>(a).Value(row)); break;
    case arrow::Type::INT32: v = Value::Int(static_cast<const arrow::Int32Array&>(a).Value(row)); break;
    case arrow::Type::INT64: v = Value::Int(static_cast<const arrow::Int64Array&>(a).Value(row)); break;
    case arrow::Type::FLOAT: v = Value::Double(static_cast<const arrow::FloatArray&>(a).Value(row)); break;
    case arrow::Type::DOUBLE: v = Value::Double(static_cast<const arrow::DoubleArray&>(a).Value(row)); break;
    case arrow::Type::DATE32: v = Value::Int(static_cast<const arrow::Date32Array&>(a).Value(row)); break;
    case arrow::Type::TIME32: v = Value::Int(static_cast<const arrow::Time32Array&>(a).Value(row)); break;
    case arrow::Type::TIME64: v = Value::Int(static_cast<const arrow::Time64Array&>(a).Value(row)); break;
    case arrow::Type::TIMESTAMP: v = Value::Int(static_cast<const arrow::TimestampArray&>(a).Value(row)); break;
    case arrow::Type::STRING: v = Value::Bytes(static_cast<const arrow::StringArray&>(a).GetView(row)); break;
    case arrow::Type::LARGE_STRING:
      v = Value::Bytes(static_cast<const arrow::LargeStringArray&>(a).GetView(row));
      break;
    case arrow::Type::BINARY: v = Value::Bytes(static_cast<const arrow::BinaryArray&>(a).GetView(row)); break;
    case arrow::Type::LARGE_BINARY:
      v = Value::Bytes(static_cast<const arrow::LargeBinaryArray&>(a).GetView(row));
      break;
    case arrow::Type::FIXED_SIZE_BINARY:
      v = Value::Bytes(static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(row));
      break;
    case arrow::Type::DECIMAL128: {
      // Arrow stores a decimal128 as 16 bytes little-endian: low 64 bits, then high 64 bits.
      const uint8_t* p = static_cast<const arrow::Decimal128Array&>(a).GetValue(row);
      v = Value::Decimal(GetLe<int64_t>(p + 8), GetLe<uint64_t>(p));
      break;
    }
    case arrow::Type::LIST:
    case arrow::Type::MAP: {
      if (!arena) break;
      // (MapArray is a ListArray of key/value structs: the same offsets)
      const auto& list = static_cast<const arrow::ListArray&>(a);
      const int64_t first = list.value_offset(row);
      const size_t n = static_cast<size_t>(list.value_length(row));
      if (a.type_id() == arrow::Type::LIST) {
        Value* items = arena->Allocate(n);
        for (size_t k = 0; k < n; ++k)
          FLUSS_RETURN_NOT_OK(ValueFromArrow(*list.values(), first + static_cast<int64_t>(k), column, &items[k], arena));
        v = Value::Array(items, n);
      } else {
        const auto& map = static_cast<const arrow::MapArray&>(a);
        Value* items = arena->Allocate(2 * n);
        for (size_t k = 0; k < n; ++k) {
          const int64_t at = first + static_cast<int64_t>(k);
          FLUSS_RETURN_NOT_OK(ValueFromArrow(*map.keys(), at, column, &items[2 * k], arena));
          FLUSS_RETURN_NOT_OK(ValueFromArrow(*map.items(), at, column, &items[2 * k + 1], arena));
        }
        v = Value::Map(items, n);
      }
      return Status::OK();
    }
    case arrow::Type::STRUCT: {
      if (!arena) break;
      const auto& st = static_cast<const arrow::StructArray&>(a);
      const size_t n = static_cast<size_t>(st.num_fields());
      Value* items = arena->Allocate(n);
      // field(i) is the child adjusted to the struct array's own offset
      for (size_t k = 0; k < n; ++k)
        FLUSS_RETURN_NOT_OK(ValueFromArrow(*st.field(static_cast<int>(k)), row, column, &items[k], arena));
      v = Value::Row(items, n);
      return Status::OK();
    }
    default:
      break;
  }
  if (v.kind == Value::Kind::kNull && !a.IsNull(row))
    return Status::InvalidArgument("column '" + column + "': Arrow type " + a.type()->ToString() +
                                   " has no row value mapping");
  return Status::OK();
}

Status RowValuesFromArrow(const arrow::RecordBatch& batch, int64_t row, std::vector<Value>* out, ValueArena* arena) {
  if (row < 0 || row >= batch.num_rows())
    return Status::InvalidArgument("row " + std::to_string(row) + " is outside the batch of " +
                                   std::to_string(batch.num_rows()) + " rows");
  const int n = batch.num_columns();
  out->resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    FLUSS_RETURN_NOT_OK(
        ValueFromArrow(*batch.column(i), row, batch.schema()->field(i)->name(), &(*out)[static_cast<size_t>(i)], arena));
  return Status::OK();
}

}  // namespace fluss::row
