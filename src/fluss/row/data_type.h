// The one Arrow -> Fluss data-type map of the client (protocol-data.md sections 0, 4.1 and 11;
// protocol-rpc.md 7.3 for the JSON names). Every row and key codec, and the layers that check or
// convert values per column, resolve a column's Fluss type here once and switch on TypeRoot.
//
//   Arrow                                   Fluss
//   bool                                    BOOLEAN
//   int8 / int16 / int32 / int64            TINYINT / SMALLINT / INT / BIGINT
//   float32 / float64                       FLOAT / DOUBLE
//   utf8, large_utf8                        STRING
//   utf8, large_utf8 + metadata             CHAR(n)   (kCharLengthMetadataKey = "n", n >= 1)
//   binary, large_binary                    BYTES
//   fixed_size_binary(n)                    BINARY(n)
//   decimal128(p, s)                        DECIMAL(p, s)   (p 1..38)
//   date32                                  DATE
//   time32(s) / time32(ms)                  TIME(0) / TIME(3)
//   time64(us) / time64(ns)                 TIME(6) / TIME(9)
//   timestamp(unit)                         TIMESTAMP(0 | 3 | 6 | 9)        (s | ms | us | ns)
//   timestamp(unit, any time zone)          TIMESTAMP_LTZ(0 | 3 | 6 | 9)
//   time or timestamp + kPrecisionMetadataKey = "p"   the same type with precision p (1, 2 in
//                                           ms; 4, 5 in us; 7, 8 in ns)
//   list<item: T>                           ARRAY<T>        (child name free; read as "item")
//   map<K, V>                               MAP<K NOT NULL, V>
//   struct<a: A, b: B, ...>                 ROW<a A, b B, ...>
// Nested types nest in each other; every level keeps its nullability (the list item's, the map
// value's, each struct field's). Anything else (decimal256, date64, large_list, intervals,
// dictionaries, ...) has no Fluss equivalent and fails with kInvalidArgument naming the field.
//
// Thread affinity: none; pure functions and plain values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/status.h"

namespace fluss::row {

/// Field metadata key marking a utf8 / large_utf8 Arrow field as Fluss CHAR(n); the value is n
/// in decimal. Without it a utf8 field is STRING.
inline constexpr const char* kCharLengthMetadataKey = "fluss.char_length";
/// Field metadata key giving a time32/time64/timestamp Arrow field a Fluss precision other than
/// its unit's (s 0, ms 3, us 6, ns 9): a value p in 0..9 whose unit holds it (p 0 s, 1..3 ms,
/// 4..6 us, 7..9 ns), e.g. TIMESTAMP(2) = timestamp("ms") with "fluss.precision": "2".
inline constexpr const char* kPrecisionMetadataKey = "fluss.precision";

/// Fluss type roots (Java DataTypeRoot).
enum class TypeRoot : uint8_t {
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kChar,
  kString,
  kBinary,
  kBytes,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,     // TIMESTAMP WITHOUT TIME ZONE
  kTimestampLtz,  // TIMESTAMP WITH LOCAL TIME ZONE
  kArray,
  kMap,
  kRow,
};

struct ColumnType;

/// A column's Fluss type, with the Arrow facts the codecs need to read and build the column.
struct DataType {
  TypeRoot root = TypeRoot::kInt;
  bool nullable = true;
  /// CHAR(n) / BINARY(n): n in bytes; 0 otherwise.
  int32_t length = 0;
  /// DECIMAL: precision 1..38; TIME / TIMESTAMP(_LTZ): fractional digits 0, 3, 6 or 9 (from the
  /// Arrow unit); 0 otherwise.
  int32_t precision = 0;
  /// DECIMAL: scale; 0 otherwise.
  int32_t scale = 0;
  /// TIME / TIMESTAMP(_LTZ): the Arrow unit values are given and built in (fluss::Value holds
  /// them in this unit). An arrow::TimeUnit::type value.
  int unit = 0;
  /// arrow::Type::type of the field (e.g. STRING vs LARGE_STRING, TIME32 vs TIME64).
  int arrow_type_id = 0;
  /// Nested types: ARRAY one child (the element, named "item"); MAP two (the key, named "key"
  /// and NOT NULL, and the value, named "value"); ROW one per field, in order. Empty otherwise.
  std::vector<ColumnType> children;

  /// DECIMAL with precision <= 18 (stored as an int64 unscaled value), TIMESTAMP(_LTZ) with
  /// precision <= 3 (stored as millis only). Other types: false.
  bool compact() const;
  /// STRING, CHAR, BYTES, BINARY: the value is a byte string.
  bool is_binary_like() const;
  /// large_utf8 / large_binary Arrow type (64-bit offsets).
  bool large() const;
  /// ARRAY, MAP or ROW.
  bool is_nested() const;
  /// SQL spelling, e.g. "INT", "CHAR(3)", "DECIMAL(20,2)", "TIMESTAMP_LTZ(6)",
  /// "ARRAY<STRING>", "MAP<STRING NOT NULL, INT>", "ROW<a INT, b STRING>", with " NOT NULL"
  /// when not nullable.
  std::string ToString() const;
  /// Same Fluss type at every level (roots, lengths, precisions, nullability, ROW field names);
  /// Arrow details (large types, list item names) are not compared.
  bool SameFlussType(const DataType& other) const;
};

/// A column (or a nested field) as the codecs see it: its name (for error messages) and its
/// Fluss type.
struct ColumnType {
  std::string name;
  DataType type;
};

/// Name of the type root in Fluss's DataType JSON ("INTEGER", "TIME_WITHOUT_TIME_ZONE",
/// "TIMESTAMP_WITH_LOCAL_TIME_ZONE", ...; protocol-rpc.md 7.3).
const char* JsonTypeName(TypeRoot root);
/// The type root a DataType JSON "type" names (the inverse of JsonTypeName), or nullopt for one
/// this client does not know.
std::optional<TypeRoot> TypeRootOfJsonName(std::string_view name);

/// Fluss precision of an Arrow time unit: s 0, ms 3, us 6, ns 9. `unit` is arrow::TimeUnit::type.
int32_t PrecisionOfUnit(int unit);
/// The Arrow time unit that holds Fluss precision `precision` (0 s, 1..3 ms, 4..6 us, 7..9 ns).
int UnitOfPrecision(int32_t precision);

/// The Fluss type of `field`, nested fields included. Fails with kInvalidArgument naming the
/// field (and the path inside it, e.g. "address.zip") for an Arrow type with no Fluss
/// equivalent, or a bad kCharLengthMetadataKey value.
Result<DataType> DataTypeOf(const arrow::Field& field);

/// DataTypeOf for every field of `schema`, in field order.
Result<std::vector<DataType>> DataTypesOf(const arrow::Schema& schema);

/// The Arrow type a column of `type` is read into (the inverse map: CHAR -> utf8, TIME(0|3) ->
/// time32, TIME(6|9) -> time64, TIMESTAMP_LTZ -> timestamp(unit, "UTC"), ARRAY -> list with an
/// "item" child, MAP -> map ("entries", "key", "value"), ROW -> struct; large types kept when
/// `type.arrow_type_id` says so).
std::shared_ptr<arrow::DataType> ArrowTypeOf(const DataType& type);

/// An Arrow field named `name` of `type`: ArrowTypeOf, the nullability, and for CHAR(n) the
/// kCharLengthMetadataKey metadata, for a TIME/TIMESTAMP precision other than its unit's the
/// kPrecisionMetadataKey metadata.
std::shared_ptr<arrow::Field> ArrowFieldOf(const std::string& name, const DataType& type);

}  // namespace fluss::row
