#include "fluss/lookup/lookup_sender.h"

#include <algorithm>

#include "fluss/protocol/errors.h"

namespace fluss::lookup {

using metadata::Clock;

template <typename Kind>
LookupSender<Kind>::LookupSender(std::shared_ptr<metadata::Cluster> cluster, TablePath path, int64_t table_id)
    : cluster_(std::move(cluster)), path_(std::move(path)), table_id_(table_id) {}

template <typename Kind>
void LookupSender<Kind>::Enqueue(std::string partition, int32_t bucket, std::string key, Done done) {
  if (cluster_->closed()) {
    done(Status::Closed("table " + path_.ToString() + ": the connection is closed"));
    return;
  }
  Pending p;
  p.partition = std::move(partition);
  p.bucket = bucket;
  p.key = std::move(key);
  p.done = std::move(done);
  p.deadline = Clock::now() + std::chrono::milliseconds(cluster_->options().request_timeout_ms);
  {
    std::lock_guard<std::mutex> lock(mu_);
    incoming_.push_back(std::move(p));
    if (posted_) return;
    posted_ = true;
  }
  asio::post(cluster_->io(), [self = this->shared_from_this()] { self->Drain(); });
}

template <typename Kind>
void LookupSender<Kind>::Drain() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    posted_ = false;
    for (auto& p : incoming_) waiting_.push_back(std::move(p));
    incoming_.clear();
  }
  const auto now = Clock::now();
  const auto& options = cluster_->options();
  std::map<int32_t, std::vector<Pending>> by_leader;
  std::deque<Pending> keep;
  bool need_refresh = false;
  std::set<std::string> partitions;  // to resolve, or to find the leaders of
  for (auto& p : waiting_) {
    if (cluster_->closed()) {
      p.done(Status::Closed(Where(p) + ": the connection is closed"));
      continue;
    }
    if (now >= p.deadline) {
      std::string msg = Where(p) + ": " + Kind::kName + " not answered within client.request-timeout (" +
                        std::to_string(options.request_timeout_ms) + " ms)";
      if (!p.last_error.ok()) msg += "; last error: " + p.last_error.ToString();
      p.done(Status::Timeout(std::move(msg)));
      continue;
    }
    if (!p.partition.empty() && !p.partition_id) p.partition_id = cluster_->metadata().PartitionId(table_id_, p.partition);
    const bool unresolved = !p.partition.empty() && !p.partition_id;
    auto leader = unresolved ? std::nullopt
                             : cluster_->metadata().Leader(metadata::TableBucket{table_id_, p.partition_id, p.bucket});
    if (!leader) {
      need_refresh = true;
      if (!p.partition.empty()) {
        partitions.insert(p.partition);
        // Resolved again after the refresh: the partition may have been dropped and re-created
        // under a new id.
        p.partition_id.reset();
      }
      keep.push_back(std::move(p));
      continue;
    }
    by_leader[*leader].push_back(std::move(p));
  }
  waiting_ = std::move(keep);
  const size_t max_batch = static_cast<size_t>(options.lookup_max_batch_size);
  for (auto& [leader, list] : by_leader) {
    size_t i = 0;
    while (i < list.size() && in_flight_total_ < options.lookup_max_inflight_requests) {
      // While a request to this leader is out, keys gather for the next one unless a full
      // batch is already waiting: batching without delaying a lone lookup.
      if (in_flight_[leader] > 0 && list.size() - i < max_batch) break;
      const size_t n = std::min(max_batch, list.size() - i);
      std::vector<Pending> batch(std::make_move_iterator(list.begin() + static_cast<long>(i)),
                                 std::make_move_iterator(list.begin() + static_cast<long>(i + n)));
      i += n;
      Send(leader, std::move(batch));
    }
    for (; i < list.size(); ++i) waiting_.push_back(std::move(list[i]));
  }
  if (need_refresh && !refreshing_) StartRefresh(std::move(partitions));
}

template <typename Kind>
std::vector<typename Kind::BucketKeys> LookupSender<Kind>::BucketsOf(const std::vector<Pending>& batch) {
  std::vector<typename Kind::BucketKeys> buckets;
  for (const auto& p : batch) {
    if (buckets.empty() || buckets.back().bucket.bucket_id != p.bucket ||
        buckets.back().bucket.partition_id != p.partition_id) {
      buckets.emplace_back();
      buckets.back().bucket.partition_id = p.partition_id;
      buckets.back().bucket.bucket_id = p.bucket;
    }
    buckets.back().keys.push_back(p.key);
  }
  return buckets;
}

template <typename Kind>
void LookupSender<Kind>::Send(int32_t leader, std::vector<Pending> batch) {
  // One entry per bucket (in order of first appearance), keys in batch order; the batch is
  // reordered to the request's key order, which the answer follows.
  std::map<std::pair<std::optional<int64_t>, int32_t>, size_t> index;
  for (const auto& p : batch) index.emplace(std::make_pair(p.partition_id, p.bucket), index.size());
  std::stable_sort(batch.begin(), batch.end(), [&index](const Pending& a, const Pending& b) {
    return index[{a.partition_id, a.bucket}] < index[{b.partition_id, b.bucket}];
  });
  const auto buckets = BucketsOf(batch);
  auto req = Kind::Make(table_id_, buckets);
  ++in_flight_[leader];
  ++in_flight_total_;
  ++requests_sent_;
  auto conn = cluster_->TabletServer(leader);
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<LookupSender> s, std::shared_ptr<net::ServerConnection> c, typename Kind::Request r,
         int32_t leader, std::vector<Pending> g) -> asio::awaitable<void> {
        Result<typename Kind::Response> resp = Status::Network("the leader is not in the server list");
        if (c) resp = co_await s->cluster_->template Call<typename Kind::Response>(c, Kind::kApi, r);
        s->OnResponse(leader, std::move(g), std::move(resp));
      }(this->shared_from_this(), conn, std::move(req), leader, std::move(batch)),
      asio::detached);
}

template <typename Kind>
void LookupSender<Kind>::OnResponse(int32_t leader, std::vector<Pending> batch, Result<typename Kind::Response> resp) {
  --in_flight_[leader];
  --in_flight_total_;
  if (!resp.ok()) {
    for (auto& p : batch) Retry(std::move(p), resp.status());
    Drain();
    return;
  }
  // The request's buckets, to match the answer to it.
  const auto buckets = BucketsOf(batch);
  auto matched = Kind::Match(table_id_, buckets, *resp);
  if (!matched.ok()) {
    for (auto& p : batch) p.done(matched.status().WithContext(Where(p)));
    Drain();
    return;
  }
  size_t k = 0;
  for (size_t b = 0; b < buckets.size(); ++b) {
    const auto& result = (*matched)[b];
    for (size_t i = 0; i < buckets[b].keys.size(); ++i, ++k) {
      Pending& p = batch[k];
      if (!result.status.ok()) {
        // PARTITION_NOT_EXISTS: the coordinator decides (a dropped partition's keys are not
        // found; a server may not know a just-created partition yet).
        const bool partition_gone = !p.partition.empty() && result.status.code() == StatusCode::kServer &&
                                    result.status.error_code() == protocol::PARTITION_NOT_EXISTS;
        if (result.status.IsRetriable() || partition_gone) Retry(std::move(p), result.status);
        else p.done(result.status);
        continue;
      }
      p.done(Kind::Take(result, i));
    }
  }
  Drain();
}

template <typename Kind>
void LookupSender<Kind>::Retry(Pending p, const Status& st) {
  const bool partition_gone = st.code() == StatusCode::kServer && st.error_code() == protocol::PARTITION_NOT_EXISTS;
  if ((!st.IsRetriable() && !partition_gone) || cluster_->closed()) {
    p.done(st.WithContext(Where(p)));
    return;
  }
  // Connection loss, timeouts and leader errors may mean the leader moved (or, for a partition,
  // that it was dropped and maybe re-created under a new id: resolve it again).
  if (st.code() != StatusCode::kServer || protocol::IsInvalidMetadataError(st.error_code()) || partition_gone) {
    if (p.partition.empty()) {
      cluster_->metadata().InvalidateTable(path_);
    } else {
      cluster_->metadata().InvalidatePartition(table_id_, p.partition);
      p.partition_id.reset();
    }
  }
  p.last_error = st;
  waiting_.push_back(std::move(p));
  DrainLater();
}

template <typename Kind>
void LookupSender<Kind>::DrainLater() {
  if (drain_later_) return;
  drain_later_ = true;
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<LookupSender> s) -> asio::awaitable<void> {
        co_await s->cluster_->Sleep(std::chrono::milliseconds(100));
        s->drain_later_ = false;
        s->Drain();
      }(this->shared_from_this()),
      asio::detached);
}

template <typename Kind>
void LookupSender<Kind>::StartRefresh(std::set<std::string> partitions) {
  refreshing_ = true;
  asio::co_spawn(
      cluster_->io(),
      [](std::shared_ptr<LookupSender> s, std::set<std::string> partitions) -> asio::awaitable<void> {
        // Completes the waiting keys `which` selects with `outcome`.
        auto complete = [&s](auto which, auto outcome) {
          std::deque<Pending> keep;
          for (auto& p : s->waiting_) {
            if (which(p)) p.done(outcome(p));
            else keep.push_back(std::move(p));
          }
          s->waiting_ = std::move(keep);
        };
        const std::vector<TablePath> tables{s->path_};
        Status st = co_await s->cluster_->RefreshMetadata(tables);
        const auto id = s->cluster_->metadata().TableId(s->path_);
        if (st.ok() && id && *id != s->table_id_)
          st = Status::Server(protocol::TABLE_NOT_EXIST,
                              "the table was dropped (a new table of that name has id " + std::to_string(*id) + ")");
        if (!st.ok() && !st.IsRetriable()) {
          // E.g. TABLE_NOT_EXIST: waiting for a leader is pointless.
          complete([](const Pending&) { return true; },
                   [&](const Pending& p) { return Result<typename Kind::Outcome>(st.WithContext(s->Where(p))); });
        } else {
          for (const auto& name : partitions) {
            auto leaders = co_await s->cluster_->PartitionLeaders(s->path_, name);
            if (leaders.ok() || leaders.status().IsRetriable()) continue;
            const Status failed = leaders.status();
            const bool missing = failed.code() == StatusCode::kServer && failed.error_code() == protocol::PARTITION_NOT_EXISTS;
            complete([&](const Pending& p) { return p.partition == name; },
                     [&](const Pending&) {
                       return missing ? Result<typename Kind::Outcome>(Kind::NotFound())
                                      : Result<typename Kind::Outcome>(failed);
                     });
          }
          co_await s->cluster_->Sleep(std::chrono::milliseconds(50));
        }
        s->refreshing_ = false;
        s->Drain();
      }(this->shared_from_this(), std::move(partitions)),
      asio::detached);
}

template class LookupSender<PointLookup>;
template class LookupSender<PrefixLookup>;

}  // namespace fluss::lookup
