#include "fluss/scan/limit_scan.h"

#include <arrow/buffer.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/limit_scan.h"
#include "fluss/scan/list_offsets.h"
#include "fluss/record/arrow_log.h"
#include "fluss/record/indexed_log.h"
#include "fluss/record/log_batch.h"
#include "fluss/record/value_batch.h"
#include "fluss/row/kv_value.h"
#include "fluss/row/value_rows.h"
#include "fluss/metadata/table_schemas.h"
#include "fluss/scan/log_batch_decoder.h"

#include <set>

namespace fluss::scan {

using metadata::Clock;

namespace {

// The schema ids of the log batches in `records` (malformed bytes are left to DecodeLogRows).
std::vector<int16_t> SchemaIdsOf(std::string_view records) {
  record::LogBatchIterator it(reinterpret_cast<const uint8_t*>(records.data()), records.size());
  record::LogBatchHeader h;
  const uint8_t* start = nullptr;
  Status st;
  std::set<int16_t> ids;
  while (it.Next(&h, &start, &st)) ids.insert(h.schema_id);
  return {ids.begin(), ids.end()};
}

// The last `limit` rows of log record batches `records` (the table's log format). The server
// answers with the batches from the one holding offset max(log start, high watermark - limit),
// which may begin earlier: the rows before the last `limit` are dropped, as Java's
// LimitBatchScanner does.
Result<std::shared_ptr<arrow::RecordBatch>> DecodeLogRows(const LogBatchDecoder& decoder, std::string_view records,
                                                          int32_t limit) {
  const auto& schema = decoder.schema();
  std::shared_ptr<arrow::Buffer> buffer = arrow::Buffer::FromString(std::string(records));
  record::LogBatchIterator it(buffer->data(), static_cast<size_t>(buffer->size()));
  record::LogBatchHeader h;
  const uint8_t* start = nullptr;
  Status st;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  while (it.Next(&h, &start, &st)) {
    auto slice = arrow::SliceBuffer(buffer, start - buffer->data(), static_cast<int64_t>(h.batch_size()));
    Result<std::shared_ptr<arrow::RecordBatch>> rb = decoder.Decode(slice, h, nullptr);
    if (!rb.ok()) return rb.status();
    if (!*rb) continue;
    batches.push_back(std::move(*rb));
  }
  if (!st.ok()) return st;
  auto t = arrow::Table::FromRecordBatches(schema, batches);
  if (!t.ok()) return Status::Internal(t.status().ToString());
  auto combined = (*t)->CombineChunksToBatch();
  if (!combined.ok()) return Status::Internal(combined.status().ToString());
  const int64_t n = (*combined)->num_rows();
  return n > limit ? (*combined)->Slice(n - limit, limit) : *combined;
}

// The current leader of `bucket`, asked of the coordinator for a partition (its cached leader
// may be stale), from the cache after WaitForLeaders otherwise. Retriable errors are retried by
// the caller.
asio::awaitable<Result<int32_t>> LeaderOf(std::shared_ptr<metadata::Cluster> cluster, const TableInfo& table,
                                          const metadata::TableBucket& bucket, const std::string& where,
                                          metadata::Clock::time_point deadline) {
  if (bucket.partition_id) {
    const std::vector<int64_t> ids{*bucket.partition_id};
    auto missing = co_await cluster->RefreshPartitions(table.table_path, ids);
    if (!missing.ok()) co_return missing.status().WithContext(where);
    if (!missing->empty())
      co_return Status::Server(protocol::PARTITION_NOT_EXISTS, where + ": the partition does not exist (dropped?)");
  } else {
    Status ready = co_await cluster->WaitForLeaders(table.table_path, table.num_buckets, deadline);
    if (!ready.ok()) co_return ready.WithContext(where);
    const auto current = cluster->metadata().TableId(table.table_path);
    if (current && *current != table.table_id)
      co_return Status::Server(protocol::TABLE_NOT_EXIST, where + ": the table was dropped (a new table of that name has id " +
                                                              std::to_string(*current) + ")");
  }
  auto leader = cluster->metadata().Leader(bucket);
  if (!leader) co_return Status::Network(where + ": no leader known for the bucket");
  co_return *leader;
}

}  // namespace

asio::awaitable<Result<std::shared_ptr<arrow::RecordBatch>>> LimitScan(std::shared_ptr<metadata::Cluster> cluster,
                                                                       TableInfo table, metadata::TableBucket bucket,
                                                                       int32_t limit) {
  bucket.table_id = table.table_id;
  const std::string where = "table " + table.table_path.ToString() + " " + bucket.ToString();
  const std::vector<metadata::TableBucket> one{bucket};
  Status checked = CheckBuckets(table, one);
  if (!checked.ok()) co_return checked;
  if (limit < 1) co_return Status::InvalidArgument("limit scan: limit must be at least 1, got " + std::to_string(limit));
  const auto deadline = Clock::now() + std::chrono::milliseconds(cluster->options().request_timeout_ms);
  protocol::BucketRef ref;
  ref.partition_id = bucket.partition_id;
  ref.bucket_id = bucket.bucket;
  const auto req = protocol::MakeLimitScanRequest(table.table_id, ref, limit);
  Status last;
  for (int attempt = 0;; ++attempt) {
    if (cluster->closed()) co_return Status::Closed("the connection is closed");
    auto leader = co_await LeaderOf(cluster, table, bucket, where, deadline);
    // A table or partition that is gone is reported as such, not as the retriable error that
    // led to the refresh; a timeout reports the last error seen.
    if (!leader.ok() && (!leader.status().IsRetriable() || Clock::now() >= deadline))
      co_return last.ok() || !leader.status().IsRetriable() ? leader.status() : last.WithContext(where);
    auto conn = leader.ok() ? cluster->TabletServer(*leader) : nullptr;
    Result<proto::LimitScanResponse> resp = leader.ok() ? Status::Network("the leader is not in the server list") : leader.status();
    if (conn) resp = co_await cluster->Call<proto::LimitScanResponse>(conn, protocol::ApiKey::LIMIT_SCAN, req);
    Status failed = resp.status();
    if (resp.ok()) {
      auto parsed = protocol::ParseLimitScanResponse(table.table_id, ref, *resp, !table.HasPrimaryKey());
      if (parsed.ok()) {
        if (parsed->is_log_table) {
          LogBatchDecoder decoder(cluster, table, table.LogFormat() == "INDEXED");
          Status added = co_await decoder.AddMissing(SchemaIdsOf(parsed->records));
          if (!added.ok()) co_return added.WithContext(where);
          co_return DecodeLogRows(decoder, parsed->records, limit);
        }
        const auto* data = reinterpret_cast<const uint8_t*>(parsed->records.data());
        std::vector<std::string_view> values;
        if (!parsed->records.empty()) {
          auto v = record::ParseValueRecordBatch(data, parsed->records.size());
          if (!v.ok()) co_return v.status().WithContext(where);
          values = std::move(*v);
        }
        auto format = row::KvFormatOf(table.descriptor.properties);
        if (!format.ok()) co_return format.status();
        auto decoder = row::ValueRowDecoder::Make(table.descriptor.schema, static_cast<int16_t>(table.schema_id), *format);
        if (!decoder.ok()) co_return decoder.status();
        metadata::TableSchemas schemas(cluster, table);
        Status added = co_await schemas.AddMissing(*decoder, values);
        if (!added.ok()) co_return added;
        co_return decoder->Decode(values, "table " + table.table_path.ToString());
      }
      failed = parsed.status();
    }
    if (!failed.IsRetriable() || Clock::now() >= deadline) co_return failed.WithContext(where);
    last = failed;
    if (!bucket.partition_id) cluster->metadata().InvalidateTable(table.table_path);  // partitions: asked every attempt
    co_await cluster->Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt, 3), 1000)));
  }
}

}  // namespace fluss::scan
