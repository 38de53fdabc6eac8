#include "fluss/scan/log_scanner_impl.h"

#include <arrow/buffer.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/type.h>

#include <algorithm>
#include <set>

#include "fluss/protocol/errors.h"
#include "fluss/record/arrow_log.h"
#include "fluss/record/log_batch.h"

namespace fluss::scan {

using client::Clock;
using protocol::ApiKey;

Result<std::shared_ptr<LogScannerImpl>> LogScannerImpl::Create(std::shared_ptr<client::ConnectionImpl> conn,
                                                               TableInfo table, std::vector<int32_t> projection) {
  if (table.HasPrimaryKey())
    return Status::InvalidArgument("table " + table.table_path.ToString() + " has a primary key; log scanners read log tables");
  if (table.IsPartitioned())
    return Status::Unsupported("table " + table.table_path.ToString() + " is partitioned; partitioned scans are not supported yet");
  const std::string format = table.LogFormat();
  if (format != "ARROW" && format != "arrow")
    return Status::Unsupported("table " + table.table_path.ToString() + " uses log format " + format +
                               "; this scanner reads ARROW");
  std::shared_ptr<LogScannerImpl> s(new LogScannerImpl(std::move(conn), std::move(table)));
  const auto& full = s->table_.descriptor.schema.arrow_schema;
  const int n = full->num_fields();
  std::set<int32_t> seen;
  for (int32_t i : projection) {
    if (i < 0 || i >= n)
      return Status::InvalidArgument("projection: column index " + std::to_string(i) + " is out of range (table has " +
                                     std::to_string(n) + " columns)");
    if (!seen.insert(i).second)
      return Status::InvalidArgument("projection: column index " + std::to_string(i) + " appears twice");
  }
  s->projection_ = std::move(projection);
  if (s->projection_.empty()) {
    s->read_schema_ = full;
    s->out_schema_ = full;
    return s;
  }
  s->sorted_projection_.assign(seen.begin(), seen.end());
  std::vector<std::shared_ptr<arrow::Field>> read_fields, out_fields;
  for (int32_t i : s->sorted_projection_) read_fields.push_back(full->field(i));
  for (int32_t i : s->projection_) {
    out_fields.push_back(full->field(i));
    s->reorder_.push_back(static_cast<int>(std::lower_bound(s->sorted_projection_.begin(), s->sorted_projection_.end(), i) -
                                           s->sorted_projection_.begin()));
  }
  s->read_schema_ = arrow::schema(read_fields);
  s->out_schema_ = arrow::schema(out_fields);
  return s;
}

LogScannerImpl::LogScannerImpl(std::shared_ptr<client::ConnectionImpl> conn, TableInfo table)
    : conn_(std::move(conn)), table_(std::move(table)) {}

Status LogScannerImpl::Subscribe(int32_t bucket, int64_t start_offset) {
  if (bucket < 0 || bucket >= table_.num_buckets)
    return Status::InvalidArgument("bucket " + std::to_string(bucket) + " is outside table " +
                                   table_.table_path.ToString() + " (" + std::to_string(table_.num_buckets) + " buckets)");
  if (start_offset < kEarliestOffset)
    return Status::InvalidArgument("start_offset " + std::to_string(start_offset) +
                                   " is invalid (use an offset >= 0, EARLIEST_OFFSET or LATEST_OFFSET)");
  std::lock_guard<std::mutex> lock(mu_);
  positions_[bucket] = start_offset;
  return Status::OK();
}

Status LogScannerImpl::Unsubscribe(int32_t bucket) {
  std::lock_guard<std::mutex> lock(mu_);
  positions_.erase(bucket);
  return Status::OK();
}

void LogScannerImpl::ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) {
  conn_->Spawn<std::shared_ptr<arrow::Table>>(
      [](std::shared_ptr<LogScannerImpl> self) -> asio::awaitable<Result<std::shared_ptr<arrow::Table>>> {
        co_return co_await self->ReadToEnd();
      }(shared_from_this()),
      std::move(done));
}

asio::awaitable<Status> LogScannerImpl::ResolvePositions(std::map<int32_t, int64_t>* positions) {
  for (int64_t kind : {kEarliestOffset, kLatestOffset}) {
    std::vector<int32_t> buckets;
    for (auto& [b, pos] : *positions)
      if (pos == kind) buckets.push_back(b);
    if (buckets.empty()) continue;
    const int32_t type = kind == kEarliestOffset ? 0 : 1;
    auto offsets = co_await conn_->ListOffsets(table_, buckets, type, std::nullopt);
    if (!offsets.ok()) co_return offsets.status();
    for (auto& [b, off] : *offsets) (*positions)[b] = off;
  }
  co_return Status::OK();
}

asio::awaitable<Result<std::shared_ptr<arrow::Table>>> LogScannerImpl::ReadToEnd() {
  std::map<int32_t, int64_t> positions;
  {
    std::lock_guard<std::mutex> lock(mu_);
    positions = positions_;
  }
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  if (!positions.empty()) {
    Status st = co_await ResolvePositions(&positions);
    if (!st.ok()) co_return st;
    std::vector<int32_t> buckets;
    for (auto& [b, p] : positions) buckets.push_back(b);
    // The high watermarks now are where this read stops.
    auto end = co_await conn_->ListOffsets(table_, buckets, 1, std::nullopt);
    if (!end.ok()) co_return end.status();
    auto last_progress = Clock::now();
    while (true) {
      std::map<int32_t, int64_t> active;
      for (auto& [b, p] : positions)
        if (p < (*end)[b]) active[b] = p;
      if (active.empty()) break;
      size_t before = batches.size();
      std::map<int32_t, int64_t> before_pos = active;
      st = co_await FetchRound(&active, *end, &batches);
      if (!st.ok()) co_return st;
      for (auto& [b, p] : active) positions[b] = p;
      if (batches.size() != before || active != before_pos) {
        last_progress = Clock::now();
      } else if (Clock::now() - last_progress > std::chrono::milliseconds(conn_->options().request_timeout_ms)) {
        co_return Status::Timeout("table " + table_.table_path.ToString() +
                                  ": reading made no progress within client.request-timeout");
      }
    }
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [b, p] : positions)
      if (positions_.count(b)) positions_[b] = p;
  }
  // Reorder projected columns into the requested order.
  if (!reorder_.empty()) {
    for (auto& rb : batches) {
      std::vector<std::shared_ptr<arrow::Array>> cols;
      for (int i : reorder_) cols.push_back(rb->column(i));
      rb = arrow::RecordBatch::Make(out_schema_, rb->num_rows(), std::move(cols));
    }
  }
  auto table = arrow::Table::FromRecordBatches(out_schema_, batches);
  if (!table.ok()) co_return Status::Internal("assembling the result table: " + table.status().ToString());
  co_return *table;
}

asio::awaitable<Status> LogScannerImpl::FetchRound(std::map<int32_t, int64_t>* positions,
                                                   const std::map<int32_t, int64_t>& end,
                                                   std::vector<std::shared_ptr<arrow::RecordBatch>>* out) {
  const TablePath& path = table_.table_path;
  const auto deadline = Clock::now() + std::chrono::milliseconds(conn_->options().request_timeout_ms);
  Status st = co_await conn_->WaitForLeaders(path, table_.num_buckets, deadline);
  if (!st.ok()) co_return st;
  std::map<int32_t, std::vector<int32_t>> by_leader;
  for (auto& [b, p] : *positions) by_leader[*conn_->metadata().Leader(path, b)].push_back(b);
  const bool projected = !sorted_projection_.empty();
  bool retry_later = false;
  for (auto& [leader, buckets] : by_leader) {
    proto::FetchLogRequest req;
    req.set_follower_server_id(-1);
    req.set_max_bytes(conn_->options().fetch_max_bytes);
    auto* t = req.add_tables_req();
    t->set_table_id(table_.table_id);
    t->set_projection_pushdown_enabled(projected);
    for (int32_t f : sorted_projection_) t->add_projected_fields(f);
    for (int32_t b : buckets) {
      auto* br = t->add_buckets_req();
      br->set_bucket_id(b);
      br->set_fetch_offset((*positions)[b]);
      br->set_max_fetch_bytes(conn_->options().fetch_max_bytes_for_bucket);
    }
    auto conn = conn_->TabletServer(leader);
    auto resp = co_await conn_->Call<proto::FetchLogResponse>(conn, ApiKey::FETCH_LOG, req);
    if (!resp.ok()) {
      if (!resp.status().IsRetriable()) co_return resp.status().WithContext("fetching table " + path.ToString());
      conn_->metadata().InvalidateTable(path);
      retry_later = true;
      continue;
    }
    for (auto& tr : *resp->mutable_tables_resp()) {
      for (auto& br : *tr.mutable_buckets_resp()) {
        const int32_t bucket = br.bucket_id();
        auto pos_it = positions->find(bucket);
        if (pos_it == positions->end()) continue;
        if (br.has_error_code() && br.error_code() != protocol::NONE) {
          Status e = Status::Server(br.error_code(), "table " + path.ToString() + " bucket " + std::to_string(bucket) +
                                                         ": " + br.error_message());
          if (!e.IsRetriable() && br.error_code() != protocol::FENCED_LEADER_EPOCH_EXCEPTION) co_return e;
          if (protocol::IsInvalidMetadataError(br.error_code())) conn_->metadata().InvalidateTable(path);
          retry_later = true;
          continue;
        }
        if (!br.has_records() || br.records().empty()) continue;
        auto buf = arrow::Buffer::FromString(std::move(*br.mutable_records()));
        const int64_t stop = end.at(bucket);
        record::LogBatchIterator it(buf->data(), static_cast<size_t>(buf->size()));
        record::LogBatchHeader h;
        const uint8_t* p = nullptr;
        Status iter_status;
        while (it.Next(&h, &p, &iter_status)) {
          if (h.next_offset() <= pos_it->second) continue;  // before the fetch offset
          if (h.base_offset >= stop) break;
          const size_t size = h.batch_size();
          if (!projected && record::ComputeBatchCrc(p, size) != h.crc)
            co_return Status::Server(protocol::CORRUPT_RECORD_EXCEPTION,
                                     "table " + path.ToString() + " bucket " + std::to_string(bucket) +
                                         ": CRC mismatch in the batch at offset " + std::to_string(h.base_offset));
          auto slice = arrow::SliceBuffer(buf, p - buf->data(), static_cast<int64_t>(size));
          auto rb = record::DecodeArrowLogBatch(slice, h, read_schema_);
          if (!rb.ok()) co_return rb.status().WithContext("table " + path.ToString() + " bucket " + std::to_string(bucket));
          if (*rb) {
            int64_t from = std::max<int64_t>(0, pos_it->second - h.base_offset);
            int64_t to = std::min<int64_t>((*rb)->num_rows(), stop - h.base_offset);
            // (No ?: with shared_ptr operands here: GCC 12 coroutines mishandle them.)
            if (to > from) {
              if (from == 0 && to == (*rb)->num_rows()) out->push_back(*rb);
              else out->push_back((*rb)->Slice(from, to - from));
            }
          }
          pos_it->second = h.next_offset();
        }
        if (!iter_status.ok()) co_return iter_status.WithContext("table " + path.ToString());
      }
    }
  }
  if (retry_later) co_await conn_->Sleep(std::chrono::milliseconds(100));
  co_return Status::OK();
}

}  // namespace fluss::scan

namespace fluss {

Result<std::shared_ptr<LogScanner>> Table::NewLogScanner(const std::vector<int32_t>& projection) {
  FLUSS_ASSIGN_OR_RETURN(auto s, scan::LogScannerImpl::Create(impl_, info_, projection));
  return std::static_pointer_cast<LogScanner>(s);
}

}  // namespace fluss
