// fluss::UpsertWriter: upserts and deletes rows of a primary-key table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/callbacks.h"
#include "fluss/value.h"
#include "fluss/write_result.h"

namespace fluss {

/// Writes to a primary-key table (PutKv). Rows go into per-bucket KV batches, keyed and
/// bucketed exactly as the Java client does for the table's key encoding, batched and sent
/// like appends (client.writer.batch-size, client.writer.batch-timeout, writer.acks, retries,
/// idempotence, client.writer.delivery-timeout), sharing the connection's buffer memory.
/// A writer made for a subset of the columns (a partial update) sends only those; the
/// server keeps the other columns of existing rows as they are.
/// A partitioned table's rows (and deletes) go to the partition their partition columns (part
/// of the primary key) name, as AppendWriter's do, with the same PARTITION_NOT_EXISTS rule.
class UpsertWriter {
 public:
  virtual ~UpsertWriter() = default;
  /// Inserts or replaces the row whose primary key `values` holds: one Value per table column,
  /// in table column order. A partial-update writer reads only its target columns (the others
  /// must be null). Every value is checked first: a wrong kind, an out-of-range value, a null
  /// in a primary-key or NOT NULL target column fails with kInvalidArgument naming the column,
  /// and nothing else queued is affected. Waits while the connection's buffer memory is full
  /// (client.writer.buffer.wait-timeout, then kTimeout).
  virtual Result<WriteResult> Upsert(const Value* values, size_t count) = 0;
  /// Deletes the row with the primary key in `values` (one Value per table column; only the
  /// primary-key columns are read and must not be null). Same checks and waiting as Upsert.
  virtual Result<WriteResult> Delete(const Value* values, size_t count) = 0;
  /// Upsert without waiting for buffer memory (callers wait with WaitForBufferSpace).
  virtual Result<WriteResult> UpsertNoWait(const Value* values, size_t count) = 0;
  /// Delete without waiting for buffer memory.
  virtual Result<WriteResult> DeleteNoWait(const Value* values, size_t count) = 0;
  /// True while the connection's buffered bytes are at or above client.writer.buffer.memory-size.
  virtual bool BufferFull() = 0;
  /// Blocks until buffer memory is free; kTimeout after client.writer.buffer.wait-timeout.
  virtual Status WaitForBufferSpace() = 0;
  /// Sends every open batch and calls `done` when all writes made before are complete, with
  /// the same outcome rules as AppendWriter::FlushAsync.
  virtual void FlushAsync(StatusCallback done) = 0;
  /// The table's Arrow schema (every column, in table order).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  /// The columns this writer writes (table column indexes, ascending); every column for a
  /// full-row writer.
  virtual const std::vector<int32_t>& target_columns() const = 0;
};

}  // namespace fluss
