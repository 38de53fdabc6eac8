#include "fluss/row/partition_name.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>

#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "fluss/row/indexed_row.h"

#include "fluss/row/temporal.h"

namespace fluss::row {

namespace {

// Java's Float/Double.toString of a finite, non-zero value from its shortest round-trip digits
// (what the JDK prints since JDK 19): plain notation for 1e-3 <= |v| < 1e7 with at least one
// fractional digit, else d.dddE[-]n.
template <typename F>
std::string JavaFloatingToString(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  (void)ec;  // 64 bytes always hold a shortest float or double
  std::string_view sci(buf, static_cast<size_t>(end - buf));  // "-d.ddde+XX"
  std::string out;
  if (sci.front() == '-') {
    out = "-";
    sci.remove_prefix(1);
  }
  const size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e))
    if (c != '.') digits += c;
  int exp = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const F mag = std::fabs(v);
  if (mag >= F(1e-3) && mag < F(1e7)) {
    if (exp >= 0) {
      const size_t int_len = static_cast<size_t>(exp) + 1;
      if (digits.size() <= int_len) return out + digits + std::string(int_len - digits.size(), '0') + ".0";
      return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
    }
    return out + "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
  }
  return out + digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" + std::to_string(exp);
}

std::string TwoDigits(int64_t v) {
  char b[8];
  std::snprintf(b, sizeof(b), "%02d", static_cast<int>(v));
  return b;
}

std::string Date(int64_t days) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  char b[32];
  std::snprintf(b, sizeof(b), "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()));
  return b;
}

Status Invalid(const std::string& column, const std::string& why) {
  return Status::InvalidArgument("partition column '" + column + "': " + why);
}

}  // namespace

Status CheckPartitionValue(const std::string& value, const std::string& column) {
  if (value.empty()) return Invalid(column, "the partition value is empty");
  if (value.size() > 200) return Invalid(column, "the partition value '" + value + "' is longer than 200 characters");
  if (value == "." || value == "..") return Invalid(column, "the partition value must not be '" + value + "'");
  for (char c : value)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return Invalid(column, "the partition value '" + value +
                                 "' holds a character other than ASCII letters, digits, '_' and '-' (partition "
                                 "names spell dates yyyy-MM-dd, times HH-mm-ss_SSS, timestamps "
                                 "yyyy-MM-dd-HH-mm-ss_ plus the fraction of the second)");
  return Status::OK();
}

Result<std::string> PartitionValueString(const DataType& type, const Value& v, const std::string& column) {
  if (v.kind == Value::Kind::kNull) return Invalid(column, "a partition column must not be null");
  std::string out;
  switch (type.root) {
    case TypeRoot::kChar:
    case TypeRoot::kString: out = v.s; break;
    case TypeRoot::kBoolean: out = v.b ? "true" : "false"; break;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt: out = std::to_string(v.i); break;
    case TypeRoot::kBinary:
    case TypeRoot::kBytes: {
      static const char* kHex = "0123456789abcdef";
      for (unsigned char c : v.s) {
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      break;
    }
    case TypeRoot::kDate: out = Date(v.i); break;
    case TypeRoot::kTime: {
      int32_t ms = 0;
      if (!TimeToMillis(v.i, type.unit, &ms)) return Invalid(column, "TIME value out of range");
      out = TwoDigits(ms / 3600000) + "-" + TwoDigits(ms / 60000 % 60) + "-" + TwoDigits(ms / 1000 % 60) + "_";
      char b[8];
      std::snprintf(b, sizeof(b), "%03d", ms % 1000);
      out += b;
      break;
    }
    case TypeRoot::kFloat:
    case TypeRoot::kDouble: {
      const double d = v.kind == Value::Kind::kInt64 ? static_cast<double>(v.i) : v.d;
      out = type.root == TypeRoot::kFloat ? JavaFloatingToString(static_cast<float>(d)) : JavaFloatingToString(d);
      if (out == "Infinity") out = "Inf";
      else if (out == "-Infinity") out = "-Inf";
      for (auto& c : out)
        if (c == '.') c = '_';
      break;
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      int64_t millis = 0;
      int32_t nanos = 0;
      if (!TimestampToMillis(v.i, type.unit, &millis, &nanos)) return Invalid(column, "TIMESTAMP value out of range");
      const int64_t day = FloorDiv(millis, 86400000);
      const int64_t ms_of_day = FloorMod(millis, 86400000);
      out = Date(day) + "-" + TwoDigits(ms_of_day / 3600000) + "-" + TwoDigits(ms_of_day / 60000 % 60) + "-" +
            TwoDigits(ms_of_day / 1000 % 60) + "_";
      char b[16];
      std::snprintf(b, sizeof(b), "%03d%06d", static_cast<int>(ms_of_day % 1000), static_cast<int>(nanos));
      std::string fraction = b;
      while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
      out += fraction;
      break;
    }
    case TypeRoot::kDecimal: return Invalid(column, "DECIMAL columns cannot be partition keys");
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: return Invalid(column, type.ToString() + " columns cannot be partition keys");
  }
  FLUSS_RETURN_NOT_OK(CheckPartitionValue(out, column));
  return out;
}

std::string JoinPartitionName(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += '$';
    out += values[i];
  }
  return out;
}

Result<PartitionNamer> PartitionNamer::Make(const arrow::Schema& schema,
                                            const std::vector<std::string>& partition_keys) {
  PartitionNamer n;
  for (const auto& key : partition_keys) {
    const int i = schema.GetFieldIndex(key);
    if (i < 0) return Status::InvalidArgument("partition key '" + key + "' is not a column");
    FLUSS_ASSIGN_OR_RETURN(auto type, DataTypeOf(*schema.field(i)));
    n.keys_.push_back(key);
    n.columns_.push_back(i);
    n.types_.push_back(type);
  }
  return n;
}

Result<std::string> PartitionNamer::NameOf(const Value* row) const {
  std::string name;
  for (size_t k = 0; k < columns_.size(); ++k) {
    FLUSS_ASSIGN_OR_RETURN(auto value, PartitionValueString(types_[k], row[columns_[k]], keys_[k]));
    if (k) name += '$';
    name += value;
  }
  return name;
}

Result<std::string> PartitionNamer::NameOf(const arrow::RecordBatch& batch, int64_t row) const {
  std::string name;
  Value v;
  for (size_t k = 0; k < columns_.size(); ++k) {
    FLUSS_RETURN_NOT_OK(ValueFromArrow(*batch.column(columns_[k]), row, keys_[k], &v));
    FLUSS_ASSIGN_OR_RETURN(auto value, PartitionValueString(types_[k], v, keys_[k]));
    if (k) name += '$';
    name += value;
  }
  return name;
}

std::map<std::string, std::string> PartitionSpecOf(const std::vector<std::string>& keys, const std::string& name) {
  std::map<std::string, std::string> spec;
  size_t start = 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    const size_t end = k + 1 < keys.size() ? name.find('$', start) : std::string::npos;
    spec[keys[k]] = name.substr(std::min(start, name.size()), end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? name.size() : end + 1;
  }
  return spec;
}

}  // namespace fluss::row
