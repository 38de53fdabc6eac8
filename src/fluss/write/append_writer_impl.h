// The append writer of a log table: checks rows and Arrow batches against the table, picks
// their bucket and hands them to the connection's writer client as ARROW or INDEXED log
// records. Batching, sending, retries and completion are the writer client's.
//
// Thread affinity: every method may be called from any thread; the state is immutable after
// Create except inside the thread-safe parts it holds (bucket assigner, tracker).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "fluss/client.h"
#include "fluss/row/partition_name.h"
#include "fluss/write/row_validator.h"
#include "fluss/write/bucket_assigner.h"
#include "fluss/write/writer_client.h"

namespace fluss::write {

class AppendWriterImpl : public AppendWriter {
 public:
  /// Fails with kInvalidArgument for a primary-key table, kUnsupported for a log format other
  /// than ARROW and INDEXED, or an unknown compression codec. Rows of a partitioned table go to
  /// the partition their partition columns name (row/partition_name.h).
  static Result<std::shared_ptr<AppendWriterImpl>> Create(std::shared_ptr<WriterClient> client, TableInfo table);

  Result<WriteResult> Append(const Value* values, size_t count) override;
  Result<WriteResult> AppendNoWait(const Value* values, size_t count) override;
  Result<WriteResult> WriteArrowBatch(const std::shared_ptr<arrow::RecordBatch>& batch) override;
  void FlushAsync(StatusCallback done) override;
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  bool BufferFull() override;
  Status WaitForBufferSpace() override;

 private:
  AppendWriterImpl(std::shared_ptr<WriterClient> client, TableInfo table, std::shared_ptr<const WriteTable> target,
                   bool indexed, std::unique_ptr<BucketAssigner> assigner,
                   std::optional<row::PartitionNamer> partitions);

  /// Files one validated row and returns the handle of its batch.
  Result<std::shared_ptr<WriteResult::State>> AppendValidated(const Value* values);
  /// Arrow input that cannot go as whole batches (bucket keys, INDEXED format): row by row.
  Result<WriteResult> WriteArrowRows(const std::shared_ptr<arrow::RecordBatch>& batch);
  /// Files `batch` (rows of one partition, `partition` its name or empty) as closed batches of
  /// at most client.writer.batch-size bytes, each to the sticky bucket; every piece adds one
  /// part to `state`.
  Status WriteArrowPieces(const std::shared_ptr<arrow::RecordBatch>& batch, const std::string& partition,
                          const std::shared_ptr<WriteResult::State>& state);
  PhysicalBucket Bucket(int32_t bucket, std::string partition) const {
    return PhysicalBucket{metadata::TableBucket{table_.table_id, std::nullopt, bucket}, std::move(partition)};
  }

  const std::shared_ptr<WriterClient> client_;
  const TableInfo table_;
  const std::shared_ptr<arrow::Schema> schema_;
  const RowValidator validator_;
  const std::shared_ptr<const WriteTable> target_;
  const bool indexed_;  // INDEXED log format (else ARROW)
  const std::unique_ptr<BucketAssigner> assigner_;
  const std::optional<row::PartitionNamer> partitions_;  // partitioned tables only
  const std::shared_ptr<WriteTracker> tracker_;
  const RecordAccumulator::BatchFactory make_batch_;
};

}  // namespace fluss::write
