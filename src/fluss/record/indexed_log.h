// INDEXED log format (protocol-data.md section 3): a log batch is the 48-byte V0 header
// followed by RecordCount records back to back, each
//   [int32 LE Length = 1 + row size][int8 change type][IndexedRow (src/fluss/row/indexed_row.h)]
// Client-written batches carry change type 0 (+A) in every record and Attributes 0x01 (append
// only); server changelog batches of primary-key tables carry 1..4 and Attributes 0x00.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/record/log_batch.h"
#include "fluss/row/indexed_row.h"
#include "fluss/status.h"

namespace fluss::record {

/// Change types of log records (the whole byte is the value).
inline constexpr int8_t kChangeTypeAppendOnly = 0;  // +A
inline constexpr int8_t kChangeTypeMaxValue = 4;    // -D; +I 1, -U 2, +U 3

/// Accumulates rows and produces one INDEXED log batch: 48-byte V0 header (CRC included, no
/// writer id, append-only) + one record per row with change type +A.
///
/// Thread affinity: none; not thread-safe. One owner (e.g. a per-bucket batch of the writer,
/// under its lock) appends and finishes.
class IndexedBatchBuilder {
 public:
  /// `schema` is the table's schema (one field per column, in table order). An unsupported
  /// column type makes every Append fail with kInvalidArgument naming the column.
  explicit IndexedBatchBuilder(std::shared_ptr<arrow::Schema> schema);

  /// Encodes one row (one Value per field, already validated) as a record. On failure the
  /// builder is unchanged. The bytes added are visible through size_in_bytes().
  Status Append(const Value* values);

  /// Bytes of the batch Finish would produce now (header included).
  int64_t size_in_bytes() const { return static_cast<int64_t>(buffer_.size()); }
  int32_t num_records() const { return num_records_; }
  const std::shared_ptr<arrow::Schema>& schema() const { return schema_; }

  /// Returns the finished batch in a new mutable buffer (so SetWriterAndSequence can set the
  /// writer id and batch sequence later) and resets the builder to empty. With no rows the
  /// batch is header-only (RecordCount 0).
  Result<std::shared_ptr<arrow::Buffer>> Finish(int16_t schema_id);

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::optional<row::IndexedRowCodec> codec_;
  Status codec_status_;
  std::string buffer_;  // header placeholder (48 zero bytes) + records
  int32_t num_records_ = 0;
};

/// Decodes the records of one INDEXED log batch (`batch` holds exactly one batch with `header`)
/// into a RecordBatch of `schema`, the schema the rows were written with (for a table without
/// schema changes, the table's full schema; no projection). Handles batches whose Attributes
/// say they are not append-only (change type byte per record, any of 0..4).
/// Returns nullptr for a header-only batch (RecordCount 0), like DecodeArrowLogBatch. When
/// `change_types` is not null it is replaced by one change-type byte per row.
/// Fails with kProtocol for a malformed batch (truncated or over-long records, unknown change
/// type, rows that do not match `schema`), kInvalidArgument for a schema without an IndexedRow
/// encoding.
Result<std::shared_ptr<arrow::RecordBatch>> DecodeIndexedLogBatch(
    const std::shared_ptr<arrow::Buffer>& batch, const LogBatchHeader& header,
    const std::shared_ptr<arrow::Schema>& schema, std::vector<int8_t>* change_types = nullptr);

}  // namespace fluss::record
