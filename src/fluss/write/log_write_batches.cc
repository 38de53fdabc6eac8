#include "fluss/write/log_write_batches.h"

#include <arrow/record_batch.h>

#include "fluss/record/arrow_log.h"
#include "fluss/record/log_batch.h"

namespace fluss::write {

ArrowLogWriteBatch::ArrowLogWriteBatch(std::shared_ptr<const WriteTable> table, PhysicalBucket where)
    : WriteBatch(std::move(table), std::move(where)) {
  builder_ = std::make_unique<RowBatchBuilder>(this->table()->schema);
}

std::unique_ptr<ArrowLogWriteBatch> ArrowLogWriteBatch::FromArrow(std::shared_ptr<const WriteTable> table,
                                                                  PhysicalBucket where,
                                                                  std::shared_ptr<arrow::RecordBatch> data) {
  auto b = std::make_unique<ArrowLogWriteBatch>(std::move(table), std::move(where));
  b->builder_.reset();
  b->rows = data->num_rows();
  b->data_ = std::move(data);
  return b;
}

Result<int64_t> ArrowLogWriteBatch::Append(const WriteRecord& record) {
  if (!builder_) return Status::Internal("append to a closed Arrow log batch");
  return builder_->Append(record.row);
}

int64_t ArrowLogWriteBatch::size_in_bytes() const {
  if (builder_) return builder_->estimated_bytes();
  return encoded_ ? encoded_->size() : bytes;
}

Status ArrowLogWriteBatch::Close() {
  if (!builder_) return Status::OK();
  FLUSS_ASSIGN_OR_RETURN(data_, builder_->Finish());
  builder_.reset();
  return Status::OK();
}

Status ArrowLogWriteBatch::Encode() {
  if (encoded_) return Status::OK();
  if (!data_) return Status::Internal("encoding an open Arrow log batch");
  FLUSS_ASSIGN_OR_RETURN(encoded_, record::EncodeArrowLogBatch(*data_, table()->schema_id, table()->arrow_options));
  data_.reset();
  return Status::OK();
}

void ArrowLogWriteBatch::SetWriterAndSequence(int64_t writer_id, int32_t batch_sequence) {
  record::SetWriterAndSequence(encoded_->mutable_data(), static_cast<size_t>(encoded_->size()), writer_id,
                               batch_sequence);
}

IndexedLogWriteBatch::IndexedLogWriteBatch(std::shared_ptr<const WriteTable> table, PhysicalBucket where)
    : EncodedOnAppendBatch(table, std::move(where), table->schema) {}

Result<int64_t> IndexedLogWriteBatch::Append(const WriteRecord& record) {
  const int64_t before = builder_.size_in_bytes();
  FLUSS_RETURN_NOT_OK(builder_.Append(record.row));
  return builder_.size_in_bytes() - before;
}

}  // namespace fluss::write
