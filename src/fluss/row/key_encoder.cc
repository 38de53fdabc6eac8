#include "fluss/row/key_encoder.h"
#include "fluss/row/value_kinds.h"

#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include <cstring>
#include <limits>

namespace fluss::row {

namespace {


// Unsigned LEB128 of the two's-complement bit pattern (CompactedRowWriter.writeInt/writeLong):
// no zig-zag, so a negative int32 takes 5 bytes and a negative int64 10 bytes.
void PutVarint32(std::string* out, int32_t value) {
  auto v = static_cast<uint32_t>(value);
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void PutVarint64(std::string* out, int64_t value) {
  auto v = static_cast<uint64_t>(value);
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

template <typename T>
void PutLe(std::string* out, T value) {
  char buf[sizeof(T)];
  std::memcpy(buf, &value, sizeof(T));  // x86-64 / AArch64 are little-endian, as Java Unsafe
  out->append(buf, sizeof(T));
}

void PutLengthPrefixed(std::string* out, std::string_view bytes) {
  PutVarint32(out, static_cast<int32_t>(bytes.size()));
  out->append(bytes.data(), bytes.size());
}

// Java BigInteger.toByteArray of a 128-bit two's complement value: big-endian, minimal length
// that still carries the sign bit (0 -> 00, 128 -> 00 80, -1 -> ff, -100 -> 9c).
std::string MinimalBigEndian(int64_t hi, uint64_t lo) {
  uint8_t be[16];
  for (int i = 0; i < 8; ++i) {
    be[i] = static_cast<uint8_t>(static_cast<uint64_t>(hi) >> (56 - 8 * i));
    be[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
  }
  int start = 0;
  while (start < 15) {
    const bool redundant = (be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                           (be[start] == 0xFF && (be[start + 1] & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  return std::string(reinterpret_cast<const char*>(be + start), 16 - start);
}

// Floor division and modulo (Java Math.floorDiv / floorMod) for the epoch split of timestamps.
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

int64_t UnitsPerMilli(arrow::TimeUnit::type unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return 0;  // coarser than a millisecond
    case arrow::TimeUnit::MILLI: return 1;
    case arrow::TimeUnit::MICRO: return 1000;
    case arrow::TimeUnit::NANO: return 1000000;
  }
  return 1;
}



}  // namespace

Result<CompactedKeyEncoder> CompactedKeyEncoder::Create(std::shared_ptr<arrow::Schema> schema,
                                                        std::vector<int> key_columns) {
  if (!schema) return Status::InvalidArgument("key encoder: no schema");
  if (key_columns.empty()) return Status::InvalidArgument("key encoder: no key columns");
  std::vector<Column> columns;
  columns.reserve(key_columns.size());
  for (int index : key_columns) {
    if (index < 0 || index >= schema->num_fields())
      return Status::InvalidArgument("key encoder: key column index " + std::to_string(index) +
                                     " is out of range for a schema of " +
                                     std::to_string(schema->num_fields()) + " columns");
    const auto& field = *schema->field(index);
    const arrow::DataType& type = *field.type();
    Column c;
    c.index = index;
    switch (type.id()) {
      case arrow::Type::BOOL: c.kind = Kind::kBool; break;
      case arrow::Type::INT8: c.kind = Kind::kTinyInt; break;
      case arrow::Type::INT16: c.kind = Kind::kSmallInt; break;
      case arrow::Type::INT32: c.kind = Kind::kInt; break;
      case arrow::Type::DATE32: c.kind = Kind::kInt; break;
      case arrow::Type::INT64: c.kind = Kind::kBigInt; break;
      case arrow::Type::FLOAT: c.kind = Kind::kFloat; break;
      case arrow::Type::DOUBLE: c.kind = Kind::kDouble; break;
      case arrow::Type::STRING:
      case arrow::Type::BINARY: c.kind = Kind::kBytes; break;
      case arrow::Type::FIXED_SIZE_BINARY:
        c.kind = Kind::kFixedBinary;
        c.width = static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width();
        break;
      case arrow::Type::DECIMAL128: {
        const int32_t precision = static_cast<const arrow::Decimal128Type&>(type).precision();
        c.kind = precision <= 18 ? Kind::kDecimalCompact : Kind::kDecimal;
        c.width = precision;
        break;
      }
      case arrow::Type::TIME32:
      case arrow::Type::TIME64:
        c.kind = Kind::kTime;
        c.unit = static_cast<const arrow::TimeType&>(type).unit();
        break;
      case arrow::Type::TIMESTAMP:
        // Arrow unit -> Fluss precision: s -> 0, ms -> 1..3 (compact); us -> 4..6, ns -> 7..9.
        c.unit = static_cast<const arrow::TimestampType&>(type).unit();
        c.kind = (c.unit == arrow::TimeUnit::SECOND || c.unit == arrow::TimeUnit::MILLI)
                     ? Kind::kTimestampCompact
                     : Kind::kTimestamp;
        break;
      default:
        return Status::InvalidArgument("key column '" + field.name() + "' has type " + type.ToString() +
                                       ", which cannot be part of a key");
    }
    columns.push_back(c);
  }
  return CompactedKeyEncoder(std::move(schema), std::move(key_columns), std::move(columns));
}

Status CompactedKeyEncoder::Error(const Column& c, const std::string& what) const {
  const auto& field = *schema_->field(c.index);
  return Status::InvalidArgument("key column '" + field.name() + "' (" + field.type()->ToString() +
                                 "): " + what);
}

Status CompactedKeyEncoder::Encode(const Value* values, std::string* out) const {
  out->clear();
  for (const Column& c : columns_) FLUSS_RETURN_NOT_OK(EncodeColumn(c, values[c.index], out));
  return Status::OK();
}

Status CompactedKeyEncoder::EncodeColumn(const Column& c, const Value& v, std::string* out) const {
  if (v.kind == Value::Kind::kNull) return Error(c, "a key column must not be null");
  auto wrong_kind = [&] { return Error(c, std::string("cannot take a ") + KindName(v.kind) + " value"); };
  auto range = [&](int64_t lo, int64_t hi) -> Status {
    if (v.i < lo || v.i > hi)
      return Error(c, "value " + std::to_string(v.i) + " is out of range [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "]");
    return Status::OK();
  };

  switch (c.kind) {
    case Kind::kBool:
      if (v.kind != Value::Kind::kBool) return wrong_kind();
      out->push_back(v.b ? 1 : 0);
      return Status::OK();
    case Kind::kTinyInt:
      if (v.kind != Value::Kind::kInt64) return wrong_kind();
      FLUSS_RETURN_NOT_OK(range(INT8_MIN, INT8_MAX));
      out->push_back(static_cast<char>(static_cast<int8_t>(v.i)));
      return Status::OK();
    case Kind::kSmallInt:
      if (v.kind != Value::Kind::kInt64) return wrong_kind();
      FLUSS_RETURN_NOT_OK(range(INT16_MIN, INT16_MAX));
      PutLe(out, static_cast<int16_t>(v.i));
      return Status::OK();
    case Kind::kInt:
      if (v.kind != Value::Kind::kInt64) return wrong_kind();
      FLUSS_RETURN_NOT_OK(range(INT32_MIN, INT32_MAX));
      PutVarint32(out, static_cast<int32_t>(v.i));
      return Status::OK();
    case Kind::kBigInt:
      if (v.kind != Value::Kind::kInt64) return wrong_kind();
      PutVarint64(out, v.i);
      return Status::OK();
    case Kind::kFloat:
    case Kind::kDouble: {
      double d;
      if (v.kind == Value::Kind::kDouble) {
        d = v.d;
      } else if (v.kind == Value::Kind::kInt64) {
        d = static_cast<double>(v.i);
      } else {
        return wrong_kind();
      }
      if (c.kind == Kind::kFloat) {
        PutLe(out, static_cast<float>(d));
      } else {
        PutLe(out, d);
      }
      return Status::OK();
    }
    case Kind::kBytes:
    case Kind::kFixedBinary:
      if (v.kind != Value::Kind::kBytes) return wrong_kind();
      if (v.s.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
        return Error(c, "value of " + std::to_string(v.s.size()) + " bytes is too large");
      if (c.kind == Kind::kFixedBinary && v.s.size() != static_cast<size_t>(c.width))
        return Error(c, "value has " + std::to_string(v.s.size()) + " bytes, expected " + std::to_string(c.width));
      // BINARY(n) is length-prefixed like BYTES in CompactedRow (no padding).
      PutLengthPrefixed(out, v.s);
      return Status::OK();
    case Kind::kDecimalCompact:
    case Kind::kDecimal: {
      if (v.kind != Value::Kind::kDecimal) return wrong_kind();
      const arrow::Decimal128 dec(v.dec_hi, v.dec_lo);
      if (!dec.FitsInPrecision(c.width))
        return Error(c, "unscaled value " + dec.ToIntegerString() + " has more than " + std::to_string(c.width) +
                            " digits");
      if (c.kind == Kind::kDecimalCompact) {
        // |unscaled| < 10^18 fits in int64: the low word is the whole value.
        PutVarint64(out, static_cast<int64_t>(v.dec_lo));
      } else {
        PutLengthPrefixed(out, MinimalBigEndian(v.dec_hi, v.dec_lo));
      }
      return Status::OK();
    }
    case Kind::kTime: {
      if (v.kind != Value::Kind::kInt64) return wrong_kind();
      FLUSS_RETURN_NOT_OK(range(0, UnitsPerDay(c.unit) - 1));
      const int64_t per_ms = UnitsPerMilli(c.unit);
      // Fluss TIME is int milliseconds of day; sub-millisecond digits are dropped.
      const int64_t ms = per_ms == 0 ? v.i * 1000 : v.i / per_ms;
      PutVarint32(out, static_cast<int32_t>(ms));
      return Status::OK();
    }
    case Kind::kTimestampCompact:
    case Kind::kTimestamp: {
      if (v.kind != Value::Kind::kInt64) return wrong_kind();
      const int64_t per_ms = UnitsPerMilli(c.unit);
      int64_t millis = 0;
      int32_t nanos_of_milli = 0;
      if (per_ms == 0) {
        if (__builtin_mul_overflow(v.i, int64_t{1000}, &millis))
          return Error(c, "value " + std::to_string(v.i) + " s is out of the millisecond range");
      } else {
        millis = FloorDiv(v.i, per_ms);
        // nano-of-millisecond in 0..999999, also for instants before 1970.
        nanos_of_milli = static_cast<int32_t>(FloorMod(v.i, per_ms) * (1000000 / per_ms));
      }
      PutVarint64(out, millis);
      if (c.kind == Kind::kTimestamp) PutVarint32(out, nanos_of_milli);
      return Status::OK();
    }
  }
  return Status::Internal("key encoder: unhandled column kind");
}

}  // namespace fluss::row
