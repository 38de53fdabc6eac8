#include "fluss/scan/limit_scan.h"

#include <arrow/buffer.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/limit_scan.h"
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

// The rows of log record batches `records` (the table's log format), at most `limit`.
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

Result<std::shared_ptr<arrow::RecordBatch>> DecodeLogRows(const LogBatchDecoder& decoder, std::string_view records,
                                                          int32_t limit) {
  const auto& schema = decoder.schema();
  std::shared_ptr<arrow::Buffer> buffer = arrow::Buffer::FromString(std::string(records));
  record::LogBatchIterator it(buffer->data(), static_cast<size_t>(buffer->size()));
  record::LogBatchHeader h;
  const uint8_t* start = nullptr;
  Status st;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  int64_t rows = 0;
  while (rows < limit && it.Next(&h, &start, &st)) {
    auto slice = arrow::SliceBuffer(buffer, start - buffer->data(), static_cast<int64_t>(h.batch_size()));
    Result<std::shared_ptr<arrow::RecordBatch>> rb = decoder.Decode(slice, h, nullptr);
    if (!rb.ok()) return rb.status();
    if (!*rb) continue;
    rows += (*rb)->num_rows();
    batches.push_back(std::move(*rb));
  }
  if (!st.ok()) return st;
  auto t = arrow::Table::FromRecordBatches(schema, batches);
  if (!t.ok()) return Status::Internal(t.status().ToString());
  auto combined = (*t)->CombineChunksToBatch();
  if (!combined.ok()) return Status::Internal(combined.status().ToString());
  return (*combined)->num_rows() > limit ? (*combined)->Slice(0, limit) : *combined;
}

}  // namespace

asio::awaitable<Result<std::shared_ptr<arrow::RecordBatch>>> LimitScan(std::shared_ptr<metadata::Cluster> cluster,
                                                                       TableInfo table, int32_t bucket, int32_t limit) {
  const std::string where = "table " + table.table_path.ToString() + " bucket " + std::to_string(bucket);
  if (table.IsPartitioned())
    co_return Status::Unsupported("table " + table.table_path.ToString() + " is partitioned; limit scans of partitioned tables are not supported yet");
  if (bucket < 0 || bucket >= table.num_buckets)
    co_return Status::InvalidArgument("bucket " + std::to_string(bucket) + " is outside table " +
                                      table.table_path.ToString() + " (" + std::to_string(table.num_buckets) + " buckets)");
  if (limit < 1) co_return Status::InvalidArgument("limit scan: limit must be at least 1, got " + std::to_string(limit));
  const auto deadline = Clock::now() + std::chrono::milliseconds(cluster->options().request_timeout_ms);
  protocol::BucketRef ref;
  ref.bucket_id = bucket;
  const auto req = protocol::MakeLimitScanRequest(table.table_id, ref, limit);
  Status last;
  for (int attempt = 0;; ++attempt) {
    if (cluster->closed()) co_return Status::Closed("the connection is closed");
    Status ready = co_await cluster->WaitForLeaders(table.table_path, table.num_buckets, deadline);
    // A table that is gone (TABLE_NOT_EXIST) is reported as such, not as the retriable error
    // that led to the refresh; a timeout reports the last error seen.
    if (!ready.ok()) co_return (last.ok() || !ready.IsRetriable() ? ready : last).WithContext(where);
    const auto current = cluster->metadata().TableId(table.table_path);
    if (current && *current != table.table_id)
      co_return Status::Server(protocol::TABLE_NOT_EXIST, where + ": the table was dropped (a new table of that name has id " +
                                                              std::to_string(*current) + ")");
    auto leader = cluster->metadata().Leader(table.table_path, bucket);
    auto conn = leader ? cluster->TabletServer(*leader) : nullptr;
    Result<proto::LimitScanResponse> resp = Status::Network("no leader known for the bucket");
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
    cluster->metadata().InvalidateTable(table.table_path);
    co_await cluster->Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt, 3), 1000)));
  }
}

}  // namespace fluss::scan
