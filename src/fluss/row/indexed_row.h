// Fluss IndexedRow encoding (protocol-data.md sections 4.1 and 4.2), for the INDEXED log format.
//
//   [null bitmap: ceil(N/8) bytes, bit i = field i is NULL]
//   [variable-length list: one int32 LE slot per variable-length column of the schema; the
//    lengths of the NON-NULL variable-length values are packed from the first slot, in field
//    order; unused trailing slots stay 0]
//   [values of the non-null fields, in field order, no padding between them]
//
// Variable-length: STRING, BYTES, DECIMAL with precision > 18, ARRAY and MAP (BinaryArray /
// BinaryMap, nested_codec.h), ROW (a nested IndexedRow). Everything else is fixed:
// BOOLEAN/TINYINT 1, SMALLINT 2, INT/DATE/TIME 4 (TIME as int32 milliseconds of day), BIGINT 8,
// FLOAT 4, DOUBLE 8, CHAR(n)/BINARY(n) n bytes (0x00-padded), compact DECIMAL 8 (unscaled int64),
// TIMESTAMP(_LTZ) p <= 3: 8 (epoch millis), p > 3: 12 (epoch millis floored + nano-of-milli).
// All little-endian except non-compact decimals (minimal big-endian two's complement).
//
// The Fluss type of a column follows from its Arrow type by the one map of data_type.h (CHAR(n)
// is a utf8 field with kCharLengthMetadataKey = "n"); values are checked and converted by
// datum.h.
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
#include "fluss/row/data_type.h"
#include "fluss/row/datum.h"
#include "fluss/row/value_arena.h"
#include "fluss/status.h"

namespace fluss::row {

/// Appends the IndexedRow of `values` (one per column of `columns`; DatumFromValue rules) to
/// `out`; on failure (kInvalidArgument naming the column) `out` is left as it was.
Status EncodeIndexedFields(const std::vector<ColumnType>& columns, const Value* values, std::string* out);

/// Decodes one IndexedRow of `columns` of exactly `size` bytes and, when `builders` is not null,
/// appends one value (or null) to each builder (one per column). Everything is read and checked
/// (kProtocol naming the column) before a builder is touched. `scratch` holds the decoded
/// fields (reused between calls; a nested row needs its own).
Status DecodeIndexedFields(const std::vector<ColumnType>& columns, const uint8_t* data, size_t size,
                           const std::vector<arrow::ArrayBuilder*>* builders, std::vector<Datum>* scratch);

/// Per-schema IndexedRow encoder and decoder, the column types resolved once when the codec is
/// made. Immutable after Make.
class IndexedRowCodec {
 public:
  /// Fails with kInvalidArgument naming the column for an Arrow type without a Fluss
  /// equivalent (decimal256, large_list, ...).
  static Result<IndexedRowCodec> Make(const arrow::Schema& schema);

  /// Appends the encoding of one row (`values` has one Value per field) to `out`. On failure
  /// `out` is left as it was. Fails with kInvalidArgument naming the column for a value the
  /// column does not take (DatumFromValue of datum.h: wrong kind, integer out of range, CHAR /
  /// BINARY value longer than n bytes, decimal with more digits than its precision, timestamp
  /// outside the millisecond range) or a null in a NOT NULL column.
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

  /// The columns, with their Fluss types (data_type.h).
  const std::vector<ColumnType>& columns() const { return columns_; }

 private:
  IndexedRowCodec() = default;
  std::vector<ColumnType> columns_;
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

/// Cell `row` of `a` as a Value (strings and binaries point into the array's buffers; the
/// Values of a list, map or struct cell are allocated from `arena`, which must then be given).
/// Fails with kInvalidArgument naming `column` for a type without a Value mapping. `row` must
/// be in range.
Status ValueFromArrow(const arrow::Array& a, int64_t row, const std::string& column, Value* out,
                      ValueArena* arena = nullptr);

/// Turns row `row` of `batch` into one Value per column (for writing Arrow input row by row).
/// String and binary Values point into the batch's buffers, so they are valid while `batch`
/// lives; nested values come from `arena` (valid until it is cleared). Fails with
/// kInvalidArgument for a row out of range or a column type without a Value mapping.
Status RowValuesFromArrow(const arrow::RecordBatch& batch, int64_t row, std::vector<Value>* out, ValueArena* arena);

}  // namespace fluss::row
