// The upsert writer of a primary-key table: checks rows, encodes their primary key and bucket
// key exactly as the Java client does for the table's key encoding (row/key_encoding.h), and
// hands upserts and deletes to the connection's writer client as KV records. Batching,
// sending, retries, idempotence and completion are the writer client's.
//
// Thread affinity: every method may be called from any thread; immutable after Create except
// the thread-safe parts it holds (tracker).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "fluss/client.h"
#include "fluss/row/key_encoding.h"
#include "fluss/row/partition_name.h"
#include "fluss/write/row_validator.h"
#include "fluss/write/writer_client.h"

namespace fluss::write {

class UpsertWriterImpl : public UpsertWriter {
 public:
  /// `target_columns`: table column indexes of a partial update (any order, no duplicates,
  /// every primary-key column, every other column nullable); empty = full rows. Fails with
  /// kInvalidArgument naming the problem. Rows of a partitioned table go to the partition their
  /// partition columns (part of the primary key) name.
  static Result<std::shared_ptr<UpsertWriterImpl>> Create(std::shared_ptr<WriterClient> client, TableInfo table,
                                                          std::vector<int32_t> target_columns);

  Result<WriteResult> Upsert(const Value* values, size_t count) override;
  Result<WriteResult> Delete(const Value* values, size_t count) override;
  Result<WriteResult> UpsertNoWait(const Value* values, size_t count) override;
  Result<WriteResult> DeleteNoWait(const Value* values, size_t count) override;
  bool BufferFull() override { return client_->memory().Full(); }
  Status WaitForBufferSpace() override;
  void FlushAsync(StatusCallback done) override { client_->Flush(tracker_, std::move(done)); }
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  const std::vector<int32_t>& target_columns() const override { return target_columns_; }

 private:
  UpsertWriterImpl(std::shared_ptr<WriterClient> client, TableInfo table, row::KeyEncoding keys,
                   std::shared_ptr<const WriteTable> target, std::vector<int32_t> target_columns,
                   std::optional<row::PartitionNamer> partitions);

  /// Checks the call (connection open, one value per column), encodes the key and files the
  /// record: an upsert of `row` when `upsert`, else a delete of the key in `values`.
  Result<WriteResult> Write(const Value* values, size_t count, bool upsert);
  /// The bucket of a row whose primary-key bytes are `pk`.
  Result<int32_t> BucketOf(const Value* values, const std::string& pk) const;
  std::string Where() const { return "table " + table_.table_path.ToString(); }

  const std::shared_ptr<WriterClient> client_;
  const TableInfo table_;
  const std::shared_ptr<arrow::Schema> schema_;
  const RowValidator validator_;
  const row::KeyEncoding keys_;
  const std::shared_ptr<const WriteTable> target_;
  const std::vector<int32_t> target_columns_;  // ascending; every column for a full-row writer
  std::vector<bool> written_;                  // per column: written by this writer
  const std::optional<row::PartitionNamer> partitions_;  // partitioned tables only
  const std::shared_ptr<WriteTracker> tracker_;
  const RecordAccumulator::BatchFactory make_batch_;
};

}  // namespace fluss::write
