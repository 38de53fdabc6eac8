#include "fluss/write/append_writer_impl.h"

#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/util/byte_size.h>

#include "fluss/protocol/errors.h"
#include "fluss/protocol/frame.h"
#include "fluss/protocol/produce_log.h"
#include "fluss/record/arrow_log.h"
#include "fluss/row/bucketing.h"
#include "fluss/row/indexed_row.h"

namespace fluss::write {

using client::Clock;
using protocol::ApiKey;

Result<std::shared_ptr<AppendWriterImpl>> AppendWriterImpl::Create(std::shared_ptr<client::ConnectionImpl> conn,
                                                                   TableInfo table) {
  if (table.HasPrimaryKey())
    return Status::InvalidArgument("table " + table.table_path.ToString() +
                                   " has a primary key: use an upsert writer, not an append writer");
  if (table.IsPartitioned())
    return Status::Unsupported("table " + table.table_path.ToString() + " is partitioned; partitioned writes are not supported yet");
  std::string format = table.LogFormat();
  for (auto& c : format) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (format != "ARROW" && format != "INDEXED")
    return Status::Unsupported("table " + table.table_path.ToString() + " uses log format " + format +
                               "; this writer supports ARROW and INDEXED");
  std::optional<row::CompactedKeyEncoder> key_encoder;
  if (!table.descriptor.bucket_keys.empty()) {
    const auto& schema = table.descriptor.schema.arrow_schema;
    std::vector<int> keys;
    for (const auto& name : table.descriptor.bucket_keys) {
      const int i = schema->GetFieldIndex(name);
      if (i < 0) return Status::Protocol("table " + table.table_path.ToString() + ": bucket key '" + name + "' is not a column");
      keys.push_back(i);
    }
    FLUSS_ASSIGN_OR_RETURN(auto enc, row::CompactedKeyEncoder::Create(schema, keys));
    key_encoder.emplace(std::move(enc));
  }
  int level = 3;
  try {
    level = std::stoi(table.Property("table.log.arrow.compression.zstd.level", "3"));
  } catch (...) {
  }
  FLUSS_ASSIGN_OR_RETURN(auto options,
                         record::ArrowWriteOptions(table.Property("table.log.arrow.compression.type", "ZSTD"), level));
  std::shared_ptr<AppendWriterImpl> w(new AppendWriterImpl(std::move(conn), std::move(table), std::move(options)));
  w->indexed_ = format == "INDEXED";
  w->idempotent_ = w->options_.writer_enable_idempotence;
  w->key_encoder_ = std::move(key_encoder);
  w->conn_->RegisterFlushable(w);
  return w;
}

AppendWriterImpl::AppendWriterImpl(std::shared_ptr<client::ConnectionImpl> conn, TableInfo table,
                                   arrow::ipc::IpcWriteOptions write_options)
    : conn_(std::move(conn)),
      table_(std::move(table)),
      schema_(table_.descriptor.schema.arrow_schema),
      write_options_(std::move(write_options)),
      options_(conn_->options()),
      rng_(std::random_device{}()) {
  sticky_bucket_ = static_cast<int32_t>(rng_() % static_cast<uint32_t>(table_.num_buckets));
}

bool AppendWriterImpl::BufferFull() {
  std::lock_guard<std::mutex> lock(mu_);
  return buffered_bytes_ >= options_.writer_buffer_memory_size && !aborted_;
}

Status AppendWriterImpl::WaitForBufferSpace() {
  std::unique_lock<std::mutex> lock(mu_);
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.writer_buffer_wait_timeout_ms);
  bool ok = memory_cv_.wait_until(lock, deadline, [&] {
    return buffered_bytes_ < options_.writer_buffer_memory_size || aborted_;
  });
  if (!ok)
    return Status::Timeout("table " + table_.table_path.ToString() + ": the writer buffer (client.writer.buffer.memory-size = " +
                           std::to_string(options_.writer_buffer_memory_size) + " bytes) stayed full for " +
                           std::to_string(options_.writer_buffer_wait_timeout_ms) + " ms (client.writer.buffer.wait-timeout)");
  return Status::OK();
}

Result<WriteResult> AppendWriterImpl::Append(const Value* values, size_t count) {
  if (BufferFull()) FLUSS_RETURN_NOT_OK(WaitForBufferSpace());
  return AppendNoWait(values, count);
}

void AppendWriterImpl::NextStickyBucketLocked() {
  if (table_.num_buckets <= 1) return;
  // Move to a different bucket, chosen at random like the Java sticky assigner.
  int32_t next = static_cast<int32_t>(rng_() % static_cast<uint32_t>(table_.num_buckets - 1));
  sticky_bucket_ = next >= sticky_bucket_ ? next + 1 : next;
}

Result<int32_t> AppendWriterImpl::BucketForLocked(const Value* values) {
  if (!key_encoder_) return sticky_bucket_;
  FLUSS_RETURN_NOT_OK(key_encoder_->Encode(values, &key_scratch_));
  return row::FlussBucketOf(key_scratch_, table_.num_buckets);
}

Status AppendWriterImpl::AppendRowLocked(const Value* values, std::shared_ptr<WriteResult::State>* state,
                                         bool* closed, std::pair<int32_t, uint64_t>* linger) {
  FLUSS_ASSIGN_OR_RETURN(const int32_t bucket, BucketForLocked(values));
  OpenBatch& ob = open_[bucket];
  if (!ob.builder && !ob.indexed) {
    if (indexed_) ob.indexed = std::make_unique<record::IndexedBatchBuilder>(schema_);
    else ob.builder = std::make_unique<RowBatchBuilder>(schema_);
    ob.id = next_batch_id_++;
    ob.created = Clock::now();
    ob.result = std::make_shared<WriteResult::State>();
    incomplete_.insert(ob.id);
    *linger = {bucket, ob.id};
  }
  int64_t bytes;
  int64_t batch_bytes;
  if (indexed_) {
    const int64_t before = ob.indexed->size_in_bytes();
    Status st = ob.indexed->Append(values);
    if (!st.ok()) {
      if (ob.indexed->num_records() == 0) {  // do not leave an empty batch behind
        incomplete_.erase(ob.id);
        open_.erase(bucket);
        *linger = {-1, 0};
      }
      return st;
    }
    bytes = ob.indexed->size_in_bytes() - before;
    batch_bytes = ob.indexed->size_in_bytes();
  } else {
    FLUSS_ASSIGN_OR_RETURN(bytes, ob.builder->Append(values));
    batch_bytes = ob.builder->estimated_bytes();
  }
  ob.bytes += bytes;
  ++ob.rows;
  buffered_bytes_ += bytes;
  *state = ob.result;
  if (batch_bytes >= options_.writer_batch_size) {
    CloseOpenLocked(bucket);
    if (bucket == sticky_bucket_) NextStickyBucketLocked();
    *closed = true;
  }
  return Status::OK();
}

Result<WriteResult> AppendWriterImpl::AppendNoWait(const Value* values, size_t count) {
  if (conn_->closed()) return Status::Closed("table " + table_.table_path.ToString() + ": the connection is closed");
  FLUSS_RETURN_NOT_OK(RowBatchBuilder::Validate(*schema_, values, count));
  bool closed = false;
  std::shared_ptr<WriteResult::State> state;
  std::pair<int32_t, uint64_t> linger{-1, 0};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (aborted_) return abort_status_;
    FLUSS_RETURN_NOT_OK(AppendRowLocked(values, &state, &closed, &linger));
  }
  if (linger.first >= 0) ScheduleLinger(linger.first, linger.second);
  if (closed) PostDrain();
  return WriteResult(state);
}

Result<WriteResult> AppendWriterImpl::WriteArrowRows(const std::shared_ptr<arrow::RecordBatch>& batch) {
  // Every row joins the open batch of its bucket; the result completes when all those batches
  // are acknowledged.
  std::vector<Value> values;
  std::vector<std::string> scratch;
  std::set<std::shared_ptr<WriteResult::State>> touched;
  std::vector<std::pair<int32_t, uint64_t>> lingers;
  bool closed_any = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (aborted_) return abort_status_;
    for (int64_t r = 0; r < batch->num_rows(); ++r) {
      FLUSS_RETURN_NOT_OK(row::RowValuesFromArrow(*batch, r, &values, &scratch));
      std::shared_ptr<WriteResult::State> state;
      bool closed = false;
      std::pair<int32_t, uint64_t> linger{-1, 0};
      FLUSS_RETURN_NOT_OK(AppendRowLocked(values.data(), &state, &closed, &linger));
      touched.insert(state);
      closed_any |= closed;
      if (linger.first >= 0) lingers.push_back(linger);
    }
  }
  for (auto& [b, id] : lingers) ScheduleLinger(b, id);
  if (closed_any) PostDrain();
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
  for (int i = 0; i < in.num_fields(); ++i) {
    const auto& want = schema_->field(i);
    const auto& got = in.field(i);
    if (got->name() != want->name())
      return Status::InvalidArgument("write_arrow_batch: column " + std::to_string(i) + " is '" + got->name() +
                                     "' but the table's column is '" + want->name() + "'");
    if (!got->type()->Equals(*want->type()))
      return Status::InvalidArgument("write_arrow_batch: column '" + got->name() + "' has type " +
                                     got->type()->ToString() + " but the table's type is " + want->type()->ToString());
    if (!want->nullable() && batch->column(i)->null_count() > 0)
      return Status::InvalidArgument("write_arrow_batch: column '" + got->name() + "' is NOT NULL but has " +
                                     std::to_string(batch->column(i)->null_count()) + " nulls");
  }
  // Re-label with the table schema (names and nullability) so the batch encodes like a row batch.
  auto aligned = arrow::RecordBatch::Make(schema_, batch->num_rows(), batch->columns());
  if (indexed_ || key_encoder_) return WriteArrowRows(aligned);
  auto state = std::make_shared<WriteResult::State>();
  if (batch->num_rows() == 0) {
    state->CompletePart(Status::OK());
    return WriteResult(state);
  }
  // Split batches above writer.batch.size so every produce request stays bounded.
  const int64_t total = std::max<int64_t>(1, static_cast<int64_t>(arrow::util::TotalBufferSize(*aligned)));
  const int64_t pieces = std::max<int64_t>(1, (total + options_.writer_batch_size - 1) / options_.writer_batch_size);
  const int64_t rows_per_piece = (aligned->num_rows() + pieces - 1) / pieces;
  std::vector<std::shared_ptr<arrow::RecordBatch>> slices;
  for (int64_t off = 0; off < aligned->num_rows(); off += rows_per_piece)
    slices.push_back(aligned->Slice(off, std::min(rows_per_piece, aligned->num_rows() - off)));
  state->parts = static_cast<int>(slices.size());
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (aborted_) return abort_status_;
    for (auto& s : slices) {
      Batch b;
      b.id = next_batch_id_++;
      b.bucket = sticky_bucket_;
      b.data = s;
      b.result = state;
      b.bytes = total / static_cast<int64_t>(slices.size());
      b.rows = s->num_rows();
      b.created = Clock::now();
      incomplete_.insert(b.id);
      buffered_bytes_ += b.bytes;
      // An open row batch of this bucket goes first, keeping per-bucket order of the writes.
      if (open_.count(b.bucket)) CloseOpenLocked(b.bucket);
      closed_.push_back(std::move(b));
      NextStickyBucketLocked();
    }
  }
  PostDrain();
  return WriteResult(state);
}

void AppendWriterImpl::CloseOpenLocked(int32_t bucket) {
  auto it = open_.find(bucket);
  if (it == open_.end()) return;
  OpenBatch ob = std::move(it->second);
  open_.erase(it);
  Batch b;
  b.id = ob.id;
  b.bucket = bucket;
  b.result = std::move(ob.result);
  b.bytes = ob.bytes;
  b.rows = ob.rows;
  b.created = ob.created;
  Status st;
  if (ob.indexed) {
    auto enc = ob.indexed->Finish(static_cast<int16_t>(table_.schema_id));
    if (enc.ok()) b.encoded = std::move(*enc);
    else st = enc.status();
  } else {
    auto rb = ob.builder->Finish();
    if (rb.ok()) b.data = std::move(*rb);
    else st = rb.status();
  }
  if (!st.ok()) {
    // Cannot happen for validated rows; fail the batch rather than lose track of it.
    b.result->CompletePart(st);
    buffered_bytes_ -= b.bytes;
    incomplete_.erase(b.id);
    return;
  }
  closed_.push_back(std::move(b));
}

void AppendWriterImpl::ScheduleLinger(int32_t bucket, uint64_t id) {
  auto self = shared_from_this();
  asio::post(conn_->io(), [self, bucket, id] {
    if (self->conn_->closed()) return;
    auto timer = self->conn_->NewTimer();
    timer->expires_after(std::chrono::milliseconds(self->options_.writer_batch_timeout_ms));
    timer->async_wait([self, timer, bucket, id](const asio::error_code& ec) {
      if (ec) return;
      {
        std::lock_guard<std::mutex> lock(self->mu_);
        auto it = self->open_.find(bucket);
        if (it == self->open_.end() || it->second.id != id) return;
        self->CloseOpenLocked(bucket);
        if (bucket == self->sticky_bucket_) self->NextStickyBucketLocked();
      }
      self->Drain();
    });
  });
}

void AppendWriterImpl::PostDrain() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (drain_posted_) return;
    drain_posted_ = true;
  }
  asio::post(conn_->io(), [self = shared_from_this()] { self->Drain(); });
}

void AppendWriterImpl::FlushAsync(StatusCallback done) {
  Status outcome;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<int32_t> buckets;
    for (auto& [b, ob] : open_) buckets.push_back(b);
    for (int32_t b : buckets) CloseOpenLocked(b);
    // This flush reports every failure since the previous one, also those of writes that
    // completed before it was called (fire-and-forget appends).
    FlushWaiter w{next_batch_id_ - 1, std::move(unreported_), std::move(done)};
    unreported_ = FailureTally{};
    if (incomplete_.empty()) {
      outcome = w.failures.ToStatus();  // nothing pending: answer at once
      done = std::move(w.done);
    } else {
      flush_waiters_.push_back(std::move(w));
      done = nullptr;
    }
  }
  if (done) {
    done(outcome);
    return;
  }
  if (conn_->closed()) return;  // Abort() answers the waiters
  PostDrain();
}

void AppendWriterImpl::Drain() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    drain_posted_ = false;
    while (!closed_.empty()) {
      Batch b = std::move(closed_.front());
      closed_.pop_front();
      queues_[b.bucket].push_back(std::move(b));
    }
  }
  ExpireQueued();
  ScheduleExpiryCheck();
  if (idempotent_ && writer_id_ < 0) {
    bool any = false;
    for (auto& [bucket, q] : queues_) any |= !q.empty();
    if (any) StartInitWriter();
    return;
  }
  const TablePath& path = table_.table_path;
  std::map<int32_t, std::vector<Batch>> by_leader;
  bool need_refresh = false;
  for (auto& [bucket, q] : queues_) {
    BucketState& bs = buckets_[bucket];
    // Idempotent writers keep up to 5 batches per bucket in flight (the server remembers the
    // last 5 sequences); while a batch is retried, or without idempotence, only one.
    const int max_in_flight = idempotent_ && !bs.retrying ? 5 : 1;
    if (q.empty() || bs.in_flight >= max_in_flight) continue;
    auto leader = conn_->metadata().Leader(path, bucket);
    if (!leader) {
      // Batches wait for a leader until their delivery timeout (ExpireQueued).
      need_refresh = true;
      continue;
    }
    while (!q.empty() && bs.in_flight < max_in_flight) {
      Batch b = std::move(q.front());
      q.pop_front();
      ++bs.in_flight;
      by_leader[*leader].push_back(std::move(b));
    }
  }
  for (auto& [leader, batches] : by_leader) SendToLeader(leader, std::move(batches));
  if (need_refresh && !refreshing_) {
    refreshing_ = true;
    auto self = shared_from_this();
    asio::co_spawn(
        conn_->io(),
        [](std::shared_ptr<AppendWriterImpl> w) -> asio::awaitable<void> {
          const std::vector<TablePath> tables{w->table_.table_path};
          Status st = co_await w->conn_->RefreshMetadata(tables);
          // The coordinator decides whether the table exists (a tablet server that does not
          // know it yet, right after creation, answers a produce with TABLE_NOT_EXIST too).
          const auto id = w->conn_->metadata().TableId(w->table_.table_path);
          if (st.ok() && id && *id != w->table_.table_id)
            st = Status::Server(protocol::TABLE_NOT_EXIST, "the table was dropped (a new table of that name has id " +
                                                               std::to_string(*id) + ")");
          if (!st.ok() && st.code() == StatusCode::kServer && !st.IsRetriable()) {
            // E.g. TABLE_NOT_EXIST: the table was dropped; waiting for a leader is pointless.
            for (auto& [bucket, q] : w->queues_) {
              while (!q.empty() && w->buckets_[bucket].in_flight == 0) {
                Batch b = std::move(q.front());
                q.pop_front();
                w->Complete(b, st.WithContext("table " + w->table_.table_path.ToString()));
              }
            }
          }
          // Back off only while some bucket still has no leader (e.g. right after create).
          bool all = true;
          for (int32_t b = 0; all && b < w->table_.num_buckets; ++b)
            all = w->conn_->metadata().Leader(w->table_.table_path, b).has_value();
          if (!all) co_await w->conn_->Sleep(std::chrono::milliseconds(50));
          w->refreshing_ = false;
          w->Drain();
        }(self),
        asio::detached);
  }
}

void AppendWriterImpl::StartInitWriter() {
  if (init_writer_running_) return;
  init_writer_running_ = true;
  asio::co_spawn(
      conn_->io(),
      [](std::shared_ptr<AppendWriterImpl> w) -> asio::awaitable<void> {
        // Retried while batches wait for it: they expire by their delivery timeout, not by
        // this loop. Each attempt asks the next tablet server (one may be down or frozen).
        Status last;
        for (int attempt = 0;; ++attempt) {
          w->ExpireQueued();
          bool waiting = false;
          for (auto& [bucket, q] : w->queues_) waiting |= !q.empty();
          if (!waiting || w->conn_->closed()) break;
          const auto& servers = w->conn_->metadata().tablet_servers();
          std::shared_ptr<net::ServerConnection> ts;
          if (!servers.empty()) {
            auto it = servers.begin();
            std::advance(it, static_cast<long>(w->init_writer_server_++ % servers.size()));
            ts = w->conn_->TabletServer(it->first);
          }
          if (!ts) {
            const std::vector<TablePath> none;
            co_await w->conn_->RefreshMetadata(none);
            last = Status::Network("no tablet server known for InitWriter");
          } else {
            proto::InitWriterRequest req;
            auto* p = req.add_table_path();
            p->set_database_name(w->table_.table_path.database_name);
            p->set_table_name(w->table_.table_path.table_name);
            auto resp = co_await w->conn_->Call<proto::InitWriterResponse>(ts, ApiKey::INIT_WRITER, req);
            if (resp.ok()) {
              w->writer_id_ = resp->writer_id();
              break;
            }
            last = resp.status();
            if (!last.IsRetriable()) {
              // E.g. an authorization error: the queued batches cannot be sent idempotently.
              Status st = last.WithContext("table " + w->table_.table_path.ToString() + ": InitWriter failed");
              for (auto& [bucket, q] : w->queues_) {
                while (!q.empty()) {
                  Batch b = std::move(q.front());
                  q.pop_front();
                  w->Complete(b, st);
                }
              }
              break;
            }
            if (last.code() != StatusCode::kServer || protocol::IsInvalidMetadataError(last.error_code())) {
              const std::vector<TablePath> none;
              co_await w->conn_->RefreshMetadata(none);
            }
          }
          co_await w->conn_->Sleep(std::chrono::milliseconds(std::min(200 << std::min(attempt, 3), 1000)));
        }
        w->init_writer_running_ = false;
        if (w->writer_id_ >= 0) w->Drain();
      }(shared_from_this()),
      asio::detached);
}

void AppendWriterImpl::ResetWriterId() {
  writer_id_ = -1;
  for (auto& [bucket, bs] : buckets_) {
    bs.next_seq = 0;
    bs.last_acked = -1;
    bs.retrying = false;
  }
}

void AppendWriterImpl::SendToLeader(int32_t leader, std::vector<Batch> batches) {
  // Encode (and compress) on the I/O thread and give each new batch its writer id and
  // sequence, in queue order (a retried batch keeps its own unless the writer id changed).
  std::map<int32_t, std::vector<Batch>> per_bucket;
  for (auto& b : batches) {
    if (!b.encoded) {
      auto enc = record::EncodeArrowLogBatch(*b.data, static_cast<int16_t>(table_.schema_id), write_options_);
      if (!enc.ok()) {
        --buckets_[b.bucket].in_flight;
        Complete(b, enc.status().WithContext("table " + table_.table_path.ToString()));
        continue;
      }
      b.encoded = std::move(*enc);
      b.data.reset();
    }
    if (idempotent_ && b.writer_id != writer_id_) {
      b.writer_id = writer_id_;
      b.seq = buckets_[b.bucket].next_seq++;
      record::SetWriterAndSequence(b.encoded->mutable_data(), static_cast<size_t>(b.encoded->size()), b.writer_id, b.seq);
    }
    per_bucket[b.bucket].push_back(std::move(b));
  }
  // One batch per bucket per request: request k carries the k-th batch of each bucket, split
  // further at request.max.size bytes. Requests on one connection are handled in order.
  std::vector<std::vector<Batch>> requests;
  for (size_t round = 0;; ++round) {
    std::vector<Batch> current;
    int64_t size = 0;
    bool any = false;
    for (auto& [bucket, list] : per_bucket) {
      if (round >= list.size()) continue;
      any = true;
      Batch& b = list[round];
      if (!current.empty() && size + b.encoded->size() > options_.request_max_size) {
        requests.push_back(std::move(current));
        current.clear();
        size = 0;
      }
      size += b.encoded->size();
      b.sent = true;
      current.push_back(std::move(b));
    }
    if (!current.empty()) requests.push_back(std::move(current));
    if (!any) break;
  }
  auto conn = conn_->TabletServer(leader);
  const int32_t timeout_ms = static_cast<int32_t>(std::min<int64_t>(options_.request_timeout_ms, INT32_MAX));
  for (auto& group : requests) {
    // The batches go into the request frame by reference: no copy through protobuf.
    std::vector<protocol::ProduceBucket> buckets;
    for (auto& b : group) {
      protocol::ProduceBucket pb;
      pb.bucket_id = b.bucket;
      pb.owner = b.encoded;
      pb.records = b.encoded->data();
      pb.size = static_cast<size_t>(b.encoded->size());
      buckets.push_back(std::move(pb));
    }
    auto pieces = protocol::EncodeProduceLogRequest(options_.writer_acks, table_.table_id, timeout_ms, buckets,
                                                    protocol::kRequestPrefixSize);
    net::OutgoingFrame frame;
    frame.head = std::move(pieces[0].bytes);
    for (size_t i = 1; i < pieces.size(); ++i) {
      auto& p = pieces[i];
      if (p.owner) {
        frame.tail.push_back({p.owner, p.data, p.size});
      } else {
        auto owned = std::make_shared<std::string>(std::move(p.bytes));
        frame.tail.push_back({owned, owned->data(), owned->size()});
      }
    }
    auto self = shared_from_this();
    asio::co_spawn(
        conn_->io(),
        [](std::shared_ptr<AppendWriterImpl> w, std::shared_ptr<net::ServerConnection> c, net::OutgoingFrame f,
           std::vector<Batch> g) -> asio::awaitable<void> {
          Result<proto::ProduceLogResponse> resp = Status::Network("leader is not in the server list");
          if (c) {
            auto body = co_await w->conn_->SendFrame(c, ApiKey::PRODUCE_LOG, std::move(f));
            if (!body.ok()) {
              resp = body.status();
            } else {
              proto::ProduceLogResponse parsed;
              if (parsed.ParseFromArray(body->data, static_cast<int>(body->size))) resp = std::move(parsed);
              else resp = Status::Protocol("malformed PRODUCE_LOG response");
            }
          }
          w->HandleResponse(std::move(g), std::move(resp));
        }(self, conn, std::move(frame), std::move(group)),
        asio::detached);
  }
}

void AppendWriterImpl::HandleResponse(std::vector<Batch> batches, Result<proto::ProduceLogResponse> resp) {
  bool backoff = false;
  std::map<int32_t, const proto::PbProduceLogRespForBucket*> by_bucket;
  if (resp.ok())
    for (const auto& r : resp->buckets_resp()) by_bucket[r.bucket_id()] = &r;
  for (auto& b : batches) {
    BucketState& bs = buckets_[b.bucket];
    --bs.in_flight;
    if (!resp.ok()) {
      RetryOrFail(std::move(b), resp.status(), &backoff);
      continue;
    }
    auto it = by_bucket.find(b.bucket);
    if (it == by_bucket.end()) {
      RetryOrFail(std::move(b), Status::Protocol("produce response lacks bucket " + std::to_string(b.bucket)), &backoff);
      continue;
    }
    const auto& r = *it->second;
    int32_t code = r.has_error_code() ? r.error_code() : protocol::NONE;
    const bool current_writer = idempotent_ && b.writer_id == writer_id_ && writer_id_ >= 0;
    if (code == protocol::DUPLICATE_SEQUENCE_EXCEPTION) code = protocol::NONE;  // written before
    bool resend_in_order = false;
    if (code == protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION) {
      if (!current_writer) {
        resend_in_order = true;  // sent under an old writer id: gets a new id and sequence
      } else if (b.seq <= bs.last_acked) {
        code = protocol::NONE;  // an earlier attempt was written; its answer was lost
      } else if (b.seq == bs.last_acked + 1) {
        // The server lost this writer's state (e.g. the writer id expired): fail the batch and
        // start over with a new writer id.
        Complete(b, Status::Server(code, "table " + table_.table_path.ToString() + " bucket " +
                                             std::to_string(b.bucket) + ": " + r.error_message()));
        continue;
      } else {
        resend_in_order = true;  // an earlier batch failed and is being retried first
      }
    }
    if (resend_in_order) {
      bs.retrying = true;
      Requeue(std::move(b));
      backoff = true;
      continue;
    }
    if (code != protocol::NONE) {
      RetryOrFail(std::move(b), protocol::ServerError(code, r.error_message()), &backoff);
      continue;
    }
    if (current_writer) bs.last_acked = std::max(bs.last_acked, b.seq);
    if (b.attempts > 0 && bs.in_flight == 0) bs.retrying = false;
    Complete(b, Status::OK());
  }
  if (backoff) {
    auto self = shared_from_this();
    asio::co_spawn(
        conn_->io(),
        [](std::shared_ptr<AppendWriterImpl> w) -> asio::awaitable<void> {
          co_await w->conn_->Sleep(std::chrono::milliseconds(100));
          w->Drain();
        }(self),
        asio::detached);
  } else {
    Drain();
  }
}

void AppendWriterImpl::Requeue(Batch b) {
  ++b.attempts;
  auto& q = queues_[b.bucket];
  auto pos = q.begin();
  // Retried batches go before new ones, in sequence order.
  while (pos != q.end() && pos->seq >= 0 && (pos->writer_id != b.writer_id || pos->seq < b.seq)) ++pos;
  q.insert(pos, std::move(b));
}

void AppendWriterImpl::RetryOrFail(Batch b, const Status& st, bool* need_backoff) {
  const std::string where = "table " + table_.table_path.ToString() + " bucket " + std::to_string(b.bucket);
  bool closed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed = aborted_;
  }
  const bool expired = Clock::now() - b.created >= std::chrono::milliseconds(options_.writer_delivery_timeout_ms);
  // TABLE_NOT_EXIST from a tablet server is checked with the coordinator (the metadata refresh
  // that the invalidation below triggers): a server may not know a just-created table yet.
  const bool table_unknown = st.code() == StatusCode::kServer && st.error_code() == protocol::TABLE_NOT_EXIST;
  if ((st.IsRetriable() || table_unknown) && b.attempts < options_.writer_retries && !closed && !expired) {
    // A timeout may mean the leader is frozen or gone: learn the current leaders before the
    // retry, as for connection loss and the server's invalid-metadata errors.
    if (st.code() == StatusCode::kNetwork || st.code() == StatusCode::kTimeout || table_unknown ||
        (st.code() == StatusCode::kServer && protocol::IsInvalidMetadataError(st.error_code())))
      conn_->metadata().InvalidateTable(table_.table_path);
    buckets_[b.bucket].retrying = true;
    Requeue(std::move(b));
    *need_backoff = true;
    return;
  }
  if (st.IsRetriable() && expired && !closed) {
    Complete(b, DeliveryTimeout(b, st));
    return;
  }
  Complete(b, st.WithContext(where));  // resets the writer id if the batch had a sequence
}

Status AppendWriterImpl::DeliveryTimeout(const Batch& b, const Status& last) const {
  std::string msg = "table " + table_.table_path.ToString() + " bucket " + std::to_string(b.bucket) + ": " +
                    std::to_string(b.rows) + " row(s) not acknowledged within client.writer.delivery-timeout (" +
                    std::to_string(options_.writer_delivery_timeout_ms) + " ms)";
  if (b.sent) msg += "; the batch was sent, so the server may have stored it";
  if (!last.ok()) msg += "; last error: " + last.ToString();
  return Status::Timeout(std::move(msg));
}

void AppendWriterImpl::ExpireQueued() {
  const auto now = Clock::now();
  const auto limit = std::chrono::milliseconds(options_.writer_delivery_timeout_ms);
  for (auto& [bucket, q] : queues_) {
    // Oldest first: retried batches sit in front of newer ones.
    while (!q.empty() && now - q.front().created >= limit) {
      Batch b = std::move(q.front());
      q.pop_front();
      const bool has_leader = conn_->metadata().Leader(table_.table_path, bucket).has_value();
      Complete(b, DeliveryTimeout(b, has_leader ? Status::OK()
                                                : Status::Network("no leader known for the bucket")));
    }
  }
}

void AppendWriterImpl::ScheduleExpiryCheck() {
  if (conn_->closed()) return;
  std::optional<Clock::time_point> oldest;
  for (auto& [bucket, q] : queues_)
    if (!q.empty() && (!oldest || q.front().created < *oldest)) oldest = q.front().created;
  if (!oldest) return;
  const auto at = *oldest + std::chrono::milliseconds(options_.writer_delivery_timeout_ms);
  if (expiry_timer_armed_ && expiry_timer_at_ <= at) return;
  expiry_timer_armed_ = true;
  expiry_timer_at_ = at;
  auto timer = conn_->NewTimer();
  timer->expires_at(at);
  timer->async_wait([self = shared_from_this(), timer, at](const asio::error_code& ec) {
    if (self->expiry_timer_at_ == at) self->expiry_timer_armed_ = false;
    if (ec || self->conn_->closed()) return;
    self->Drain();  // expires what is due and re-arms for the next
  });
}

void AppendWriterImpl::Complete(const Batch& b, const Status& st) {
  // A batch that consumed a sequence number and is given up on leaves a gap the server would
  // refuse forever: start over with a new writer id (later batches get new sequences).
  if (!st.ok() && idempotent_ && writer_id_ >= 0 && b.writer_id == writer_id_) ResetWriterId();
  std::vector<std::pair<StatusCallback, Status>> flushed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    buffered_bytes_ -= b.bytes;
    incomplete_.erase(b.id);
    if (!st.ok()) {
      // Every waiting flush that covers this write reports it; otherwise the next flush does.
      bool covered = false;
      for (auto& w : flush_waiters_)
        if (b.id <= w.target) {
          w.failures.Add(b.rows, st);
          covered = true;
        }
      if (!covered) unreported_.Add(b.rows, st);
    }
    const uint64_t lowest = incomplete_.empty() ? UINT64_MAX : *incomplete_.begin();
    for (auto it = flush_waiters_.begin(); it != flush_waiters_.end();) {
      if (lowest > it->target) {
        flushed.emplace_back(std::move(it->done), it->failures.ToStatus());
        it = flush_waiters_.erase(it);
      } else {
        ++it;
      }
    }
  }
  memory_cv_.notify_all();
  b.result->CompletePart(st);
  for (auto& [cb, s] : flushed) cb(s);
}

Status AppendWriterImpl::FailureTally::ToStatus() const {
  if (batches == 0) return Status::OK();
  return Status(first.code(), first.error_code(),
                "flush: " + std::to_string(rows) + " row(s) in " + std::to_string(batches) +
                    " batch(es) written since the previous flush failed; first failure: " + first.ToString());
}

void AppendWriterImpl::Abort(const Status& status) {
  std::vector<Batch> pending;
  {
    std::lock_guard<std::mutex> lock(mu_);
    aborted_ = true;
    abort_status_ = status;
    std::vector<int32_t> buckets;
    for (auto& [b, ob] : open_) buckets.push_back(b);
    for (int32_t b : buckets) CloseOpenLocked(b);
    for (auto& b : closed_) pending.push_back(std::move(b));
    closed_.clear();
  }
  for (auto& [bucket, q] : queues_) {
    for (auto& b : q) pending.push_back(std::move(b));
    q.clear();
  }
  for (auto& b : pending) Complete(b, status);
  memory_cv_.notify_all();
}

}  // namespace fluss::write

namespace fluss {

Result<std::shared_ptr<AppendWriter>> Table::NewAppendWriter() {
  FLUSS_ASSIGN_OR_RETURN(auto w, write::AppendWriterImpl::Create(impl_, info_));
  return std::static_pointer_cast<AppendWriter>(w);
}

}  // namespace fluss
