#include "fluss/write/sender.h"

#include <algorithm>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/frame.h"
#include "fluss/protocol/partition_requests.h"
#include "fluss/protocol/init_writer.h"
#include "fluss/protocol/produce_log.h"
#include "fluss/protocol/put_kv.h"
#include "fluss/row/partition_name.h"
#include "fluss/util/log.h"

namespace fluss::write {

using metadata::Clock;
using metadata::TableBucket;
using protocol::ApiKey;

namespace {

std::string Where(const WriteBatch& b) {
  std::string where = "table " + b.table()->path.ToString();
  if (!b.partition_name().empty()) where += " partition '" + b.partition_name() + "'";
  return where + " bucket " + std::to_string(b.bucket().bucket);
}

// The request frame of `group` (batches of one table, kind and column set, at most one per
// bucket); the batches go into it by reference, not copied.
net::OutgoingFrame EncodeRequest(RequestKind kind, int32_t acks, int64_t table_id, int32_t timeout_ms,
                                 const std::vector<int32_t>& target_columns,
                                 const std::vector<std::unique_ptr<WriteBatch>>& group) {
  std::vector<protocol::ProduceBucket> buckets;
  for (const auto& b : group) {
    protocol::ProduceBucket pb;
    pb.partition_id = b->bucket().partition_id;
    pb.bucket_id = b->bucket().bucket;
    pb.owner = b->encoded();
    pb.records = b->encoded()->data();
    pb.size = static_cast<size_t>(b->encoded()->size());
    buckets.push_back(std::move(pb));
  }
  // The Java 0.9 client always sets agg_mode; the table's merge engine applies (0).
  auto pieces = kind == RequestKind::kPutKv
                    ? protocol::EncodePutKvRequest(acks, table_id, timeout_ms, target_columns,
                                                   protocol::kAggModeAggregate, buckets, protocol::kRequestPrefixSize)
                    : protocol::EncodeProduceLogRequest(acks, table_id, timeout_ms, buckets, protocol::kRequestPrefixSize);
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
  return frame;
}

// The per-bucket answers of a ProduceLog or PutKv response body.
template <typename Resp>
Result<std::map<TableBucket, Sender::BucketAnswer>> ParseAnswers(const net::ResponseBody& body, int64_t table_id,
                                                                 const char* what, const net::ServerEndpoint& from) {
  Resp parsed;
  if (!parsed.ParseFromArray(body.data, static_cast<int>(body.size)))
    return Status::Protocol(std::string("malformed ") + what + " response from " + from.ToString());
  std::map<TableBucket, Sender::BucketAnswer> by_bucket;
  for (const auto& r : parsed.buckets_resp()) {
    TableBucket tb{table_id, r.has_partition_id() ? std::optional<int64_t>(r.partition_id()) : std::nullopt, r.bucket_id()};
    by_bucket[tb] = Sender::BucketAnswer{r.has_error_code() ? r.error_code() : protocol::NONE, r.error_message()};
  }
  return by_bucket;
}

}  // namespace

Sender::Sender(std::shared_ptr<metadata::Cluster> cluster, std::shared_ptr<MemoryLimiter> memory,
               std::shared_ptr<RecordAccumulator> accumulator)
    : cluster_(std::move(cluster)),
      memory_(std::move(memory)),
      accumulator_(std::move(accumulator)),
      options_(cluster_->options()),
      idempotence_(options_.writer_enable_idempotence) {}

void Sender::PostDrain() {
  if (drain_posted_.exchange(true)) return;
  asio::post(cluster_->io(), [self = shared_from_this()] { self->Drain(); });
}

bool Sender::AnyQueued() const {
  for (const auto& [bucket, q] : queues_)
    if (!q.empty()) return true;
  for (const auto& [partition, q] : unresolved_)
    if (!q.empty()) return true;
  return false;
}

void Sender::Enqueue(BatchPtr b) {
  if (b->unresolved()) {
    // Behind batches of the same partition still waiting, so a bucket's batches keep their order.
    auto key = std::make_pair(b->bucket().table_id, b->partition_name());
    auto waiting = unresolved_.find(key);
    const auto id = cluster_->metadata().PartitionId(key.first, key.second);
    if ((waiting != unresolved_.end() && !waiting->second.empty()) || !id) {
      unresolved_[key].push_back(std::move(b));
      return;
    }
    b->ResolvePartition(*id);
  }
  TableBucket tb = b->bucket();
  queues_[tb].push_back(std::move(b));
}

void Sender::Drain() {
  drain_posted_ = false;
  for (auto& c : accumulator_->TakeClosed()) {
    if (!c.status.ok()) {
      Status failed = c.status.WithContext(Where(*c.batch));
      Complete(std::move(c.batch), failed);
      continue;
    }
    if (aborted_) {
      Complete(std::move(c.batch), abort_status_);
      continue;
    }
    idempotence_.AddTable(c.batch->table()->path);
    Enqueue(std::move(c.batch));
  }
  ExpireQueued();
  ScheduleExpiryCheck();
  if (!idempotence_.ready()) {
    if (AnyQueued()) StartInitWriter();
    return;
  }
  std::map<RequestKey, std::vector<BatchPtr>> requests;
  std::map<std::string, RefreshTarget> need_refresh;
  for (auto& [bucket, q] : queues_) {
    auto& bs = idempotence_.bucket(bucket);
    const int max_in_flight = idempotence_.MaxInFlight(bucket);
    if (q.empty() || bs.in_flight >= max_in_flight) continue;
    auto leader = cluster_->metadata().Leader(bucket);
    if (!leader) {
      // Batches wait for a leader until their delivery timeout (ExpireQueued).
      const TablePath& path = q.front()->table()->path;
      RefreshTarget& t = need_refresh[path.ToString()];
      t.path = path;
      if (bucket.partition_id) t.partitions.insert(q.front()->partition_name());
      else t.table = true;
      continue;
    }
    while (!q.empty() && bs.in_flight < max_in_flight) {
      BatchPtr b = std::move(q.front());
      q.pop_front();
      ++bs.in_flight;
      util::MetricCounters::Add(cluster_->metrics().batches_in_flight, 1);
      RequestKey key{*leader, bucket.table_id, b->kind(), b->table()->target_columns};
      requests[key].push_back(std::move(b));
    }
  }
  for (auto& [key, batches] : requests) Send(key, std::move(batches));
  for (const auto& [partition, q] : unresolved_) {
    if (q.empty()) continue;
    const TablePath& path = q.front()->table()->path;
    RefreshTarget& t = need_refresh[path.ToString()];
    t.path = path;
    t.partitions.insert(partition.second);
  }
  if (!need_refresh.empty() && !refreshing_) StartRefresh(std::move(need_refresh));
}

void Sender::StartRefresh(std::map<std::string, RefreshTarget> targets) {
  refreshing_ = true;
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<Sender> s, std::map<std::string, RefreshTarget> targets) -> asio::awaitable<void> {
        for (const auto& [name, t] : targets) {
          if (t.table) co_await s->RefreshTable(t.path);
          for (const auto& partition : t.partitions) co_await s->RefreshPartition(t.path, partition);
        }
        // Back off only while some batch still has no leader or partition id (e.g. right after
        // a create).
        bool waiting = false;
        for (const auto& [partition, q] : s->unresolved_) waiting = waiting || !q.empty();
        for (const auto& [bucket, q] : s->queues_)
          if (!q.empty() && !s->cluster_->metadata().Leader(bucket)) waiting = true;
        if (waiting) co_await s->cluster_->Sleep(std::chrono::milliseconds(50));
        s->refreshing_ = false;
        s->Drain();
      }(shared_from_this(), std::move(targets)),
      asio::detached);
}

asio::awaitable<void> Sender::RefreshTable(TablePath path) {
  const std::vector<TablePath> one{path};
  Status st = co_await cluster_->RefreshMetadata(one);
  // The coordinator decides whether the table exists (a tablet server that does not know it
  // yet, right after creation, answers a write with TABLE_NOT_EXIST too).
  std::set<int64_t> queued_ids;
  for (const auto& [bucket, q] : queues_)
    if (!q.empty() && !bucket.partition_id && q.front()->table()->path == path) queued_ids.insert(bucket.table_id);
  const auto id = cluster_->metadata().TableId(path);
  for (int64_t queued : queued_ids) {
    Status gone = st;
    if (st.ok() && id && *id != queued)
      gone = Status::Server(protocol::TABLE_NOT_EXIST,
                            "the table was dropped (a new table of that name has id " + std::to_string(*id) + ")");
    // E.g. TABLE_NOT_EXIST: the table was dropped; waiting for a leader is pointless.
    if (!gone.ok() && gone.code() == StatusCode::kServer && !gone.IsRetriable())
      FailQueued(queued, gone.WithContext("table " + path.ToString()));
  }
}

asio::awaitable<void> Sender::RefreshPartition(TablePath path, std::string name) {
  // The ids of the tables with batches of this partition: one, or two after a drop and re-create.
  std::set<int64_t> ids;
  const WriteTable* table = nullptr;
  for (const auto& [partition, q] : unresolved_)
    if (!q.empty() && partition.second == name && q.front()->table()->path == path) {
      ids.insert(partition.first);
      table = q.front()->table().get();
    }
  for (const auto& [bucket, q] : queues_)
    if (!q.empty() && bucket.partition_id && q.front()->partition_name() == name && q.front()->table()->path == path) {
      ids.insert(bucket.table_id);
      table = q.front()->table().get();
    }
  if (ids.empty()) co_return;
  const std::vector<std::string> keys = table->partition_keys;
  const std::string where = "table " + path.ToString() + " partition '" + name + "'";
  auto leaders = co_await cluster_->PartitionLeaders(path, name);
  if (leaders.ok()) {
    for (int64_t id : ids) {
      const auto partition_id = cluster_->metadata().PartitionId(id, name);
      if (!partition_id) {
        // The partition found belongs to a new table of that name.
        Status gone = Status::Server(protocol::TABLE_NOT_EXIST, where + ": the table was dropped (a new table of that name exists)");
        FailQueuedPartition(id, name, std::nullopt, gone);
        FailUnresolved(id, name, gone);
        continue;
      }
      // The partition was dropped and re-created: batches the old one did not store (never
      // sent, or refused with an error) go to the new one; those whose send went unanswered may
      // be in the dropped one and fail.
      MoveUnwrittenToPartition(id, name, *partition_id);
      FailQueuedPartition(id, name, partition_id,
                          Status::Server(protocol::PARTITION_NOT_EXISTS,
                                         where + ": the partition was dropped while the batch was in flight (a new "
                                                 "partition of that name has id " +
                                             std::to_string(*partition_id) + ")"));
      auto it = unresolved_.find({id, name});
      if (it == unresolved_.end()) continue;
      Queue waiting = std::move(it->second);
      unresolved_.erase(it);
      for (auto& b : waiting) {
        b->ResolvePartition(*partition_id);
        TableBucket tb = b->bucket();
        queues_[tb].push_back(std::move(b));
      }
    }
    co_return;
  }
  const Status st = leaders.status();
  if (st.code() != StatusCode::kServer || st.IsRetriable()) co_return;  // asked again on the next drain
  const bool missing = st.error_code() == protocol::PARTITION_NOT_EXISTS;
  for (int64_t id : ids) {
    if (missing) {
      cluster_->metadata().InvalidatePartition(id, name);
      FailQueuedPartition(id, name, std::nullopt, Status::Server(protocol::PARTITION_NOT_EXISTS, where + ": the partition was dropped"));
    } else {
      FailQueuedPartition(id, name, std::nullopt, st);
      FailUnresolved(id, name, st);
    }
  }
  if (!missing) co_return;
  bool any_waiting = false;
  for (int64_t id : ids) any_waiting = any_waiting || unresolved_.count({id, name}) > 0;
  if (!any_waiting) co_return;
  if (!options_.writer_dynamic_create_partition) {
    Status not_exist = Status::Server(
        protocol::PARTITION_NOT_EXISTS,
        where + " does not exist; create it first (create_partition), or set "
                "client.writer.dynamic-create-partition.enabled to true to let the writer create it");
    for (int64_t id : ids) FailUnresolved(id, name, not_exist);
    co_return;
  }
  // As the Java client's dynamic partition creation: create it (it may exist by now) and resolve
  // it on the next refresh.
  const proto::CreatePartitionRequest req =
      protocol::MakeCreatePartitionRequest(path, row::PartitionSpecOf(keys, name), true);
  auto created = co_await cluster_->CallCoordinator<proto::CreatePartitionResponse>(ApiKey::CREATE_PARTITION, req);
  if (created.ok() || created.status().IsRetriable() ||
      created.status().error_code() == protocol::PARTITION_ALREADY_EXISTS)
    co_return;
  Status failed = created.status().WithContext(where + ": creating the partition failed");
  for (int64_t id : ids) FailUnresolved(id, name, failed);
}

void Sender::FailQueuedPartition(int64_t table_id, const std::string& name, std::optional<int64_t> keep,
                                 const Status& st) {
  for (auto& [bucket, q] : queues_) {
    if (bucket.table_id != table_id || !bucket.partition_id || bucket.partition_id == keep) continue;
    while (!q.empty() && q.front()->partition_name() == name && idempotence_.bucket(bucket).in_flight == 0) {
      BatchPtr b = std::move(q.front());
      q.pop_front();
      Status failed = st;
      Complete(std::move(b), failed);
    }
  }
}

void Sender::MoveUnwrittenToPartition(int64_t table_id, const std::string& name, int64_t partition_id) {
  std::vector<BatchPtr> moved;
  for (auto& [bucket, q] : queues_) {
    if (bucket.table_id != table_id || !bucket.partition_id || *bucket.partition_id == partition_id) continue;
    if (q.empty() || q.front()->partition_name() != name || idempotence_.bucket(bucket).in_flight > 0) continue;
    std::erase_if(q, [&moved](BatchPtr& b) {
      if (b->maybe_stored) return false;
      moved.push_back(std::move(b));
      return true;
    });
  }
  for (auto& b : moved) {
    b->ResolvePartition(partition_id);
    b->writer_id = -1;  // a new bucket: stamped with its own sequence on the next send
    b->sequence = -1;
    auto& q = queues_[b->bucket()];
    // After the batches already sequenced (retries), before the new ones.
    auto pos = std::find_if(q.begin(), q.end(), [](const BatchPtr& x) { return x->sequence < 0; });
    q.insert(pos, std::move(b));
  }
}

void Sender::FailUnresolved(int64_t table_id, const std::string& name, const Status& st) {
  auto it = unresolved_.find({table_id, name});
  if (it == unresolved_.end()) return;
  Queue waiting = std::move(it->second);
  unresolved_.erase(it);
  for (auto& b : waiting) Complete(std::move(b), st);
}

void Sender::FailQueued(int64_t table_id, const Status& st) {
  for (auto& [bucket, q] : queues_) {
    if (bucket.table_id != table_id || bucket.partition_id) continue;
    while (!q.empty() && idempotence_.bucket(bucket).in_flight == 0) {
      BatchPtr b = std::move(q.front());
      q.pop_front();
      Complete(std::move(b), st);
    }
  }
}

void Sender::StartInitWriter() {
  if (init_writer_running_) return;
  init_writer_running_ = true;
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<Sender> s) -> asio::awaitable<void> {
        // Retried while batches wait for it: they expire by their delivery timeout, not by
        // this loop. Each attempt asks the next tablet server (one may be down or frozen).
        Status last;
        auto& cluster = *s->cluster_;
        for (int attempt = 0;; ++attempt) {
          s->ExpireQueued();
          if (!s->AnyQueued() || cluster.closed()) break;
          const auto& servers = cluster.metadata().tablet_servers();
          std::shared_ptr<net::ServerConnection> ts;
          if (!servers.empty()) {
            auto it = servers.begin();
            std::advance(it, static_cast<long>(s->init_writer_server_++ % servers.size()));
            ts = cluster.TabletServer(it->first);
          }
          if (!ts) {
            const std::vector<TablePath> none;
            co_await cluster.RefreshMetadata(none);
            last = Status::Network("no tablet server known for InitWriter");
          } else {
            std::vector<TablePath> tables;
            for (const auto& [name, path] : s->idempotence_.tables()) tables.push_back(path);
            const proto::InitWriterRequest req = protocol::MakeInitWriterRequest(tables);
            auto resp = co_await cluster.Call<proto::InitWriterResponse>(ts, ApiKey::INIT_WRITER, req);
            if (resp.ok()) {
              s->idempotence_.SetWriterId(resp->writer_id());
              break;
            }
            last = resp.status();
            if (!last.IsRetriable()) {
              // E.g. an authorization error: the queued batches cannot be sent idempotently.
              Status st = last.WithContext("InitWriter failed");
              for (auto& [bucket, q] : s->queues_) {
                while (!q.empty()) {
                  BatchPtr b = std::move(q.front());
                  q.pop_front();
                  Status failed = st.WithContext("table " + b->table()->path.ToString());
                  s->Complete(std::move(b), failed);
                }
              }
              break;
            }
            if (last.code() != StatusCode::kServer || protocol::IsInvalidMetadataError(last.error_code())) {
              const std::vector<TablePath> none;
              co_await cluster.RefreshMetadata(none);
            }
          }
          co_await cluster.Sleep(std::chrono::milliseconds(std::min(200 << std::min(attempt, 3), 1000)));
        }
        s->init_writer_running_ = false;
        if (s->idempotence_.ready()) s->Drain();
      }(shared_from_this()),
      asio::detached);
}

void Sender::Send(const RequestKey& key, std::vector<BatchPtr> batches) {
  // Encode (and compress) on the I/O thread and give each new batch its writer id and
  // sequence, in queue order. A retried batch keeps its own; one sent under a writer id that
  // was replaced since gets new ones only when none of its sends may have been stored, and
  // fails otherwise (InDoubtUnderOldWriterId).
  std::map<TableBucket, std::vector<BatchPtr>> per_bucket;
  bool dropped = false;  // a batch failed here: the next of its bucket waits for a drain
  for (auto& b : batches) {
    Status st = b->Encode();
    if (!st.ok()) {
      --idempotence_.bucket(b->bucket()).in_flight;
      util::MetricCounters::Add(cluster_->metrics().batches_in_flight, -1);
      Status failed = st.WithContext("table " + b->table()->path.ToString());
      Complete(std::move(b), failed);
      dropped = true;
      continue;
    }
    if (idempotence_.InDoubtUnderOldWriterId(*b)) {
      auto& bs = idempotence_.bucket(b->bucket());
      --bs.in_flight;
      util::MetricCounters::Add(cluster_->metrics().batches_in_flight, -1);
      // It was the bucket's batch being retried: the bucket sends freely again (the batches
      // behind it get new sequences of the new writer id, in order).
      if (bs.in_flight == 0) bs.retrying = false;
      Status failed = InDoubtAfterWriterReset(*b);
      Complete(std::move(b), failed);
      dropped = true;
      continue;
    }
    idempotence_.Stamp(*b);
    TableBucket tb = b->bucket();
    per_bucket[tb].push_back(std::move(b));
  }
  // One batch per bucket per request: request k carries the k-th batch of each bucket, split
  // further at request.max.size bytes. Requests on one connection are handled in order.
  for (size_t round = 0;; ++round) {
    std::vector<BatchPtr> current;
    int64_t size = 0;
    bool any = false;
    for (auto& [bucket, list] : per_bucket) {
      if (round >= list.size()) continue;
      any = true;
      BatchPtr& b = list[round];
      if (!current.empty() && size + b->encoded()->size() > options_.request_max_size) {
        SendRequest(key, std::move(current));
        current.clear();
        size = 0;
      }
      size += b->encoded()->size();
      b->sent = true;
      current.push_back(std::move(b));
    }
    if (!current.empty()) SendRequest(key, std::move(current));
    if (!any) break;
  }
  if (dropped) PostDrain();
}

void Sender::SendRequest(const RequestKey& key, std::vector<BatchPtr> group) {
  const int32_t timeout_ms = static_cast<int32_t>(std::min<int64_t>(options_.request_timeout_ms, INT32_MAX));
  net::OutgoingFrame frame =
      EncodeRequest(key.kind, options_.writer_acks, key.table_id, timeout_ms, key.target_columns, group);
  auto conn = cluster_->TabletServer(key.leader);
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<Sender> s, std::shared_ptr<net::ServerConnection> c, net::OutgoingFrame f, RequestKind kind,
         int64_t table_id, std::vector<BatchPtr> g) -> asio::awaitable<void> {
        Result<std::map<TableBucket, BucketAnswer>> answers = Status::Network("leader is not in the server list");
        if (c) {
          const ApiKey api = kind == RequestKind::kPutKv ? ApiKey::PUT_KV : ApiKey::PRODUCE_LOG;
          auto body = co_await s->cluster_->SendFrame(c, api, std::move(f));
          if (!body.ok()) answers = body.status();
          else if (kind == RequestKind::kPutKv)
            answers = ParseAnswers<proto::PutKvResponse>(*body, table_id, "PUT_KV", c->endpoint());
          else answers = ParseAnswers<proto::ProduceLogResponse>(*body, table_id, "PRODUCE_LOG", c->endpoint());
        }
        s->HandleResponse(std::move(g), std::move(answers));
      }(shared_from_this(), conn, std::move(frame), key.kind, key.table_id, std::move(group)),
      asio::detached);
}

void Sender::HandleResponse(std::vector<BatchPtr> batches, Result<std::map<TableBucket, BucketAnswer>> resp) {
  bool backoff = false;
  for (auto& b : batches) {
    auto& bs = idempotence_.bucket(b->bucket());
    --bs.in_flight;
    util::MetricCounters::Add(cluster_->metrics().batches_in_flight, -1);
    if (!resp.ok()) {
      RetryOrFail(std::move(b), resp.status(), &backoff);
      continue;
    }
    auto it = resp->find(b->bucket());
    if (it == resp->end()) {
      RetryOrFail(std::move(b), Status::Protocol("the response lacks " + b->bucket().ToString()), &backoff);
      continue;
    }
    int32_t code = it->second.error_code;
    if (code == protocol::DUPLICATE_SEQUENCE_EXCEPTION) code = protocol::NONE;  // written before
    if (code == protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION) {
      switch (idempotence_.OnOutOfOrderSequence(*b)) {
        case IdempotenceManager::OutOfOrder::kAlreadyWritten:
          code = protocol::NONE;  // an earlier attempt was written; its answer was lost
          break;
        case IdempotenceManager::OutOfOrder::kFailAndReset: {
          // The server lost this writer's state (e.g. the writer id expired): fail the batch
          // and start over with a new writer id.
          Status failed = Status::Server(code, Where(*b) + ": " + it->second.message);
          Complete(std::move(b), failed);
          continue;
        }
        case IdempotenceManager::OutOfOrder::kResendInOrder:
          bs.retrying = true;
          Requeue(std::move(b));
          backoff = true;
          continue;
      }
    }
    if (code != protocol::NONE) {
      RetryOrFail(std::move(b), protocol::ServerError(code, it->second.message), &backoff);
      continue;
    }
    idempotence_.OnAcked(*b);
    auto& metrics = cluster_->metrics();
    util::MetricCounters::Add(metrics.batches_sent, 1);
    util::MetricCounters::Add(metrics.records_sent, b->rows);
    util::MetricCounters::Add(metrics.bytes_sent, b->encoded() ? b->encoded()->size() : b->size_in_bytes());
    Complete(std::move(b), Status::OK());
  }
  if (backoff) DrainLater();
  else Drain();
}

void Sender::DrainLater() {
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<Sender> s) -> asio::awaitable<void> {
        co_await s->cluster_->Sleep(std::chrono::milliseconds(100));
        s->Drain();
      }(shared_from_this()),
      asio::detached);
}

void Sender::Requeue(BatchPtr b) {
  ++b->attempts;
  auto& q = queues_[b->bucket()];
  auto pos = q.begin();
  // Retried batches go before new ones, in sequence order.
  while (pos != q.end() && (*pos)->sequence >= 0 && ((*pos)->writer_id != b->writer_id || (*pos)->sequence < b->sequence))
    ++pos;
  q.insert(pos, std::move(b));
}

void Sender::RetryOrFail(BatchPtr b, const Status& st, bool* need_backoff) {
  // No answer: the server may have it. REQUEST_TIME_OUT and NOT_ENOUGH_REPLICAS_AFTER_APPEND
  // answer a batch the leader appended while waiting for its replicas: it may still commit.
  if (st.code() != StatusCode::kServer || st.error_code() == protocol::REQUEST_TIME_OUT ||
      st.error_code() == protocol::NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION)
    b->maybe_stored = true;
  b->last_error = st;
  const bool expired = Clock::now() - b->created() >= std::chrono::milliseconds(options_.writer_delivery_timeout_ms);
  // TABLE_NOT_EXIST from a tablet server is checked with the coordinator (the metadata refresh
  // that the invalidation below triggers): a server may not know a just-created table yet.
  // PARTITION_NOT_EXISTS likewise, for a just-created partition.
  const bool table_unknown = st.code() == StatusCode::kServer && (st.error_code() == protocol::TABLE_NOT_EXIST ||
                                                                  st.error_code() == protocol::PARTITION_NOT_EXISTS);
  // An answer the client cannot read (a malformed frame, a body that does not parse, a bucket
  // missing from it) leaves the batch's outcome unknown, as a lost answer does: the batch may be
  // stored (maybe_stored), so failing it would report a stored write as failed. It is sent
  // again (the leader answers a duplicate with its original offset), until the delivery timeout.
  const bool unreadable = st.code() == StatusCode::kProtocol;
  if ((st.IsRetriable() || table_unknown || unreadable) && b->attempts < options_.writer_retries && !aborted_ &&
      !expired) {
    // A timeout may mean the leader is frozen or gone: learn the current leaders before the
    // retry, as for connection loss, unreadable answers and the server's invalid-metadata errors.
    if (st.code() == StatusCode::kNetwork || st.code() == StatusCode::kTimeout || unreadable || table_unknown ||
        (st.code() == StatusCode::kServer && protocol::IsInvalidMetadataError(st.error_code()))) {
      // A partition's bucket: only that partition's metadata (a table has many partitions).
      if (b->bucket().partition_id) cluster_->metadata().InvalidatePartition(b->bucket().table_id, b->partition_name());
      else cluster_->metadata().InvalidateTable(b->table()->path);
    }
    util::MetricCounters::Add(cluster_->metrics().write_retries, 1);
    FLUSS_LOG(kInfo, "retrying a batch of " + Where(*b) + " (attempt " + std::to_string(b->attempts + 1) +
                         "): " + st.message());
    idempotence_.bucket(b->bucket()).retrying = true;
    Requeue(std::move(b));
    *need_backoff = true;
    return;
  }
  if ((st.IsRetriable() || unreadable) && expired && !aborted_) {
    Status timeout = DeliveryTimeout(*b, st);
    Complete(std::move(b), timeout);
    return;
  }
  Status failed = st.WithContext(Where(*b));
  Complete(std::move(b), failed);
}

Status Sender::DeliveryTimeout(const WriteBatch& b, const Status& last) const {
  std::string msg = Where(b) + ": " + std::to_string(b.rows) +
                    " row(s) not acknowledged within client.writer.delivery-timeout (" +
                    std::to_string(options_.writer_delivery_timeout_ms) + " ms)";
  if (b.sent) msg += "; the batch was sent, so the server may have stored it";
  if (!last.ok()) msg += "; last error: " + last.ToString();
  return Status::Timeout(std::move(msg));
}

Status Sender::InDoubtAfterWriterReset(const WriteBatch& b) const {
  std::string msg = Where(b) + ": " + std::to_string(b.rows) +
                    " row(s) not sent again: a send of the batch got no answer, so the server may have stored it "
                    "under writer id " + std::to_string(b.writer_id) +
                    ", which the connection has replaced since (another write failed); sending it under the new "
                    "writer id could store it twice";
  if (!b.last_error.ok()) msg += "; last error: " + b.last_error.ToString();
  return Status::Server(protocol::UNKNOWN_WRITER_ID_EXCEPTION, std::move(msg));
}

void Sender::ExpireQueued() {
  const auto now = Clock::now();
  const auto limit = std::chrono::milliseconds(options_.writer_delivery_timeout_ms);
  // `why` is the last error a batch at the front of queue `where` saw.
  auto expire = [&](auto& queues, auto why) {
    for (auto& [where, q] : queues) {
      // Oldest first: retried batches sit in front of newer ones.
      while (!q.empty() && now - q.front()->created() >= limit) {
        BatchPtr b = std::move(q.front());
        q.pop_front();
        Status timeout = DeliveryTimeout(*b, why(where));
        Complete(std::move(b), timeout);
      }
    }
  };
  expire(queues_, [this](const TableBucket& bucket) {
    return cluster_->metadata().Leader(bucket) ? Status::OK() : Status::Network("no leader known for the bucket");
  });
  expire(unresolved_, [](const auto&) { return Status::Network("the partition's id could not be resolved"); });
}

void Sender::ScheduleExpiryCheck() {
  if (cluster_->closed()) return;
  std::optional<Clock::time_point> oldest;
  for (auto& [bucket, q] : queues_)
    if (!q.empty() && (!oldest || q.front()->created() < *oldest)) oldest = q.front()->created();
  for (auto& [partition, q] : unresolved_)
    if (!q.empty() && (!oldest || q.front()->created() < *oldest)) oldest = q.front()->created();
  if (!oldest) return;
  const auto at = *oldest + std::chrono::milliseconds(options_.writer_delivery_timeout_ms);
  if (expiry_timer_armed_ && expiry_timer_at_ <= at) return;
  expiry_timer_armed_ = true;
  expiry_timer_at_ = at;
  auto timer = cluster_->NewTimer();
  timer->expires_at(at);
  timer->async_wait([self = shared_from_this(), timer, at](const asio::error_code& ec) {
    if (self->expiry_timer_at_ == at) self->expiry_timer_armed_ = false;
    if (ec || self->cluster_->closed()) return;
    self->Drain();  // expires what is due and re-arms for the next
  });
}

void Sender::Complete(BatchPtr b, const Status& st) {
  if (!st.ok()) idempotence_.OnGivenUp(*b);
  memory_->Release(b->bytes);
  // The handle first, then the flushes: a flush that returns sees its writes' handles done.
  b->result->CompletePart(st);
  b->tracker->Complete(b->id, b->rows, st);
}

void Sender::Abort(const Status& status) {
  aborted_ = true;
  abort_status_ = status;
  for (auto& c : accumulator_->Abort(status)) Complete(std::move(c.batch), status);
  auto fail_all = [&](auto& queues) {
    for (auto& [where, q] : queues) {
      while (!q.empty()) {
        BatchPtr b = std::move(q.front());
        q.pop_front();
        Complete(std::move(b), status);
      }
    }
  };
  fail_all(queues_);
  fail_all(unresolved_);
  memory_->Abort();
}

}  // namespace fluss::write
