// The log-table variants of WriteBatch: ARROW (rows into Arrow builders, or a caller's Arrow
// record batch sent as is) and INDEXED (rows encoded as IndexedRows as they come).
//
// Thread affinity: as WriteBatch.
#pragma once

#include <memory>

#include "fluss/record/indexed_log.h"
#include "fluss/record/log_batch.h"
#include "fluss/write/row_batch_builder.h"
#include "fluss/write/write_batch.h"

namespace fluss::write {

/// An ARROW log batch. Built from rows (Append) or from one Arrow record batch (FromArrow);
/// the IPC encoding and compression run in Encode, on the I/O thread.
class ArrowLogWriteBatch final : public WriteBatch {
 public:
  ArrowLogWriteBatch(std::shared_ptr<const WriteTable> table, PhysicalBucket where);
  /// A closed batch holding `data` (its schema is the table's), accounted as `bytes`.
  static std::unique_ptr<ArrowLogWriteBatch> FromArrow(std::shared_ptr<const WriteTable> table,
                                                       PhysicalBucket where,
                                                       std::shared_ptr<arrow::RecordBatch> data);

  RequestKind kind() const override { return RequestKind::kProduceLog; }
  Result<int64_t> Append(const WriteRecord& record) override;
  int64_t size_in_bytes() const override;
  Status Close() override;
  Status Encode() override;
  void SetWriterAndSequence(int64_t writer_id, int32_t batch_sequence) override;

 private:
  std::unique_ptr<RowBatchBuilder> builder_;  // open row batches only
  std::shared_ptr<arrow::RecordBatch> data_;  // closed, not yet encoded
};

/// An INDEXED log batch: each row is encoded on Append; Close writes the header.
class IndexedLogWriteBatch final : public EncodedOnAppendBatch<record::IndexedBatchBuilder, record::SetWriterAndSequence> {
 public:
  IndexedLogWriteBatch(std::shared_ptr<const WriteTable> table, PhysicalBucket where);

  RequestKind kind() const override { return RequestKind::kProduceLog; }
  Result<int64_t> Append(const WriteRecord& record) override;
};

}  // namespace fluss::write
