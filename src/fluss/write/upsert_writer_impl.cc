#include "fluss/write/upsert_writer_impl.h"

#include <algorithm>
#include <set>

#include <arrow/type.h>

#include "fluss/row/kv_value.h"
#include "fluss/write/kv_write_batch.h"
#include "fluss/write/row_batch_builder.h"

namespace fluss::write {

Result<std::shared_ptr<UpsertWriterImpl>> UpsertWriterImpl::Create(std::shared_ptr<WriterClient> client,
                                                                   TableInfo table, std::vector<int32_t> target_columns) {
  const std::string name = "table " + table.table_path.ToString();
  if (!table.HasPrimaryKey())
    return Status::InvalidArgument(name + " has no primary key: use an append writer, not an upsert writer");
  const auto& desc = table.descriptor;
  const auto& schema = desc.schema.arrow_schema;
  FLUSS_ASSIGN_OR_RETURN(auto keys, row::KeyEncoding::Make(schema, desc.schema.primary_keys, desc.bucket_keys,
                                                           desc.partition_keys, desc.properties));
  FLUSS_ASSIGN_OR_RETURN(const row::KvFormat format, row::KvFormatOf(desc.properties));
  FLUSS_ASSIGN_OR_RETURN(auto codec, row::KvRowCodec::Make(*schema, format));
  // A partial update names every primary-key column; the server keeps the other columns of
  // existing rows, so they must be nullable (new rows get nulls there) (protocol-data.md 5.3).
  std::vector<int32_t> targets;
  if (!target_columns.empty()) {
    std::set<int32_t> seen;
    for (int32_t c : target_columns) {
      if (c < 0 || c >= schema->num_fields())
        return Status::InvalidArgument(name + ": target column index " + std::to_string(c) + " is out of range (" +
                                       std::to_string(schema->num_fields()) + " columns)");
      if (!seen.insert(c).second)
        return Status::InvalidArgument(name + ": target column '" + schema->field(c)->name() + "' is given twice");
    }
    for (const auto& pk : desc.schema.primary_keys) {
      const int i = schema->GetFieldIndex(pk);
      if (!seen.count(i))
        return Status::InvalidArgument(name + ": a partial update must write every primary-key column; '" + pk +
                                       "' is missing from the target columns");
    }
    if (static_cast<int>(seen.size()) < schema->num_fields()) {
      // The tablet server refuses a partial update of a table with any NOT NULL column outside
      // the primary key, written or not (INVALID_TARGET_COLUMN): refused here before sending.
      const auto& pks = desc.schema.primary_keys;
      for (int i = 0; i < schema->num_fields(); ++i)
        if (!schema->field(i)->nullable() &&
            std::find(pks.begin(), pks.end(), schema->field(i)->name()) == pks.end())
          return Status::InvalidArgument(name + ": a partial update needs every column outside the primary key "
                                         "to be nullable, but column '" + schema->field(i)->name() +
                                         "' is NOT NULL");
      targets.assign(seen.begin(), seen.end());
    }
  }
  std::optional<row::PartitionNamer> partitions;
  if (table.IsPartitioned()) {
    auto namer = row::PartitionNamer::Make(*schema, desc.partition_keys);
    if (!namer.ok()) return namer.status().WithContext(name);
    partitions = std::move(*namer);
  }
  auto target = std::make_shared<WriteTable>();
  target->path = table.table_path;
  target->partition_keys = desc.partition_keys;
  target->table_id = table.table_id;
  target->schema_id = static_cast<int16_t>(table.schema_id);
  target->schema = schema;
  target->target_columns = targets;
  target->kv_codec = std::make_shared<const row::KvRowCodec>(std::move(codec));
  if (targets.empty())
    for (int i = 0; i < schema->num_fields(); ++i) targets.push_back(i);
  return std::shared_ptr<UpsertWriterImpl>(
      new UpsertWriterImpl(std::move(client), std::move(table), std::move(keys), std::move(target), std::move(targets),
                           std::move(partitions)));
}

UpsertWriterImpl::UpsertWriterImpl(std::shared_ptr<WriterClient> client, TableInfo table, row::KeyEncoding keys,
                                   std::shared_ptr<const WriteTable> target, std::vector<int32_t> target_columns,
                                   std::optional<row::PartitionNamer> partitions)
    : client_(std::move(client)),
      table_(std::move(table)),
      schema_(table_.descriptor.schema.arrow_schema),
      validator_(schema_),
      keys_(std::move(keys)),
      target_(std::move(target)),
      target_columns_(std::move(target_columns)),
      partitions_(std::move(partitions)),
      tracker_(client_->NewTracker()),
      make_batch_([target = target_](const PhysicalBucket& b) -> std::unique_ptr<WriteBatch> {
        return std::make_unique<KvWriteBatch>(target, b);
      }) {
  written_.assign(static_cast<size_t>(schema_->num_fields()), false);
  for (int32_t c : target_columns_) written_[static_cast<size_t>(c)] = true;
}

Status UpsertWriterImpl::WaitForBufferSpace() { return client_->memory().WaitForSpace(Where()); }

Result<WriteResult> UpsertWriterImpl::Upsert(const Value* values, size_t count) {
  if (BufferFull()) FLUSS_RETURN_NOT_OK(WaitForBufferSpace());
  return Write(values, count, true);
}

Result<WriteResult> UpsertWriterImpl::Delete(const Value* values, size_t count) {
  if (BufferFull()) FLUSS_RETURN_NOT_OK(WaitForBufferSpace());
  return Write(values, count, false);
}

Result<WriteResult> UpsertWriterImpl::UpsertNoWait(const Value* values, size_t count) { return Write(values, count, true); }

Result<WriteResult> UpsertWriterImpl::DeleteNoWait(const Value* values, size_t count) { return Write(values, count, false); }

Result<int32_t> UpsertWriterImpl::BucketOf(const Value* values, const std::string& pk) const {
  if (keys_.primary_key_bytes_are_bucket_key_bytes) return keys_.BucketOfKey(pk, table_.num_buckets);
  thread_local std::string bucket_key;
  FLUSS_RETURN_NOT_OK(keys_.bucket_key_encoder->Encode(values, &bucket_key));
  return keys_.BucketOfKey(bucket_key, table_.num_buckets);
}

Result<WriteResult> UpsertWriterImpl::Write(const Value* values, size_t count, bool upsert) {
  if (client_->cluster()->closed()) return Status::Closed(Where() + ": the connection is closed");
  if (count != static_cast<size_t>(schema_->num_fields()))
    return Status::InvalidArgument(Where() + ": a row has " + std::to_string(schema_->num_fields()) +
                                   " values (one per column), got " + std::to_string(count));
  if (upsert) {
    for (size_t i = 0; i < count; ++i)
      if (!written_[i] && values[i].kind != Value::Kind::kNull)
        return Status::InvalidArgument(Where() + ": column '" + schema_->field(static_cast<int>(i))->name() +
                                       "' is not a target column of this partial-update writer");
    FLUSS_RETURN_NOT_OK(validator_.Check(values, count));
  }
  thread_local std::string pk;
  FLUSS_RETURN_NOT_OK(keys_.primary_key_encoder->Encode(values, &pk));
  FLUSS_ASSIGN_OR_RETURN(const int32_t bucket, BucketOf(values, pk));
  std::string partition;
  if (partitions_) {
    auto name = partitions_->NameOf(values);
    if (!name.ok()) return name.status().WithContext(Where());
    partition = std::move(*name);
  }
  WriteRecord record;
  record.row = upsert ? values : nullptr;
  record.key = pk;
  const PhysicalBucket where{metadata::TableBucket{table_.table_id, std::nullopt, bucket}, std::move(partition)};
  auto appended = client_->Append(tracker_, where, record, make_batch_);
  if (!appended.ok()) return appended.status().WithContext(Where());
  if (appended->batch_full) client_->Wake();
  return WriteResult(std::move(appended->result));
}

}  // namespace fluss::write
