// fluss::Value: one value of a row handed to a writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fluss {

/// One value of a row being appended, already in the column's physical unit:
/// kInt64 holds integers, DATE (days since epoch), TIME and TIMESTAMP (in the column's Arrow
/// unit); kBytes holds STRING (UTF-8) and BYTES/BINARY; kDecimal holds the unscaled value at
/// the column's scale as a 128-bit two's complement (hi, lo).
/// Nested values point at `count` (kArray, kRow) or 2 x `count` (kMap) further Values owned by
/// the caller, which must outlive the call that takes the row:
///   kArray  ARRAY elements, in order;
///   kMap    MAP entries as key, value, key, value, ... (`count` entries);
///   kRow    ROW fields by position, one per field of the row type.
struct Value {
  enum class Kind : uint8_t { kNull, kBool, kInt64, kDouble, kBytes, kDecimal, kArray, kMap, kRow };
  Kind kind = Kind::kNull;
  bool b = false;
  /// kBytes: the caller vouches that `s` is valid UTF-8 (e.g. it came from a Python str), so a
  /// STRING column skips its own UTF-8 scan. Leave false when unsure: the value is then checked.
  bool utf8 = false;
  int64_t i = 0;
  double d = 0;
  std::string_view s;
  int64_t dec_hi = 0;
  uint64_t dec_lo = 0;
  const Value* items = nullptr;  ///< nested kinds: the element, entry or field values
  size_t count = 0;              ///< nested kinds: elements, entries or fields

  static Value Null() { return Value{}; }
  static Value Bool(bool v) { Value x; x.kind = Kind::kBool; x.b = v; return x; }
  static Value Int(int64_t v) { Value x; x.kind = Kind::kInt64; x.i = v; return x; }
  static Value Double(double v) { Value x; x.kind = Kind::kDouble; x.d = v; return x; }
  static Value Bytes(std::string_view v) { Value x; x.kind = Kind::kBytes; x.s = v; return x; }
  /// A kBytes value known to be valid UTF-8 (see `utf8`); passing bytes that are not is the
  /// caller's bug and stores a value readers refuse as corrupt.
  static Value Utf8(std::string_view v) { Value x = Bytes(v); x.utf8 = true; return x; }
  static Value Decimal(int64_t hi, uint64_t lo) {
    Value x; x.kind = Kind::kDecimal; x.dec_hi = hi; x.dec_lo = lo; return x;
  }
  static Value Array(const Value* elements, size_t n) { return Nested(Kind::kArray, elements, n); }
  /// `entries` holds 2 x `n` Values: key, value, key, value, ...
  static Value Map(const Value* entries, size_t n) { return Nested(Kind::kMap, entries, n); }
  static Value Row(const Value* fields, size_t n) { return Nested(Kind::kRow, fields, n); }

 private:
  static Value Nested(Kind k, const Value* items, size_t n) {
    Value x; x.kind = k; x.items = items; x.count = n; return x;
  }
};

}  // namespace fluss
