// fluss::Value: one value of a row handed to a writer.
#pragma once

#include <cstdint>
#include <string_view>

namespace fluss {

/// One value of a row being appended, already in the column's physical unit:
/// kInt64 holds integers, DATE (days since epoch), TIME and TIMESTAMP (in the column's Arrow
/// unit); kBytes holds STRING (UTF-8) and BYTES/BINARY; kDecimal holds the unscaled value at
/// the column's scale as a 128-bit two's complement (hi, lo).
struct Value {
  enum class Kind : uint8_t { kNull, kBool, kInt64, kDouble, kBytes, kDecimal };
  Kind kind = Kind::kNull;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string_view s;
  int64_t dec_hi = 0;
  uint64_t dec_lo = 0;

  static Value Null() { return Value{}; }
  static Value Bool(bool v) { Value x; x.kind = Kind::kBool; x.b = v; return x; }
  static Value Int(int64_t v) { Value x; x.kind = Kind::kInt64; x.i = v; return x; }
  static Value Double(double v) { Value x; x.kind = Kind::kDouble; x.d = v; return x; }
  static Value Bytes(std::string_view v) { Value x; x.kind = Kind::kBytes; x.s = v; return x; }
  static Value Decimal(int64_t hi, uint64_t lo) {
    Value x; x.kind = Kind::kDecimal; x.dec_hi = hi; x.dec_lo = lo; return x;
  }
};

}  // namespace fluss
