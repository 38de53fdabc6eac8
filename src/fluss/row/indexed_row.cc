#include "fluss/row/indexed_row.h"

#include <charconv>
#include <cstring>
#include <limits>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/key_value_metadata.h>

#include "fluss/util/bytes.h"

namespace fluss::row {

using util::GetLe;
using Kind = IndexedRowCodec::Kind;
using Column = IndexedRowCodec::Column;

namespace {

constexpr int64_t kMillisPerSecond = 1000;
constexpr int64_t kMicrosPerMilli = 1000;
constexpr int64_t kNanosPerMilli = 1000000;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

template <typename T>
void AppendLe(std::string* out, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out->append(buf, sizeof(T));
}

Status FromArrow(const arrow::Status& st, const Column& c) {
  return Status::Internal("appending to column '" + c.name + "': " + st.ToString());
}

/// Epoch value in `unit` -> (epoch millis floored, nano-of-milli in 0..999999).
bool TimestampToMillis(int64_t v, arrow::TimeUnit::type unit, int64_t* millis, int32_t* nanos) {
  switch (unit) {
    case arrow::TimeUnit::SECOND:
      *nanos = 0;
      return !__builtin_mul_overflow(v, kMillisPerSecond, millis);
    case arrow::TimeUnit::MILLI:
      *millis = v;
      *nanos = 0;
      return true;
    case arrow::TimeUnit::MICRO:
      *millis = FloorDiv(v, kMicrosPerMilli);
      *nanos = static_cast<int32_t>(FloorMod(v, kMicrosPerMilli) * 1000);
      return true;
    case arrow::TimeUnit::NANO:
      *millis = FloorDiv(v, kNanosPerMilli);
      *nanos = static_cast<int32_t>(FloorMod(v, kNanosPerMilli));
      return true;
  }
  return false;
}

/// (epoch millis, nano-of-milli) -> epoch value in `unit` (floored for seconds).
bool TimestampFromMillis(int64_t millis, int32_t nanos, arrow::TimeUnit::type unit, int64_t* v) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: *v = FloorDiv(millis, kMillisPerSecond); return true;
    case arrow::TimeUnit::MILLI: *v = millis; return true;
    case arrow::TimeUnit::MICRO: {
      int64_t m;
      if (__builtin_mul_overflow(millis, kMicrosPerMilli, &m)) return false;
      return !__builtin_add_overflow(m, nanos / 1000, v);
    }
    case arrow::TimeUnit::NANO: {
      int64_t m;
      if (__builtin_mul_overflow(millis, kNanosPerMilli, &m)) return false;
      return !__builtin_add_overflow(m, int64_t{nanos}, v);
    }
  }
  return false;
}

/// TIME value in `unit` -> milliseconds of day (sub-millisecond part dropped).
bool TimeToMillis(int64_t v, arrow::TimeUnit::type unit, int32_t* ms) {
  int64_t m = 0;
  switch (unit) {
    case arrow::TimeUnit::SECOND:
      if (__builtin_mul_overflow(v, kMillisPerSecond, &m)) return false;
      break;
    case arrow::TimeUnit::MILLI: m = v; break;
    case arrow::TimeUnit::MICRO: m = FloorDiv(v, kMicrosPerMilli); break;
    case arrow::TimeUnit::NANO: m = FloorDiv(v, kNanosPerMilli); break;
  }
  if (m < std::numeric_limits<int32_t>::min() || m > std::numeric_limits<int32_t>::max()) return false;
  *ms = static_cast<int32_t>(m);
  return true;
}

int64_t TimeFromMillis(int32_t ms, arrow::TimeUnit::type unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return FloorDiv(ms, kMillisPerSecond);
    case arrow::TimeUnit::MILLI: return ms;
    case arrow::TimeUnit::MICRO: return int64_t{ms} * kMicrosPerMilli;
    case arrow::TimeUnit::NANO: return int64_t{ms} * kNanosPerMilli;
  }
  return ms;
}

/// 128-bit two's complement -> minimal big-endian two's complement (Java BigInteger.toByteArray:
/// at least one byte, 0 -> 00).
void AppendDecimalBytes(int64_t hi, uint64_t lo, std::string* out) {
  uint8_t be[16];
  for (int k = 0; k < 8; ++k) {
    be[k] = static_cast<uint8_t>(static_cast<uint64_t>(hi) >> (56 - 8 * k));
    be[8 + k] = static_cast<uint8_t>(lo >> (56 - 8 * k));
  }
  int s = 0;
  while (s < 15 && ((be[s] == 0x00 && (be[s + 1] & 0x80) == 0) || (be[s] == 0xFF && (be[s + 1] & 0x80) != 0)))
    ++s;
  out->append(reinterpret_cast<const char*>(be + s), 16 - s);
}

/// Big-endian two's complement of 1..16 bytes -> arrow::Decimal128 (sign-extended).
arrow::Decimal128 DecimalFromBytes(const uint8_t* p, size_t n) {
  uint8_t be[16];
  const uint8_t fill = (p[0] & 0x80) ? 0xFF : 0x00;
  std::memset(be, fill, 16 - n);
  std::memcpy(be + 16 - n, p, n);
  uint64_t hi = 0, lo = 0;
  for (int k = 0; k < 8; ++k) {
    hi = (hi << 8) | be[k];
    lo = (lo << 8) | be[8 + k];
  }
  return arrow::Decimal128(static_cast<int64_t>(hi), lo);
}

Status Mismatch(const Column& c, const Value& v) {
  static const char* kNames[] = {"null", "bool", "int", "double", "bytes", "decimal"};
  return Status::InvalidArgument("column '" + c.name + "': a " + kNames[static_cast<int>(v.kind)] +
                                 " value does not fit its type");
}

Status EncodeValue(const Column& c, const Value& v, std::string* out, size_t* var_slot) {
  using K = Value::Kind;
  auto var_length = [&](size_t len) -> Status {
    if (len > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
      return Status::InvalidArgument("column '" + c.name + "': value of " + std::to_string(len) +
                                     " bytes is too large");
    util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(out->data()) + *var_slot, static_cast<int32_t>(len));
    *var_slot += 4;
    return Status::OK();
  };
  switch (c.kind) {
    case Kind::kBool:
      if (v.kind != K::kBool) return Mismatch(c, v);
      out->push_back(v.b ? 1 : 0);
      return Status::OK();
    case Kind::kInt8:
      if (v.kind != K::kInt64) return Mismatch(c, v);
      AppendLe<int8_t>(out, static_cast<int8_t>(v.i));
      return Status::OK();
    case Kind::kInt16:
      if (v.kind != K::kInt64) return Mismatch(c, v);
      AppendLe<int16_t>(out, static_cast<int16_t>(v.i));
      return Status::OK();
    case Kind::kInt32:
    case Kind::kDate:
      if (v.kind != K::kInt64) return Mismatch(c, v);
      AppendLe<int32_t>(out, static_cast<int32_t>(v.i));
      return Status::OK();
    case Kind::kInt64:
      if (v.kind != K::kInt64) return Mismatch(c, v);
      AppendLe<int64_t>(out, v.i);
      return Status::OK();
    case Kind::kFloat:
      if (v.kind == K::kDouble) AppendLe<float>(out, static_cast<float>(v.d));
      else if (v.kind == K::kInt64) AppendLe<float>(out, static_cast<float>(v.i));
      else return Mismatch(c, v);
      return Status::OK();
    case Kind::kDouble:
      if (v.kind == K::kDouble) AppendLe<double>(out, v.d);
      else if (v.kind == K::kInt64) AppendLe<double>(out, static_cast<double>(v.i));
      else return Mismatch(c, v);
      return Status::OK();
    case Kind::kString:
    case Kind::kBytes:
      if (v.kind != K::kBytes) return Mismatch(c, v);
      FLUSS_RETURN_NOT_OK(var_length(v.s.size()));
      out->append(v.s.data(), v.s.size());
      return Status::OK();
    case Kind::kChar:
    case Kind::kFixedBinary:
      if (v.kind != K::kBytes) return Mismatch(c, v);
      if (v.s.size() > static_cast<size_t>(c.width))
        return Status::InvalidArgument("column '" + c.name + "' (" +
                                       (c.kind == Kind::kChar ? "char(" : "binary(") +
                                       std::to_string(c.width) + ")): value has " +
                                       std::to_string(v.s.size()) + " bytes");
      out->append(v.s.data(), v.s.size());
      out->append(static_cast<size_t>(c.width) - v.s.size(), '\0');
      return Status::OK();
    case Kind::kDecimalCompact: {
      if (v.kind != K::kDecimal) return Mismatch(c, v);
      const int64_t lo = static_cast<int64_t>(v.dec_lo);
      if (v.dec_hi != (lo < 0 ? -1 : 0))
        return Status::InvalidArgument("column '" + c.name + "': decimal value does not fit its precision");
      AppendLe<int64_t>(out, lo);
      return Status::OK();
    }
    case Kind::kDecimalBytes: {
      if (v.kind != K::kDecimal) return Mismatch(c, v);
      const size_t before = out->size();
      AppendDecimalBytes(v.dec_hi, v.dec_lo, out);
      return var_length(out->size() - before);
    }
    case Kind::kTime: {
      if (v.kind != K::kInt64) return Mismatch(c, v);
      int32_t ms;
      if (!TimeToMillis(v.i, static_cast<arrow::TimeUnit::type>(c.unit), &ms))
        return Status::InvalidArgument("column '" + c.name + "': time value " + std::to_string(v.i) +
                                       " is out of range");
      AppendLe<int32_t>(out, ms);
      return Status::OK();
    }
    case Kind::kTimestampCompact:
    case Kind::kTimestamp: {
      if (v.kind != K::kInt64) return Mismatch(c, v);
      int64_t millis;
      int32_t nanos;
      if (!TimestampToMillis(v.i, static_cast<arrow::TimeUnit::type>(c.unit), &millis, &nanos))
        return Status::InvalidArgument("column '" + c.name + "': timestamp value " + std::to_string(v.i) +
                                       " is out of range");
      AppendLe<int64_t>(out, millis);
      if (c.kind == Kind::kTimestamp) AppendLe<int32_t>(out, nanos);
      return Status::OK();
    }
  }
  return Status::Internal("column '" + c.name + "': unhandled kind");
}

template <typename B, typename... Args>
Status AppendTo(arrow::ArrayBuilder* b, const Column& c, Args&&... args) {
  auto st = static_cast<B*>(b)->Append(std::forward<Args>(args)...);
  return st.ok() ? Status::OK() : FromArrow(st, c);
}

/// Appends the value of column `c` stored at `p` (`len` bytes, already bounds-checked).
Status DecodeValue(const Column& c, const uint8_t* p, size_t len, arrow::ArrayBuilder* b) {
  switch (c.kind) {
    case Kind::kBool: return AppendTo<arrow::BooleanBuilder>(b, c, p[0] != 0);
    case Kind::kInt8: return AppendTo<arrow::Int8Builder>(b, c, GetLe<int8_t>(p));
    case Kind::kInt16: return AppendTo<arrow::Int16Builder>(b, c, GetLe<int16_t>(p));
    case Kind::kInt32: return AppendTo<arrow::Int32Builder>(b, c, GetLe<int32_t>(p));
    case Kind::kInt64: return AppendTo<arrow::Int64Builder>(b, c, GetLe<int64_t>(p));
    case Kind::kFloat: return AppendTo<arrow::FloatBuilder>(b, c, GetLe<float>(p));
    case Kind::kDouble: return AppendTo<arrow::DoubleBuilder>(b, c, GetLe<double>(p));
    case Kind::kDate: return AppendTo<arrow::Date32Builder>(b, c, GetLe<int32_t>(p));
    case Kind::kString:
    case Kind::kChar: {
      if (c.kind == Kind::kChar)  // strip the 0x00 padding (Java IndexedRow.getChar)
        while (len > 0 && p[len - 1] == 0) --len;
      std::string_view s(reinterpret_cast<const char*>(p), len);
      return c.large ? AppendTo<arrow::LargeStringBuilder>(b, c, s) : AppendTo<arrow::StringBuilder>(b, c, s);
    }
    case Kind::kBytes: {
      std::string_view s(reinterpret_cast<const char*>(p), len);
      return c.large ? AppendTo<arrow::LargeBinaryBuilder>(b, c, s) : AppendTo<arrow::BinaryBuilder>(b, c, s);
    }
    case Kind::kFixedBinary: return AppendTo<arrow::FixedSizeBinaryBuilder>(b, c, p);
    case Kind::kDecimalCompact:
      return AppendTo<arrow::Decimal128Builder>(b, c, arrow::Decimal128(GetLe<int64_t>(p)));
    case Kind::kDecimalBytes: return AppendTo<arrow::Decimal128Builder>(b, c, DecimalFromBytes(p, len));
    case Kind::kTime: {
      const int64_t v = TimeFromMillis(GetLe<int32_t>(p), static_cast<arrow::TimeUnit::type>(c.unit));
      if (c.arrow_type_id == arrow::Type::TIME32)
        return AppendTo<arrow::Time32Builder>(b, c, static_cast<int32_t>(v));
      return AppendTo<arrow::Time64Builder>(b, c, v);
    }
    case Kind::kTimestampCompact:
    case Kind::kTimestamp: {
      const int64_t millis = GetLe<int64_t>(p);
      const int32_t nanos = c.kind == Kind::kTimestamp ? GetLe<int32_t>(p + 8) : 0;
      int64_t v = 0;
      TimestampFromMillis(millis, nanos, static_cast<arrow::TimeUnit::type>(c.unit), &v);  // checked before
      return AppendTo<arrow::TimestampBuilder>(b, c, v);
    }
  }
  return Status::Internal("column '" + c.name + "': unhandled kind");
}

}  // namespace

Result<IndexedRowCodec> IndexedRowCodec::Make(const arrow::Schema& schema) {
  IndexedRowCodec codec;
  codec.columns_.reserve(static_cast<size_t>(schema.num_fields()));
  for (const auto& f : schema.fields()) {
    const auto& type = *f->type();
    Column c;
    c.arrow_type_id = type.id();
    c.name = f->name();
    c.nullable = f->nullable();
    switch (type.id()) {
      case arrow::Type::BOOL: c.kind = Kind::kBool; c.width = 1; break;
      case arrow::Type::INT8: c.kind = Kind::kInt8; c.width = 1; break;
      case arrow::Type::INT16: c.kind = Kind::kInt16; c.width = 2; break;
      case arrow::Type::INT32: c.kind = Kind::kInt32; c.width = 4; break;
      case arrow::Type::INT64: c.kind = Kind::kInt64; c.width = 8; break;
      case arrow::Type::FLOAT: c.kind = Kind::kFloat; c.width = 4; break;
      case arrow::Type::DOUBLE: c.kind = Kind::kDouble; c.width = 8; break;
      case arrow::Type::DATE32: c.kind = Kind::kDate; c.width = 4; break;
      case arrow::Type::STRING:
      case arrow::Type::LARGE_STRING: {
        c.large = type.id() == arrow::Type::LARGE_STRING;
        c.kind = Kind::kString;
        if (f->metadata()) {
          auto n = f->metadata()->Get(kCharLengthMetadataKey);
          if (n.ok()) {
            int32_t len = 0;
            const std::string& t = *n;
            auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), len);
            if (ec != std::errc() || ptr != t.data() + t.size() || len <= 0)
              return Status::InvalidArgument("column '" + c.name + "': bad " + kCharLengthMetadataKey +
                                             " '" + t + "'");
            c.kind = Kind::kChar;
            c.width = len;
          }
        }
        break;
      }
      case arrow::Type::BINARY:
      case arrow::Type::LARGE_BINARY:
        c.large = type.id() == arrow::Type::LARGE_BINARY;
        c.kind = Kind::kBytes;
        break;
      case arrow::Type::FIXED_SIZE_BINARY:
        c.kind = Kind::kFixedBinary;
        c.width = static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width();
        break;
      case arrow::Type::DECIMAL128: {
        const int precision = static_cast<const arrow::Decimal128Type&>(type).precision();
        if (precision <= 18) {
          c.kind = Kind::kDecimalCompact;
          c.width = 8;
        } else {
          c.kind = Kind::kDecimalBytes;
        }
        break;
      }
      case arrow::Type::TIME32:
      case arrow::Type::TIME64:
        c.kind = Kind::kTime;
        c.width = 4;
        c.unit = static_cast<const arrow::TimeType&>(type).unit();
        break;
      case arrow::Type::TIMESTAMP: {
        c.unit = static_cast<const arrow::TimestampType&>(type).unit();
        // Precision 0 (s) and 3 (ms) are compact (<= 3); 6 (us) and 9 (ns) are not.
        if (c.unit == arrow::TimeUnit::SECOND || c.unit == arrow::TimeUnit::MILLI) {
          c.kind = Kind::kTimestampCompact;
          c.width = 8;
        } else {
          c.kind = Kind::kTimestamp;
          c.width = 12;
        }
        break;
      }
      default:
        return Status::InvalidArgument("column '" + c.name + "': Arrow type " + type.ToString() +
                                       " has no IndexedRow encoding in this client");
    }
    if (c.width == 0) ++codec.num_variable_;
    codec.columns_.push_back(std::move(c));
  }
  codec.bitmap_bytes_ = (codec.columns_.size() + 7) / 8;
  return codec;
}

Status IndexedRowCodec::Encode(const Value* values, std::string* out) const {
  const size_t start = out->size();
  out->append(header_size(), '\0');
  size_t var_slot = start + bitmap_bytes_;  // next free slot of the variable-length list
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column& c = columns_[i];
    const Value& v = values[i];
    if (v.kind == Value::Kind::kNull) {
      if (!c.nullable) {
        out->resize(start);
        return Status::InvalidArgument("column '" + c.name + "' is NOT NULL but the value is null");
      }
      (*out)[start + (i >> 3)] = static_cast<char>((*out)[start + (i >> 3)] | (1 << (i & 7)));
      continue;  // a null contributes no bytes and no variable-length slot
    }
    Status st = EncodeValue(c, v, out, &var_slot);
    if (!st.ok()) {
      out->resize(start);
      return st;
    }
  }
  return Status::OK();
}

Status IndexedRowCodec::CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const {
  if (builders.size() != columns_.size())
    return Status::InvalidArgument("IndexedRow decode: " + std::to_string(builders.size()) +
                                   " builders for " + std::to_string(columns_.size()) + " fields");
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (builders[i] == nullptr || builders[i]->type()->id() != columns_[i].arrow_type_id)
      return Status::InvalidArgument("IndexedRow decode: the builder of column '" + columns_[i].name +
                                     "' does not have the field's type");
  }
  return Status::OK();
}

Status IndexedRowCodec::Decode(const uint8_t* data, size_t size,
                               const std::vector<arrow::ArrayBuilder*>& builders) const {
  if (builders.size() != columns_.size()) return CheckBuilders(builders);
  const size_t header = header_size();
  if (size < header)
    return Status::Protocol("IndexedRow of " + std::to_string(size) + " bytes is shorter than its " +
                            std::to_string(header) + "-byte header");
  auto is_null = [&](size_t i) { return (data[i >> 3] >> (i & 7)) & 1; };
  auto corrupt = [&](const Column& c, const std::string& what) {
    return Status::Protocol("IndexedRow column '" + c.name + "': " + what);
  };

  // Pass 1: walk the fields, taking the next variable-length slot for each non-null
  // variable-length value, and check every length and value before touching a builder.
  size_t pos = header;
  size_t var_slot = bitmap_bytes_;
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column& c = columns_[i];
    if (is_null(i)) {
      if (!c.nullable) return corrupt(c, "null in a NOT NULL column");
      continue;
    }
    size_t len;
    if (c.width > 0) {
      len = static_cast<size_t>(c.width);
    } else {
      const int32_t n = GetLe<int32_t>(data + var_slot);
      var_slot += 4;
      if (n < 0) return corrupt(c, "negative length " + std::to_string(n));
      len = static_cast<size_t>(n);
      if (c.kind == Kind::kDecimalBytes && (len == 0 || len > 16))
        return corrupt(c, "decimal of " + std::to_string(len) + " bytes");
    }
    if (len > size - pos) return corrupt(c, "value runs past the end of the row");
    if (c.kind == Kind::kTimestamp || c.kind == Kind::kTimestampCompact) {
      const int64_t millis = GetLe<int64_t>(data + pos);
      const int32_t nanos = c.kind == Kind::kTimestamp ? GetLe<int32_t>(data + pos + 8) : 0;
      int64_t v;
      if (nanos < 0 || nanos >= kNanosPerMilli) return corrupt(c, "nano-of-millisecond " + std::to_string(nanos));
      if (!TimestampFromMillis(millis, nanos, static_cast<arrow::TimeUnit::type>(c.unit), &v))
        return corrupt(c, "timestamp " + std::to_string(millis) + " ms does not fit the column unit");
    }
    pos += len;
  }
  if (pos != size)
    return Status::Protocol("IndexedRow has " + std::to_string(size - pos) +
                            " bytes after its last field (schema mismatch?)");

  // Pass 2: append.
  pos = header;
  var_slot = bitmap_bytes_;
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column& c = columns_[i];
    if (is_null(i)) {
      auto st = builders[i]->AppendNull();
      if (!st.ok()) return FromArrow(st, c);
      continue;
    }
    size_t len;
    if (c.width > 0) {
      len = static_cast<size_t>(c.width);
    } else {
      len = static_cast<size_t>(GetLe<int32_t>(data + var_slot));
      var_slot += 4;
    }
    FLUSS_RETURN_NOT_OK(DecodeValue(c, data + pos, len, builders[i]));
    pos += len;
  }
  return Status::OK();
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

Status RowValuesFromArrow(const arrow::RecordBatch& batch, int64_t row, std::vector<Value>* out,
                          std::vector<std::string>* scratch) {
  if (row < 0 || row >= batch.num_rows())
    return Status::InvalidArgument("row " + std::to_string(row) + " is outside the batch of " +
                                   std::to_string(batch.num_rows()) + " rows");
  const int n = batch.num_columns();
  out->resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const arrow::Array& a = *batch.column(i);
    Value& v = (*out)[static_cast<size_t>(i)];
    if (a.IsNull(row)) {
      v = Value::Null();
      continue;
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
      default:
        return Status::InvalidArgument("column '" + batch.schema()->field(i)->name() + "': Arrow type " +
                                       a.type()->ToString() + " has no row value mapping");
    }
  }
  (void)scratch;
  return Status::OK();
}

}  // namespace fluss::row
