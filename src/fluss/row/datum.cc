#include "fluss/row/datum.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/utf8.h>

#include "fluss/row/nested_codec.h"
#include "fluss/row/temporal.h"
#include "fluss/row/value_path.h"
#include "fluss/util/bytes.h"
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

const char* RowFormatName(RowFormat format) {
  return format == RowFormat::kCompacted ? "CompactedRow" : "IndexedRow";
}

namespace {

/// Whether `s` is valid UTF-8 (Arrow's validator; its tables are built once per process).
bool IsUtf8(std::string_view s) {
  static const bool tables_ready = (arrow::util::InitializeUTF8(), true);
  (void)tables_ready;
  return arrow::util::ValidateUTF8(s);
}

using Path = ValuePath;

Status Invalid(const Path& at, const DataType& t, const std::string& what) {
  return Status::InvalidArgument("column '" + at.str() + "' (" + t.ToString() + "): " + what);
}

Status IntInRange(const Path& at, const DataType& t, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi)
    return Invalid(at, t, "value " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                              std::to_string(hi) + "]");
  return Status::OK();
}

Status DatumAt(const Path& at, const DataType& t, const Value& v, Datum* out);

/// Checks one element, entry key/value or field `v` of nested type `t` at `at`.
Status CheckChild(const Path& at, const DataType& t, const Value& v) {
  if (v.kind == Value::Kind::kNull) {
    if (t.nullable) return Status::OK();
    return Invalid(at, t, "the value is null");
  }
  Datum ignored;
  return DatumAt(at, t, v, &ignored);
}

/// The bytes a scalar map key compares by (its Fluss value; nullopt for a nested key).
std::optional<std::string> KeyBytes(const DataType& t, const Value& v) {
  if (t.is_nested()) return std::nullopt;
  Datum d;
  if (!DatumAt(Path{}, t, v, &d).ok()) return std::nullopt;  // (checked before: cannot fail)
  if (t.is_binary_like()) return std::string(d.bytes);
  // A FLOAT key is stored as float32: two doubles that round to one float32 are one key. Every
  // NaN is one key too, as Java's Float/Double.equals (floatToIntBits) sees them.
  if (t.root == TypeRoot::kFloat) d.d = static_cast<double>(static_cast<float>(d.d));
  if (std::isnan(d.d)) d.d = std::numeric_limits<double>::quiet_NaN();
  std::string out(reinterpret_cast<const char*>(&d.i), sizeof d.i);
  out.append(reinterpret_cast<const char*>(&d.nanos), sizeof d.nanos);
  out.append(reinterpret_cast<const char*>(&d.d), sizeof d.d);
  out.append(reinterpret_cast<const char*>(&d.dec_hi), sizeof d.dec_hi);
  out.append(reinterpret_cast<const char*>(&d.dec_lo), sizeof d.dec_lo);
  return out;
}

/// A map's keys must be distinct: Java's maps are keyed, and its readers keep only one entry of
/// a repeated key.
Status CheckDistinctKeys(const Path& at, const DataType& t, const Value& v) {
  if (v.count < 2) return Status::OK();
  std::vector<std::pair<std::string, size_t>> keys;
  keys.reserve(v.count);
  for (size_t k = 0; k < v.count; ++k) {
    auto b = KeyBytes(t.children[0].type, v.items[2 * k]);
    if (!b) return Status::OK();
    keys.emplace_back(std::move(*b), k);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t k = 1; k < keys.size(); ++k)
    if (keys[k].first == keys[k - 1].first)
      return Invalid(at, t, "entries " + std::to_string(keys[k - 1].second) + " and " + std::to_string(keys[k].second) +
                                " have the same key");
  return Status::OK();
}

/// Checks a non-null nested value `v` of `t` all the way down.
Status CheckNested(const Path& at, const DataType& t, const Value& v) {
  switch (t.root) {
    case TypeRoot::kArray:
      for (size_t k = 0; k < v.count; ++k)
        FLUSS_RETURN_NOT_OK(CheckChild(Path{&at, nullptr, static_cast<int64_t>(k)}, t.children[0].type, v.items[k]));
      return Status::OK();
    case TypeRoot::kMap:
      for (size_t k = 0; k < v.count; ++k) {
        FLUSS_RETURN_NOT_OK(
            CheckChild(Path{&at, nullptr, static_cast<int64_t>(k), ".key"}, t.children[0].type, v.items[2 * k]));
        FLUSS_RETURN_NOT_OK(CheckChild(Path{&at, nullptr, static_cast<int64_t>(k), ".value"}, t.children[1].type,
                                       v.items[2 * k + 1]));
      }
      return CheckDistinctKeys(at, t, v);
    case TypeRoot::kRow:
      if (v.count != t.children.size())
        return Invalid(at, t, "a row of " + std::to_string(v.count) + " field(s) for a type of " +
                                  std::to_string(t.children.size()));
      for (size_t k = 0; k < v.count; ++k)
        FLUSS_RETURN_NOT_OK(CheckChild(Path{&at, &t.children[k].name}, t.children[k].type, v.items[k]));
      return Status::OK();
    default:
      return Status::Internal("column '" + at.str() + "': not a nested type");
  }
}

Status DatumAt(const Path& at, const DataType& t, const Value& v, Datum* out) {
  using K = Value::Kind;
  if (v.kind == K::kNull) return Invalid(at, t, "the value is null");
  auto wrong_kind = [&] { return Invalid(at, t, std::string("a value of kind ") + KindName(v.kind) + " does not fit"); };
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
      if (t.root == TypeRoot::kTinyInt) FLUSS_RETURN_NOT_OK(IntInRange(at, t, v.i, INT8_MIN, INT8_MAX));
      if (t.root == TypeRoot::kSmallInt) FLUSS_RETURN_NOT_OK(IntInRange(at, t, v.i, INT16_MIN, INT16_MAX));
      if (t.root == TypeRoot::kInt || t.root == TypeRoot::kDate)
        FLUSS_RETURN_NOT_OK(IntInRange(at, t, v.i, INT32_MIN, INT32_MAX));
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
      if (v.s.size() > kMaxBytesValue)
        return Invalid(at, t, "value of " + std::to_string(v.s.size()) + " bytes is too large");
      if (t.root == TypeRoot::kChar && v.s.size() > static_cast<size_t>(t.length))
        return Invalid(at, t, "value has " + std::to_string(v.s.size()) + " bytes, more than " +
                                  std::to_string(t.length));
      if (t.root == TypeRoot::kChar && !v.s.empty() && v.s.back() == '\0') return Invalid(at, t, kCharEndsInNul);
      // Readers decode STRING and CHAR into Arrow strings, which must be UTF-8 (and refuse
      // anything else as corrupt): a value that is not is refused here rather than stored.
      if ((t.root == TypeRoot::kString || t.root == TypeRoot::kChar) && !IsUtf8(v.s))
        return Invalid(at, t, "value is not valid UTF-8");
      // BINARY(n) is fixed-width: Arrow's fixed_size_binary(n) and Java's BinaryType hold n bytes.
      if (t.root == TypeRoot::kBinary && v.s.size() != static_cast<size_t>(t.length))
        return Invalid(at, t, "value has " + std::to_string(v.s.size()) + " bytes, expected " +
                                  std::to_string(t.length));
      out->bytes = v.s;
      return Status::OK();
    case TypeRoot::kDecimal: {
      if (v.kind != K::kDecimal) return wrong_kind();
      const arrow::Decimal128 dec(v.dec_hi, v.dec_lo);
      if (!dec.FitsInPrecision(t.precision))
        return Invalid(at, t, "value " + dec.ToString(t.scale) + " has more than " + std::to_string(t.precision) +
                                  " digits");
      out->dec_hi = v.dec_hi;
      out->dec_lo = v.dec_lo;
      out->i = static_cast<int64_t>(v.dec_lo);  // the whole value when compact (|v| < 10^18)
      return Status::OK();
    }
    case TypeRoot::kTime: {
      if (v.kind != K::kInt64) return wrong_kind();
      FLUSS_RETURN_NOT_OK(IntInRange(at, t, v.i, 0, UnitsPerDay(static_cast<arrow::TimeUnit::type>(t.unit)) - 1));
      if (v.i % FractionStep(t) != 0) return Invalid(at, t, FractionMessage(t, v.i));
      int32_t ms = 0;
      TimeToMillis(v.i, t.unit, &ms);  // within a day: cannot overflow
      out->i = ms;
      return Status::OK();
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (v.kind != K::kInt64) return wrong_kind();
      if (v.i % FractionStep(t) != 0) return Invalid(at, t, FractionMessage(t, v.i));
      int64_t millis = 0;
      int32_t nanos = 0;
      if (!TimestampToMillis(v.i, t.unit, &millis, &nanos))
        return Invalid(at, t, "value " + std::to_string(v.i) + " is out of the millisecond range");
      out->i = millis;
      out->nanos = nanos;
      return Status::OK();
    }
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: {
      const K want = t.root == TypeRoot::kArray ? K::kArray : t.root == TypeRoot::kMap ? K::kMap : K::kRow;
      if (v.kind != want) return wrong_kind();
      if (v.count > 0 && v.items == nullptr) return Invalid(at, t, "no items for a count of " + std::to_string(v.count));
      FLUSS_RETURN_NOT_OK(CheckNested(at, t, v));
      out->nested = &v;
      return Status::OK();
    }
  }
  return Status::Internal("column '" + at.str() + "': unhandled type");
}

}  // namespace

int64_t FractionStep(const DataType& t) {
  if (t.root != TypeRoot::kTime && t.root != TypeRoot::kTimestamp && t.root != TypeRoot::kTimestampLtz) return 1;
  const int32_t unit_digits = PrecisionOfUnit(t.unit);
  int32_t keep = t.precision;
  if (t.root == TypeRoot::kTime && keep > 3) keep = 3;
  int64_t step = 1;
  for (int32_t d = keep; d < unit_digits; ++d) step *= 10;
  return step;
}

std::string FractionMessage(const DataType& t, int64_t value) {
  if (t.root == TypeRoot::kTime && t.precision > 3)
    return "value " + std::to_string(value) + " has a fraction of a millisecond, which Fluss TIME does not keep "
           "(it stores milliseconds of the day)";
  return "value " + std::to_string(value) + " has more than " + std::to_string(t.precision) +
         " fractional digits of the second";
}

int FixedScalarWidth(TypeRoot root) {
  switch (root) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt: return 1;
    case TypeRoot::kSmallInt: return 2;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
    case TypeRoot::kFloat: return 4;
    case TypeRoot::kBigInt:
    case TypeRoot::kDouble: return 8;
    default: return 0;
  }
}

void PutFixedScalar(TypeRoot root, const Datum& d, uint8_t* p) {
  switch (root) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt: *p = static_cast<uint8_t>(d.i); return;
    case TypeRoot::kSmallInt: util::PutLe<int16_t>(p, static_cast<int16_t>(d.i)); return;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: util::PutLe<int32_t>(p, static_cast<int32_t>(d.i)); return;
    case TypeRoot::kFloat: util::PutLe<float>(p, static_cast<float>(d.d)); return;
    case TypeRoot::kBigInt: util::PutLe<int64_t>(p, d.i); return;
    case TypeRoot::kDouble: util::PutLe<double>(p, d.d); return;
    default: return;
  }
}

void GetFixedScalar(TypeRoot root, const uint8_t* p, Datum* d) {
  *d = Datum{};
  switch (root) {
    case TypeRoot::kBoolean: d->i = p[0] != 0; return;
    case TypeRoot::kTinyInt: d->i = util::GetLe<int8_t>(p); return;
    case TypeRoot::kSmallInt: d->i = util::GetLe<int16_t>(p); return;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: d->i = util::GetLe<int32_t>(p); return;
    case TypeRoot::kFloat: d->d = util::GetLe<float>(p); return;
    case TypeRoot::kBigInt: d->i = util::GetLe<int64_t>(p); return;
    case TypeRoot::kDouble: d->d = util::GetLe<double>(p); return;
    default: return;
  }
}

bool PutInlineBytes(std::string_view b, uint8_t* slot) {
  if (b.size() > 7) return false;
  std::memcpy(slot, b.data(), b.size());
  slot[7] = static_cast<uint8_t>(0x80 | b.size());
  return true;
}

Status DatumFromValue(const ColumnType& c, const Value& v, Datum* out) {
  return DatumAt(Path{nullptr, &c.name}, c.type, v, out);
}

Status CheckDatumForBuilder(const ColumnType& c, const Datum& d, RowFormat format) {
  auto corrupt = [&](const std::string& what) {
    return Status::Protocol(std::string(RowFormatName(format)) + " column '" + c.name + "' (" + c.type.ToString() +
                            "): " + what);
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
    case TypeRoot::kTime:  // milliseconds of the day
      if (d.i < 0 || d.i >= 86400000) return corrupt("time of day " + std::to_string(d.i) + " ms");
      return Status::OK();
    case TypeRoot::kString:
    case TypeRoot::kChar:
      // Arrow string arrays must hold UTF-8: readers of the batch (pyarrow, polars, DuckDB) rely on it.
      if (!IsUtf8(d.bytes)) return corrupt("value is not valid UTF-8");
      return Status::OK();
    case TypeRoot::kDecimal:
      if (!arrow::Decimal128(d.dec_hi, d.dec_lo).FitsInPrecision(c.type.precision))
        return corrupt("unscaled value " + arrow::Decimal128(d.dec_hi, d.dec_lo).ToIntegerString() +
                       " has more than " + std::to_string(c.type.precision) + " digits");
      return Status::OK();
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: return DecodeNested(c, format, d.bytes, nullptr);
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

Status AppendDatum(const ColumnType& c, const Datum& d, RowFormat format, arrow::ArrayBuilder* b) {
  switch (c.type.arrow_type_id) {
    case arrow::Type::LIST:
    case arrow::Type::MAP:
    case arrow::Type::STRUCT: return DecodeNested(c, format, d.bytes, b);
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
                 const std::vector<Datum>& datums, RowFormat format,
                 const std::vector<arrow::ArrayBuilder*>& builders) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if ((null_bitmap[i >> 3] >> (i & 7)) & 1) {
      auto st = builders[i]->AppendNull();
      if (!st.ok()) return Status::Internal("appending to column '" + columns[i].name + "': " + st.ToString());
      continue;
    }
    FLUSS_RETURN_NOT_OK(AppendDatum(columns[i], datums[i], format, builders[i]));
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
