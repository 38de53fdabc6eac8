// The append writer of a log table: checks rows and Arrow batches against the table, picks
// their bucket and hands them to the connection's writer client as ARROW or INDEXED log
// records. Batching, sending, retries and completion are the writer client's.
//
// Thread affinity: every method may be called from any thread; the state is immutable after
// Create except inside the thread-safe parts it holds (bucket assigner, tracker).
#pragma once

#include <memory>

#include "fluss/client.h"
#include "fluss/write/row_validator.h"
#include "fluss/write/bucket_assigner.h"
#include "fluss/write/writer_client.h"

namespace fluss::write {

class AppendWriterImpl : public AppendWriter {
 public:
  /// Fails with kInvalidArgument for a primary-key table, kUnsupported for a partitioned table
  /// or a log format other than ARROW and INDEXED, or an unknown compression codec.
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
                   bool indexed, std::unique_ptr<BucketAssigner> assigner);

  /// Files one validated row; `touched` collects the handle of its batch.
  Result<std::shared_ptr<WriteResult::State>> AppendValidated(const Value* values);
  /// Arrow input that cannot go as one batch (bucket keys, INDEXED format): row by row.
  Result<WriteResult> WriteArrowRows(const std::shared_ptr<arrow::RecordBatch>& batch);
  metadata::TableBucket Bucket(int32_t bucket) const { return metadata::TableBucket{table_.table_id, std::nullopt, bucket}; }

  const std::shared_ptr<WriterClient> client_;
  const TableInfo table_;
  const std::shared_ptr<arrow::Schema> schema_;
  const RowValidator validator_;
  const std::shared_ptr<const WriteTable> target_;
  const bool indexed_;  // INDEXED log format (else ARROW)
  const std::unique_ptr<BucketAssigner> assigner_;
  const std::shared_ptr<WriteTracker> tracker_;
  const RecordAccumulator::BatchFactory make_batch_;
};

}  // namespace fluss::write
