// Fluss CompactedRow encoding (protocol-data.md sections 4.1 and 4.3; Java CompactedRowWriter /
// CompactedRowReader), the default `table.kv.format` of primary-key tables (PutKv values, lookup
// values) and the COMPACTED log format:
//
//   [null bitmap: ceil(N/8) bytes, bit i = field i is NULL; present even when N fields are
//    NOT NULL]
//   [values of the non-null fields, in field order, back to back, no padding]
//
// Per type (varint = unsigned LEB128 of the bit pattern, no zig-zag; util/bytes.h):
//   BOOLEAN, TINYINT        1 byte
//   SMALLINT                2 bytes LE (not a varint)
//   INT, DATE, TIME         varint32 (TIME = milliseconds of day)
//   BIGINT                  varint64
//   FLOAT, DOUBLE           4 / 8 bytes LE IEEE
//   STRING, CHAR(n)         varint32 length + UTF-8 (no padding)
//   BYTES, BINARY(n)        varint32 length + bytes (no padding)
//   DECIMAL p <= 18         varint64 of the unscaled value
//   DECIMAL p > 18          varint32 length + minimal big-endian two's complement
//   TIMESTAMP(_LTZ) p <= 3  varint64 epoch millis
//   TIMESTAMP(_LTZ) p > 3   varint64 epoch millis (floored), then varint32 nano-of-millisecond
//   ARRAY, MAP              varint32 length + BinaryArray / BinaryMap (nested_codec.h)
//   ROW                     varint32 length + nested CompactedRow
// A NULL field contributes no bytes. The same per-field encoding, without the bitmap, is the
// CompactedKey (key_encoder.h).
//
// Thread affinity: everything here is stateless or immutable after construction; a
// CompactedRowCodec may be shared by threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"
#include "fluss/row/datum.h"
#include "fluss/status.h"

namespace fluss::row {

/// Appends the CompactedRow bytes of one non-null field value `d` of `column` (table above).
/// Fails only for a nested value DatumFromValue would refuse.
Status AppendCompactedField(const ColumnType& column, const Datum& d, std::string* out);

/// Reads one CompactedRow field of type `type` from [data + *pos, data + size) into `d` and
/// advances `*pos`. Byte-string values point into `data`. Returns false, with `*what` saying why,
/// for a truncated value, an over-long varint, a negative length or a decimal of 0 or more than
/// 16 bytes.
bool ReadCompactedField(const DataType& type, const uint8_t* data, size_t size, size_t* pos, Datum* d,
                        const char** what);

/// Appends the CompactedRow of `values` (one per column of `columns`; DatumFromValue rules) to
/// `out`; on failure (kInvalidArgument naming the column) `out` is left as it was.
Status EncodeCompactedFields(const std::vector<ColumnType>& columns, const Value* values, std::string* out);

/// Decodes one CompactedRow of `columns` of exactly `size` bytes and, when `builders` is not
/// null, appends one value (or null) to each builder (one per column). Everything is read and
/// checked (kProtocol naming the column) before a builder is touched. `scratch` holds the
/// decoded fields (reused between calls; a nested row needs its own).
Status DecodeCompactedFields(const std::vector<ColumnType>& columns, const uint8_t* data, size_t size,
                             const std::vector<arrow::ArrayBuilder*>* builders, std::vector<Datum>* scratch);

/// Per-schema CompactedRow encoder and decoder; the column types are resolved once in Make.
/// Immutable after Make.
class CompactedRowCodec {
 public:
  /// Fails with kInvalidArgument naming the column for an Arrow type with no Fluss equivalent
  /// (data_type.h).
  static Result<CompactedRowCodec> Make(const arrow::Schema& schema);

  /// Appends the encoding of one row to `out`; `values` holds one fluss::Value per field (the
  /// conventions of include/fluss/client.h, checked by DatumFromValue of datum.h). On failure
  /// `out` is left as it was; the error (kInvalidArgument) names the column: a value of the
  /// wrong kind or out of the column's range, a null in a NOT NULL column.
  Status Encode(const Value* values, std::string* out) const;

  /// Decodes one row of exactly `size` bytes and appends one value (or null) to each of
  /// `builders` (one per field, made with arrow::MakeBuilder for the field type). The whole row
  /// is read and checked before anything is appended: on a kProtocol failure (truncated row,
  /// bad varint or length, trailing bytes, value out of the column's Arrow range) no builder is
  /// touched; the error names the column. A BINARY(n) value shorter than n bytes is padded with
  /// 0x00 (Arrow's fixed_size_binary(n) has no shorter values).
  Status Decode(const uint8_t* data, size_t size, const std::vector<arrow::ArrayBuilder*>& builders) const;

  /// Checks that `builders` has one builder per field, of the field's Arrow type.
  Status CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const;

  int num_fields() const { return static_cast<int>(columns_.size()); }
  /// Bytes of the null bitmap: ceil(num_fields / 8).
  size_t bitmap_size() const { return (columns_.size() + 7) / 8; }
  const std::vector<ColumnType>& columns() const { return columns_; }

 private:
  CompactedRowCodec() = default;
  std::vector<ColumnType> columns_;
};

}  // namespace fluss::row
