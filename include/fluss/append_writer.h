// fluss::AppendWriter: writes rows and Arrow batches to a log table.
#pragma once

#include <cstddef>
#include <memory>
#include <arrow/type_fwd.h>
#include "fluss/callbacks.h"
#include "fluss/value.h"
#include "fluss/write_result.h"

namespace fluss {

/// Writes to a log table. Rows go into per-bucket Arrow batches that close at
/// writer.batch.size bytes, after client.writer.batch-timeout, or on Flush, and are sent to the
/// bucket leader with writer.acks. Failed sends are retried (after a metadata refresh when the
/// error or a timeout suggests the leader moved) until client.writer.delivery-timeout; with
/// idempotence (the default) a retried batch is stored once, in order.
/// A partitioned table's rows go to the partition their partition columns name (the value
/// strings the Java client builds, joined with '$'); the partition id is resolved at the
/// coordinator when first needed. Rows of a partition that does not exist fail their handle
/// and the next Flush with PARTITION_NOT_EXISTS (36) naming it, unless
/// client.writer.dynamic-create-partition.enabled is true (then the writer creates it).
class AppendWriter {
 public:
  virtual ~AppendWriter() = default;
  /// Appends one row given as one Value per column, in table column order. Every value is
  /// checked against its column before anything is queued: a wrong kind, an out-of-range
  /// integer, too many decimal digits or a null in a NOT NULL column fails with kInvalidArgument
  /// naming the column, and nothing else queued is affected. Waits while the writer's buffer
  /// memory (client.writer.buffer.memory-size) is full, failing with kTimeout after
  /// client.writer.buffer.wait-timeout.
  virtual Result<WriteResult> Append(const Value* values, size_t count) = 0;
  /// Append without waiting for buffer memory: for callers that wait themselves (with
  /// WaitForBufferSpace) in a way that suits them, e.g. without a language lock held.
  virtual Result<WriteResult> AppendNoWait(const Value* values, size_t count) = 0;
  /// True while buffered bytes are at or above client.writer.buffer.memory-size.
  virtual bool BufferFull() = 0;
  /// Blocks until buffer memory is free; kTimeout after client.writer.buffer.wait-timeout.
  virtual Status WaitForBufferSpace() = 0;
  /// Appends an Arrow record batch whose fields match the table's columns by name and type
  /// (kInvalidArgument naming the field otherwise). The batch is sent as is, no per-row work;
  /// for a partitioned table it is split per partition first (every row's partition value is
  /// checked before anything is queued: kInvalidArgument naming the row and column).
  virtual Result<WriteResult> WriteArrowBatch(const std::shared_ptr<arrow::RecordBatch>& batch) = 0;
  /// Closes every open batch and calls `done` when all writes appended before this call are
  /// complete. `done` gets OK only when no write failed since the previous flush (including
  /// writes whose handles nobody looked at); otherwise an error with the first failure's code
  /// that says how many rows and batches failed and why. Each failure is reported by one
  /// flush (every flush waiting when it happens, else the next one).
  virtual void FlushAsync(StatusCallback done) = 0;
  /// The Arrow schema rows must follow (the table's columns).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
};

}  // namespace fluss
