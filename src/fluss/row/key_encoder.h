// CompactedKey encoder: the bytes of the bucket key (and, by format rules, the primary key) of a
// row for tables without a lake format. It is the concatenation of the key fields' CompactedRow
// encodings, in key order, with no null bitmap (protocol-data.md sections 4.1, 6.2; Java:
// CompactedKeyEncoder / CompactedKeyWriter).
//
// Per Fluss type (derived from the Arrow field type, section 11):
//   BOOLEAN, TINYINT        1 byte
//   SMALLINT                2 bytes LE
//   INT, DATE, TIME         varint32 (unsigned LEB128 of the bit pattern, no zig-zag)
//   BIGINT                  varint64
//   FLOAT, DOUBLE           4 / 8 bytes LE IEEE
//   STRING, BYTES, BINARY(n) varint32 length + bytes
//   DECIMAL p <= 18         varint64 of the unscaled value
//   DECIMAL p > 18          varint32 length + minimal big-endian two's complement of the unscaled
//   TIMESTAMP(_LTZ) p <= 3  varint64 epoch millis
//   TIMESTAMP(_LTZ) p > 3   varint64 epoch millis (floored), varint32 nano-of-millisecond
// TIME is stored as milliseconds of day whatever the Arrow unit; the Arrow unit of a timestamp
// decides its precision class (s, ms: compact; us, ns: not compact).
//
// Thread affinity: immutable after Create; Encode may be called from any thread concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/status.h"

namespace fluss::row {

/// CompactedKey encoder for the key columns `key_columns` (indexes into `schema`) of one row.
/// `values` holds one fluss::Value per schema field (include/fluss/client.h: kInt64 for
/// integers, DATE as days, TIME/TIMESTAMP in the column's Arrow unit, kDouble, kBytes for
/// STRING/BYTES/BINARY(n), kDecimal 128-bit unscaled at the column scale, kBool). Key columns
/// must not be null (return InvalidArgument naming the column otherwise).
class CompactedKeyEncoder {
 public:
  /// Fails with kInvalidArgument when `key_columns` is empty, an index is out of range, or a key
  /// column has a type that cannot be a key (the column is named).
  static Result<CompactedKeyEncoder> Create(std::shared_ptr<arrow::Schema> schema,
                                            std::vector<int> key_columns);

  /// Encodes into `out` (cleared first). Fails with kInvalidArgument naming the column when a key
  /// value is null, of the wrong kind, or out of the column's range; `out` is then unspecified.
  Status Encode(const Value* values, std::string* out) const;

  const std::shared_ptr<arrow::Schema>& schema() const { return schema_; }
  const std::vector<int>& key_columns() const { return key_columns_; }

 private:
  enum class Kind : uint8_t {
    kBool,
    kTinyInt,
    kSmallInt,
    kInt,             // INT and DATE: varint32 of the value
    kBigInt,
    kFloat,
    kDouble,
    kBytes,           // STRING, BYTES
    kFixedBinary,     // BINARY(n): the value must be n bytes
    kDecimalCompact,  // precision <= 18
    kDecimal,         // precision > 18
    kTime,            // varint32 of milliseconds of day
    kTimestampCompact,
    kTimestamp,
  };
  struct Column {
    int index = 0;
    Kind kind = Kind::kInt;
    int32_t width = 0;          // kFixedBinary: n; decimals: precision
    arrow::TimeUnit::type unit = arrow::TimeUnit::MILLI;  // kTime / kTimestamp*: Arrow unit
  };

  CompactedKeyEncoder(std::shared_ptr<arrow::Schema> schema, std::vector<int> key_columns,
                      std::vector<Column> columns)
      : schema_(std::move(schema)), key_columns_(std::move(key_columns)), columns_(std::move(columns)) {}

  Status EncodeColumn(const Column& c, const Value& v, std::string* out) const;
  Status Error(const Column& c, const std::string& what) const;

  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int> key_columns_;
  std::vector<Column> columns_;
};

}  // namespace fluss::row
