#include "fluss/lookup/lookuper_impl.h"

#include <arrow/type.h>

#include "fluss/row/value_rows.h"

namespace fluss::lookup {

Result<std::shared_ptr<const LookupTable>> LookupTable::Make(std::shared_ptr<metadata::Cluster> cluster,
                                                             const TableInfo& info) {
  const std::string name = "table " + info.table_path.ToString();
  if (!info.HasPrimaryKey()) return Status::InvalidArgument(name + " has no primary key: lookups need a primary-key table");
  const auto& d = info.descriptor;
  FLUSS_ASSIGN_OR_RETURN(auto keys, row::KeyEncoding::Make(d.schema.arrow_schema, d.schema.primary_keys, d.bucket_keys,
                                                           d.partition_keys, d.properties));
  FLUSS_ASSIGN_OR_RETURN(const row::KvFormat format, row::KvFormatOf(d.properties));
  FLUSS_ASSIGN_OR_RETURN(auto decoder, row::ValueRowDecoder::Make(d.schema, static_cast<int16_t>(info.schema_id), format));
  auto t = std::make_shared<LookupTable>();
  t->info = info;
  t->keys = std::move(keys);
  t->schemas = std::make_shared<metadata::TableSchemas>(std::move(cluster), info);
  t->decoder = std::make_shared<row::ValueRowDecoder>(std::move(decoder));
  if (info.IsPartitioned()) {
    auto namer = row::PartitionNamer::Make(*d.schema.arrow_schema, d.partition_keys);
    if (!namer.ok()) return namer.status().WithContext(name);
    t->partitions = std::move(*namer);
  }
  return std::shared_ptr<const LookupTable>(std::move(t));
}

Status LookupTable::CheckCount(size_t count) const {
  const auto& schema = info.descriptor.schema.arrow_schema;
  if (count != static_cast<size_t>(schema->num_fields()))
    return Status::InvalidArgument(Where() + ": a lookup key row has " + std::to_string(schema->num_fields()) +
                                   " values (one per column), got " + std::to_string(count));
  return Status::OK();
}

Result<std::string> LookupTable::PartitionOf(const Value* values) const {
  if (!partitions) return std::string();
  return partitions->NameOf(values);
}

void LookupTable::Decode(std::vector<std::string_view> values, Callback<std::shared_ptr<arrow::RecordBatch>> done) const {
  if (decoder->MissingSchemas(values).empty()) return done(decoder->Decode(values, Where()));
  // Rare (after a schema change): the values must outlive the fetch of their schemas.
  auto owned = std::make_shared<std::vector<std::string>>(values.begin(), values.end());
  schemas->cluster()->Spawn<std::shared_ptr<arrow::RecordBatch>>(
      [](std::shared_ptr<metadata::TableSchemas> s, std::shared_ptr<row::ValueRowDecoder> d,
         std::shared_ptr<std::vector<std::string>> rows,
         std::string where) -> asio::awaitable<Result<std::shared_ptr<arrow::RecordBatch>>> {
        const std::vector<std::string_view> views(rows->begin(), rows->end());
        Status st = co_await s->AddMissing(*d, views);
        if (!st.ok()) co_return st;
        co_return d->Decode(views, where);
      }(schemas, decoder, std::move(owned), Where()),
      std::move(done));
}

namespace {

// The bucket of a key row: from the primary-key bytes when they are the bucket-key bytes,
// else from the encoded bucket key.
Result<int32_t> BucketOfRow(const LookupTable& t, const Value* values, const std::string& pk) {
  if (t.keys.primary_key_bytes_are_bucket_key_bytes && !pk.empty()) return t.keys.BucketOfKey(pk, t.info.num_buckets);
  std::string bucket_key;
  FLUSS_RETURN_NOT_OK(t.keys.bucket_key_encoder->Encode(values, &bucket_key));
  return t.keys.BucketOfKey(bucket_key, t.info.num_buckets);
}

}  // namespace

Result<std::shared_ptr<LookuperImpl>> LookuperImpl::Create(std::shared_ptr<metadata::Cluster> cluster,
                                                           LookupSenders& senders, const TableInfo& info) {
  FLUSS_ASSIGN_OR_RETURN(auto table, LookupTable::Make(std::move(cluster), info));
  auto sender = senders.Point(info.table_path, info.table_id);
  return std::shared_ptr<LookuperImpl>(new LookuperImpl(std::move(table), std::move(sender)));
}

void LookuperImpl::LookupAsync(const Value* values, size_t count, Callback<std::shared_ptr<arrow::RecordBatch>> done) {
  Status st = table_->CheckCount(count);
  std::string pk;
  if (st.ok()) st = table_->keys.primary_key_encoder->Encode(values, &pk);
  Result<int32_t> bucket = st.ok() ? BucketOfRow(*table_, values, pk) : Result<int32_t>(st);
  Result<std::string> partition = bucket.ok() ? table_->PartitionOf(values) : Result<std::string>(bucket.status());
  if (!partition.ok()) {
    done(partition.status().WithContext(table_->Where()));
    return;
  }
  sender_->Enqueue(std::move(*partition), *bucket, std::move(pk), [table = table_, done = std::move(done)](Result<PointLookup::Outcome> r) {
    if (!r.ok()) return done(r.status());
    if (!*r) return done(std::shared_ptr<arrow::RecordBatch>());
    table->Decode(std::vector<std::string_view>{**r}, std::move(done));
  });
}

Result<std::shared_ptr<PrefixLookuperImpl>> PrefixLookuperImpl::Create(std::shared_ptr<metadata::Cluster> cluster,
                                                                       LookupSenders& senders, const TableInfo& info,
                                                                       const std::vector<std::string>& lookup_columns) {
  FLUSS_ASSIGN_OR_RETURN(auto table, LookupTable::Make(std::move(cluster), info));
  FLUSS_ASSIGN_OR_RETURN(auto prefix, table->keys.PrefixKeyEncoder(lookup_columns));
  std::vector<int32_t> columns;
  for (int c : table->keys.bucket_key) columns.push_back(c);
  auto sender = senders.Prefix(info.table_path, info.table_id);
  return std::shared_ptr<PrefixLookuperImpl>(
      new PrefixLookuperImpl(std::move(table), std::move(prefix), std::move(columns), std::move(sender)));
}

void PrefixLookuperImpl::LookupAsync(const Value* values, size_t count,
                                     Callback<std::shared_ptr<arrow::RecordBatch>> done) {
  Status st = table_->CheckCount(count);
  std::string prefix;
  if (st.ok()) st = prefix_->Encode(values, &prefix);
  // The prefix is the bucket key: its bucket comes from the bucket-key bytes.
  Result<int32_t> bucket = st.ok() ? BucketOfRow(*table_, values, std::string()) : Result<int32_t>(st);
  Result<std::string> partition = bucket.ok() ? table_->PartitionOf(values) : Result<std::string>(bucket.status());
  if (!partition.ok()) {
    done(partition.status().WithContext(table_->Where()));
    return;
  }
  sender_->Enqueue(std::move(*partition), *bucket, std::move(prefix), [table = table_, done = std::move(done)](Result<PrefixLookup::Outcome> r) {
    if (!r.ok()) return done(r.status());
    table->Decode(std::vector<std::string_view>(r->begin(), r->end()), std::move(done));
  });
}

}  // namespace fluss::lookup
