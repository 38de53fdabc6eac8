// Fluss IndexedRow encoding (protocol-data.md sections 4.1 and 4.2), for the INDEXED log format.
//
//   [null bitmap: ceil(N/8) bytes, bit i = field i is NULL]
//   [variable-length list: one int32 LE slot per variable-length column of the schema; the
//    lengths of the NON-NULL variable-length values are packed from the first slot, in field
//    order; unused trailing slots stay 0]
//   [values of the non-null fields, in field order, no padding between them]
//
// Variable-length: STRING, BYTES, DECIMAL with precision > 18. Everything else is fixed:
// BOOLEAN/TINYINT 1, SMALLINT 2, INT/DATE/TIME 4 (TIME as int32 milliseconds of day), BIGINT 8,
// FLOAT 4, DOUBLE 8, CHAR(n)/BINARY(n) n bytes (0x00-padded), compact DECIMAL 8 (unscaled int64),
// TIMESTAMP(_LTZ) p <= 3: 8 (epoch millis), p > 3: 12 (epoch millis floored + nano-of-milli).
// All little-endian except non-compact decimals (minimal big-endian two's complement).
//
// The Fluss type of a column follows from its Arrow type (the read mapping of
// src/fluss/client/table_json.cc): bool BOOLEAN, int8..int64 TINYINT..BIGINT, float32/64
// FLOAT/DOUBLE, utf8/large_utf8 STRING, binary/large_binary BYTES, fixed_size_binary(n)
// BINARY(n), decimal128(p,s) DECIMAL(p,s), date32 DATE, time32(s|ms)/time64(us|ns)
// TIME(0|3|6|9), timestamp(unit) TIMESTAMP(0|3|6|9), timestamp(unit, tz) TIMESTAMP_LTZ(0|3|6|9).
// CHAR(n) has no Arrow type of its own (it reads as utf8): a utf8 field whose metadata holds
// kCharLengthMetadataKey = "n" is encoded as CHAR(n).
//
// Thread affinity: everything here is stateless or immutable after construction; an
// IndexedRowCodec may be shared by threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/status.h"

namespace fluss::row {

/// Field metadata key marking a utf8 / large_utf8 Arrow field as Fluss CHAR(n); the value is n
/// in decimal. Without it a utf8 field is STRING.
inline constexpr const char* kCharLengthMetadataKey = "fluss.char_length";

/// Per-schema IndexedRow encoder and decoder: the type dispatch is resolved once per column
/// when the codec is made. Immutable after Make.
class IndexedRowCodec {
 public:
  /// Fails with kInvalidArgument naming the column for an Arrow type without an IndexedRow
  /// encoding here (nested types, decimal256, ...).
  static Result<IndexedRowCodec> Make(const arrow::Schema& schema);

  /// Appends the encoding of one row (`values` has one Value per field) to `out`. On failure
  /// `out` is left as it was. Fails with kInvalidArgument naming the column for a value whose
  /// kind does not fit the column, a null in a NOT NULL column, a CHAR/BINARY value longer than
  /// n bytes, a compact decimal outside int64 or a timestamp outside the millisecond range.
  Status Encode(const Value* values, std::string* out) const;

  /// Decodes one row of exactly `size` bytes and appends one value (or null) to each of
  /// `builders` (one per field, made with arrow::MakeBuilder for the field type). The row is
  /// checked completely before anything is appended: on a kProtocol failure (truncated row,
  /// bad lengths, trailing bytes, out-of-range values) no builder is touched.
  Status Decode(const uint8_t* data, size_t size,
                const std::vector<arrow::ArrayBuilder*>& builders) const;

  /// Checks that `builders` has one builder per field, of the field's Arrow type.
  Status CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const;

  /// Bytes of the null bitmap plus the variable-length list (the smallest possible row).
  size_t header_size() const { return bitmap_bytes_ + 4 * num_variable_; }
  int num_fields() const { return static_cast<int>(columns_.size()); }

  /// Internal: how one column is encoded.
  enum class Kind : uint8_t {
    kBool, kInt8, kInt16, kInt32, kInt64, kFloat, kDouble,
    kString,        // utf8 / large_utf8, variable
    kBytes,         // binary / large_binary, variable
    kChar,          // utf8 / large_utf8 with kCharLengthMetadataKey, fixed n, 0x00-padded
    kFixedBinary,   // fixed_size_binary(n), fixed n, 0x00-padded
    kDecimalCompact,  // decimal128 precision <= 18: unscaled int64 LE
    kDecimalBytes,    // decimal128 precision > 18: variable, big-endian two's complement
    kDate,            // date32: int32 days
    kTime,            // time32/time64: int32 milliseconds of day
    kTimestampCompact,  // timestamp(s|ms): int64 epoch millis
    kTimestamp,         // timestamp(us|ns): int64 epoch millis + int32 nano-of-milli
  };
  struct Column {
    Kind kind;
    int arrow_type_id;    // arrow::Type::type of the field
    int unit = 0;         // arrow::TimeUnit::type for kTime / kTimestamp*
    int32_t width = 0;    // bytes of a fixed-width value; 0 for variable-length
    bool large = false;   // large_utf8 / large_binary
    bool nullable = true;
    std::string name;
  };

 private:
  IndexedRowCodec() = default;
  std::vector<Column> columns_;
  size_t bitmap_bytes_ = 0;
  size_t num_variable_ = 0;
};

/// Appends the IndexedRow encoding of one row to `out`. `values` has one fluss::Value per field
/// of `schema` (include/fluss/client.h: kNull, kBool, kInt64 for integers, DATE as days,
/// TIME and TIMESTAMP in the column's Arrow unit; kDouble (or kInt64) for FLOAT/DOUBLE;
/// kBytes for STRING/BYTES/CHAR(n)/BINARY(n); kDecimal 128-bit unscaled at the column scale).
/// TIME is stored as milliseconds: time64 values lose their sub-millisecond part (as in Java).
/// On failure `out` is unchanged. Makes an IndexedRowCodec per call: use one directly for
/// many rows.
Status EncodeIndexedRow(const arrow::Schema& schema, const Value* values, std::string* out);

/// Decodes one IndexedRow of `schema` (exactly `size` bytes) and appends its values to
/// `builders` (one arrow::ArrayBuilder per field, created with arrow::MakeBuilder for the field
/// type). CHAR values lose their trailing 0x00 padding; BINARY(n) values are appended with all
/// n stored bytes (Arrow's fixed_size_binary(n) has no shorter values).
Status DecodeIndexedRow(const arrow::Schema& schema, const uint8_t* data, size_t size,
                        const std::vector<arrow::ArrayBuilder*>& builders);

/// Turns row `row` of `batch` into one Value per column (for writing Arrow input to INDEXED
/// tables). String and binary Values point into the batch's buffers, so they are valid while
/// `batch` lives. `scratch` is reserved for values that need owned bytes (none of the supported
/// types does today; it is left untouched). Fails with kInvalidArgument for a row out of range
/// or a column type without a Value mapping.
Status RowValuesFromArrow(const arrow::RecordBatch& batch, int64_t row, std::vector<Value>* out,
                          std::vector<std::string>* scratch);

}  // namespace fluss::row
