#include "fluss/write/append_writer_impl.h"

#include "fluss/row/arrow_input.h"

#include <map>
#include <set>

#include <arrow/array/builder_primitive.h>
#include <arrow/compute/api_vector.h>
#include <arrow/datum.h>
#include <arrow/compute/initialize.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/byte_size.h>

#include "fluss/record/arrow_log.h"
#include "fluss/row/indexed_row.h"
#include "fluss/write/log_write_batches.h"

namespace fluss::write {

namespace {

// The rows `rows` of `batch`, in that order, as a new batch (Arrow's Take kernel).
Result<std::shared_ptr<arrow::RecordBatch>> TakeRows(const std::shared_ptr<arrow::RecordBatch>& batch,
                                                     const std::vector<int64_t>& rows) {
  // Since Arrow 21 the compute kernels register on Initialize (pyarrow does it on import; a
  // C++-only process may not have).
  static const arrow::Status initialized = arrow::compute::Initialize();
  if (!initialized.ok()) return Status::Internal("Arrow compute: " + initialized.ToString());
  arrow::Int64Builder indices;
  if (!indices.AppendValues(rows).ok()) return Status::Internal("out of memory building row indices");
  auto array = indices.Finish();
  if (!array.ok()) return Status::Internal("out of memory building row indices");
  auto taken = arrow::compute::Take(arrow::Datum(batch), arrow::Datum(*array));
  if (!taken.ok()) return Status::Internal("Arrow Take: " + taken.status().ToString());
  return taken->record_batch();
}

}  // namespace

Result<std::shared_ptr<AppendWriterImpl>> AppendWriterImpl::Create(std::shared_ptr<WriterClient> client,
                                                                   TableInfo table) {
  const std::string name = table.table_path.ToString();
  if (table.HasPrimaryKey())
    return Status::InvalidArgument("table " + name + " has a primary key: use an upsert writer, not an append writer");
  std::string format = table.LogFormat();
  for (auto& c : format) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (format != "ARROW" && format != "INDEXED")
    return Status::Unsupported("table " + name + " uses log format " + format + "; this writer supports ARROW and INDEXED");
  const auto& schema = table.descriptor.schema.arrow_schema;
  std::unique_ptr<BucketAssigner> assigner;
  if (!table.descriptor.bucket_keys.empty()) {
    std::vector<int> keys;
    for (const auto& key : table.descriptor.bucket_keys) {
      const int i = schema->GetFieldIndex(key);
      if (i < 0) return Status::Protocol("table " + name + ": bucket key '" + key + "' is not a column");
      keys.push_back(i);
    }
    FLUSS_ASSIGN_OR_RETURN(auto enc, row::CompactedKeyEncoder::Create(schema, keys));
    assigner = std::make_unique<KeyBucketAssigner>(std::move(enc), table.num_buckets);
  } else {
    assigner = std::make_unique<StickyBucketAssigner>(table.num_buckets);
  }
  int level = 3;
  try {
    level = std::stoi(table.Property("table.log.arrow.compression.zstd.level", "3"));
  } catch (...) {
  }
  std::optional<row::PartitionNamer> partitions;
  if (table.IsPartitioned()) {
    auto namer = row::PartitionNamer::Make(*schema, table.descriptor.partition_keys);
    if (!namer.ok()) return namer.status().WithContext("table " + name);
    partitions = std::move(*namer);
  }
  auto target = std::make_shared<WriteTable>();
  target->path = table.table_path;
  target->partition_keys = table.descriptor.partition_keys;
  target->table_id = table.table_id;
  target->schema_id = static_cast<int16_t>(table.schema_id);
  target->schema = schema;
  FLUSS_ASSIGN_OR_RETURN(target->arrow_options,
                         record::ArrowWriteOptions(table.Property("table.log.arrow.compression.type", "ZSTD"), level));
  const bool indexed = format == "INDEXED";
  return std::shared_ptr<AppendWriterImpl>(
      new AppendWriterImpl(std::move(client), std::move(table), std::move(target), indexed, std::move(assigner),
                           std::move(partitions)));
}

AppendWriterImpl::AppendWriterImpl(std::shared_ptr<WriterClient> client, TableInfo table,
                                   std::shared_ptr<const WriteTable> target, bool indexed,
                                   std::unique_ptr<BucketAssigner> assigner,
                                   std::optional<row::PartitionNamer> partitions)
    : client_(std::move(client)),
      table_(std::move(table)),
      schema_(table_.descriptor.schema.arrow_schema),
      validator_(schema_),
      target_(std::move(target)),
      indexed_(indexed),
      assigner_(std::move(assigner)),
      partitions_(std::move(partitions)),
      tracker_(client_->NewTracker()),
      make_batch_([target = target_, indexed](const PhysicalBucket& b) -> std::unique_ptr<WriteBatch> {
        if (indexed) return std::make_unique<IndexedLogWriteBatch>(target, b);
        return std::make_unique<ArrowLogWriteBatch>(target, b);
      }) {}

bool AppendWriterImpl::BufferFull() { return client_->memory().Full(); }

Status AppendWriterImpl::WaitForBufferSpace() { return client_->memory().WaitForSpace("table " + table_.table_path.ToString()); }

Result<WriteResult> AppendWriterImpl::Append(const Value* values, size_t count) {
  if (BufferFull()) FLUSS_RETURN_NOT_OK(WaitForBufferSpace());
  return AppendNoWait(values, count);
}

Result<std::shared_ptr<WriteResult::State>> AppendWriterImpl::AppendValidated(const Value* values) {
  std::string key;  // the encoded bucket key, for key-bucketed tables
  PhysicalBucket where = Bucket(0, {});
  if (partitions_) {
    auto name = partitions_->NameOf(values);
    if (!name.ok()) return name.status().WithContext("table " + table_.table_path.ToString());
    where.partition_name = std::move(*name);
  }
  FLUSS_ASSIGN_OR_RETURN(where.bucket.bucket, assigner_->Assign(values, &key));
  WriteRecord record;
  record.row = values;
  auto appended = client_->Append(tracker_, where, record, make_batch_);
  if (!appended.ok()) return appended.status().WithContext("table " + table_.table_path.ToString());
  if (appended->batch_full) {
    assigner_->OnBatchFull(where.bucket.bucket);
    client_->Wake();
  }
  return std::move(appended->result);
}

Result<WriteResult> AppendWriterImpl::AppendNoWait(const Value* values, size_t count) {
  if (client_->cluster()->closed()) return Status::Closed("table " + table_.table_path.ToString() + ": the connection is closed");
  FLUSS_RETURN_NOT_OK(validator_.Check(values, count));
  FLUSS_ASSIGN_OR_RETURN(auto state, AppendValidated(values));
  return WriteResult(std::move(state));
}

Result<WriteResult> AppendWriterImpl::WriteArrowRows(const std::shared_ptr<arrow::RecordBatch>& batch) {
  // Every row joins the open batch of its bucket; the result completes when all those batches
  // are acknowledged.
  std::vector<Value> values;
  row::ValueArena nested;  // a row's nested values, until the row is filed
  std::set<std::shared_ptr<WriteResult::State>> touched;
  for (int64_t r = 0; r < batch->num_rows(); ++r) {
    nested.Clear();
    FLUSS_RETURN_NOT_OK(row::RowValuesFromArrow(*batch, r, &values, &nested));
    FLUSS_ASSIGN_OR_RETURN(auto state, AppendValidated(values.data()));
    touched.insert(std::move(state));
  }
  auto all = std::make_shared<WriteResult::State>();
  all->parts = std::max<int>(1, static_cast<int>(touched.size()));
  if (touched.empty()) all->CompletePart(Status::OK());
  for (auto& st : touched) WriteResult(st).OnComplete([all](Status s) { all->CompletePart(s); });
  return WriteResult(all);
}

Result<WriteResult> AppendWriterImpl::WriteArrowBatch(const std::shared_ptr<arrow::RecordBatch>& batch) {
  if (!batch) return Status::InvalidArgument("write_arrow_batch: batch is None");
  const auto& in = *batch->schema();
  if (in.num_fields() != schema_->num_fields())
    return Status::InvalidArgument("write_arrow_batch: batch has " + std::to_string(in.num_fields()) +
                                   " columns but table " + table_.table_path.ToString() + " has " +
                                   std::to_string(schema_->num_fields()));
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (int i = 0; i < in.num_fields(); ++i) {
    const auto& want = schema_->field(i);
    const auto& got = in.field(i);
    if (got->name() != want->name())
      return Status::InvalidArgument("write_arrow_batch: column " + std::to_string(i) + " is '" + got->name() +
                                     "' but the table's column is '" + want->name() + "'");
    auto column = row::ConformArrowColumn(*want, batch->column(i));
    if (!column.ok()) return column.status().WithContext("write_arrow_batch");
    columns.push_back(std::move(*column));
  }
  // Re-label with the table schema (names and nullability) so the batch encodes like a row batch.
  auto aligned = arrow::RecordBatch::Make(schema_, batch->num_rows(), std::move(columns));
  if (indexed_ || assigner_->per_row()) return WriteArrowRows(aligned);
  // One sub-batch per partition (rows keep their order within it), so rows of two partitions
  // are never filed in one batch. Every partition name is checked before anything is filed.
  std::vector<std::pair<std::string, std::shared_ptr<arrow::RecordBatch>>> parts;
  if (!partitions_) {
    if (aligned->num_rows() > 0) parts.emplace_back("", aligned);
  } else {
    std::map<std::string, std::vector<int64_t>> rows_of;
    for (int64_t r = 0; r < aligned->num_rows(); ++r) {
      auto name = partitions_->NameOf(*aligned, r);
      if (!name.ok())
        return name.status().WithContext("write_arrow_batch: row " + std::to_string(r) + " of table " +
                                         table_.table_path.ToString());
      rows_of[*name].push_back(r);
    }
    for (auto& [name, rows] : rows_of) {
      if (rows_of.size() == 1) {
        parts.emplace_back(name, aligned);
        break;
      }
      FLUSS_ASSIGN_OR_RETURN(auto part, TakeRows(aligned, rows));
      parts.emplace_back(name, std::move(part));
    }
  }
  // The state's first part is held until every piece is filed, so it cannot complete early.
  auto state = std::make_shared<WriteResult::State>();
  Status filed;
  for (const auto& [name, part] : parts) {
    filed = WriteArrowPieces(part, name, state);
    if (!filed.ok()) break;
  }
  state->CompletePart(filed);
  if (!filed.ok()) return filed;
  return WriteResult(state);
}

Status AppendWriterImpl::WriteArrowPieces(const std::shared_ptr<arrow::RecordBatch>& batch, const std::string& partition,
                                          const std::shared_ptr<WriteResult::State>& state) {
  // Split batches above writer.batch.size so every produce request stays bounded.
  const int64_t batch_size = client_->cluster()->options().writer_batch_size;
  const int64_t total = std::max<int64_t>(1, static_cast<int64_t>(arrow::util::TotalBufferSize(*batch)));
  const int64_t pieces = std::max<int64_t>(1, (total + batch_size - 1) / batch_size);
  const int64_t rows_per_piece = (batch->num_rows() + pieces - 1) / pieces;
  std::vector<std::shared_ptr<arrow::RecordBatch>> slices;
  for (int64_t off = 0; off < batch->num_rows(); off += rows_per_piece)
    slices.push_back(batch->Slice(off, std::min(rows_per_piece, batch->num_rows() - off)));
  // Parts are added before filing, so the handle cannot complete while pieces are still filed.
  state->AddParts(static_cast<int>(slices.size()));
  for (size_t i = 0; i < slices.size(); ++i) {
    FLUSS_ASSIGN_OR_RETURN(const int32_t bucket, assigner_->Assign(nullptr, nullptr));
    auto b = ArrowLogWriteBatch::FromArrow(target_, Bucket(bucket, partition), slices[i]);
    Status st = client_->AddClosed(tracker_, std::move(b), state, total / static_cast<int64_t>(slices.size()));
    if (!st.ok()) {
      // The slices not filed complete the handle with the error (filed ones still count).
      for (size_t j = i; j < slices.size(); ++j) state->CompletePart(st);
      return st.WithContext("table " + table_.table_path.ToString());
    }
    assigner_->OnBatchFull(bucket);
  }
  return Status::OK();
}

void AppendWriterImpl::FlushAsync(StatusCallback done) { client_->Flush(tracker_, std::move(done)); }

}  // namespace fluss::write
