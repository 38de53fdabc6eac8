#include "fluss/scan/log_scanner_impl.h"

#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/util/byte_size.h>

#include <algorithm>
#include <set>
#include <utility>

#include "fluss/protocol/fetch_log.h"
#include "fluss/scan/list_offsets.h"
#include "fluss/util/log.h"

namespace fluss::scan {

using metadata::Clock;
using protocol::ApiKey;

namespace {
/// Keeps the first `keep` rows (0 < keep < rows) in `b` and returns the others as a batch of
/// their own, offsets and change types following.
ScanBatch SplitOff(ScanBatch* b, int64_t keep) {
  ScanBatch tail;
  tail.bucket = b->bucket;
  tail.partition_id = b->partition_id;
  tail.base_offset = b->base_offset + keep;
  tail.last_offset = b->last_offset;
  tail.commit_timestamp = b->commit_timestamp;
  tail.batch = b->batch->Slice(keep);
  if (!b->change_types.empty()) {
    tail.change_types.assign(b->change_types.begin() + keep, b->change_types.end());
    b->change_types.resize(static_cast<size_t>(keep));
  }
  b->batch = b->batch->Slice(0, keep);
  b->last_offset = b->base_offset + keep - 1;
  return tail;
}
}  // namespace

Result<std::shared_ptr<LogScannerImpl>> LogScannerImpl::Create(std::shared_ptr<metadata::Cluster> cluster,
                                                               TableInfo table, std::vector<int32_t> projection) {
  std::string format = table.LogFormat();
  for (auto& c : format) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (format != "ARROW" && format != "INDEXED")
    return Status::Unsupported("table " + table.table_path.ToString() + " uses log format " + format +
                               "; this scanner reads ARROW and INDEXED");
  const bool arrow_format = format == "ARROW";
  FLUSS_ASSIGN_OR_RETURN(auto decoder, ProjectedDecoder::Create(cluster, table, arrow_format, std::move(projection)));
  std::shared_ptr<LogScannerImpl> s(new LogScannerImpl(std::move(cluster), std::move(table)));
  s->decoder_ = std::move(decoder);
  return s;
}

LogScannerImpl::LogScannerImpl(std::shared_ptr<metadata::Cluster> cluster, TableInfo table)
    : cluster_(std::move(cluster)), table_(std::move(table)) {}

namespace {
// The refusals of the bucket calls that do not fit the kind of table.
Status NeedsPartition(const TableInfo& t, const char* call) {
  return Status::InvalidArgument(std::string(call) + ": table " + t.table_path.ToString() +
                                 " is partitioned: name the partition of the bucket (SubscribePartition / "
                                 "UnsubscribePartition; in Python subscribe_partition / unsubscribe_partition)");
}
Status NotPartitioned(const TableInfo& t, const char* call) {
  return Status::InvalidArgument(std::string(call) + ": table " + t.table_path.ToString() +
                                 " is not partitioned: use Subscribe / Unsubscribe (in Python subscribe / unsubscribe)");
}
}  // namespace

Status LogScannerImpl::AddSubscription(TableBucket bucket, int64_t start_offset) {
  if (bucket.partition_id && *bucket.partition_id < 0)
    return Status::InvalidArgument("partition_id " + std::to_string(*bucket.partition_id) +
                                   " is invalid (partition ids are >= 0; see list_partition_infos)");
  if (bucket.bucket < 0 || bucket.bucket >= table_.num_buckets)
    return Status::InvalidArgument("bucket " + std::to_string(bucket.bucket) + " is outside table " +
                                   table_.table_path.ToString() + " (" + std::to_string(table_.num_buckets) + " buckets)");
  if (start_offset < kEarliestOffset)
    return Status::InvalidArgument("start_offset " + std::to_string(start_offset) +
                                   " is invalid (use an offset >= 0, EARLIEST_OFFSET or LATEST_OFFSET)");
  std::lock_guard<std::mutex> lock(mu_);
  subs_[bucket] = Subscription{start_offset, next_epoch_++};
  return Status::OK();
}

Status LogScannerImpl::Subscribe(int32_t bucket, int64_t start_offset) {
  if (table_.IsPartitioned()) return NeedsPartition(table_, "subscribe");
  return AddSubscription(TableBucket{table_.table_id, std::nullopt, bucket}, start_offset);
}

Status LogScannerImpl::SubscribePartition(int64_t partition_id, int32_t bucket, int64_t start_offset) {
  if (!table_.IsPartitioned()) return NotPartitioned(table_, "subscribe_partition");
  return AddSubscription(TableBucket{table_.table_id, partition_id, bucket}, start_offset);
}

Status LogScannerImpl::Unsubscribe(int32_t bucket) {
  if (table_.IsPartitioned()) return NeedsPartition(table_, "unsubscribe");
  std::lock_guard<std::mutex> lock(mu_);
  subs_.erase(TableBucket{table_.table_id, std::nullopt, bucket});
  return Status::OK();
}

Status LogScannerImpl::UnsubscribePartition(int64_t partition_id, int32_t bucket) {
  if (!table_.IsPartitioned()) return NotPartitioned(table_, "unsubscribe_partition");
  std::lock_guard<std::mutex> lock(mu_);
  subs_.erase(TableBucket{table_.table_id, partition_id, bucket});
  return Status::OK();
}

std::vector<int64_t> LogScannerImpl::TakeDroppedPartitions() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::exchange(dropped_partitions_, {});
}

void LogScannerImpl::DropPartitions(const std::set<int64_t>& ids) {
  if (ids.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  for (int64_t id : ids) {
    const auto n = std::erase_if(subs_, [id](const auto& kv) { return kv.first.partition_id == id; });
    // (Buffered batches of it go with the subscription: TakeBufferedLocked skips them.)
    if (n > 0) dropped_partitions_.push_back(id);
  }
}

void LogScannerImpl::Requeue(std::vector<ScanBatch> batches) {
  std::lock_guard<std::mutex> lock(mu_);
  RequeueLocked(std::move(batches));
}

void LogScannerImpl::RequeueLocked(std::vector<ScanBatch> batches) {
  // Requeued batches go in front, in their original order.
  for (auto it = batches.rbegin(); it != batches.rend(); ++it) {
    auto sub = subs_.find(KeyOf(*it));
    if (sub == subs_.end()) continue;
    buffer_.push_front(Buffered{std::move(*it), sub->second.epoch});
  }
}

void LogScannerImpl::RunExclusive(std::function<void()> start) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (busy_) {
      waiting_.push_back(std::move(start));
      return;
    }
    busy_ = true;
  }
  start();
}

void LogScannerImpl::End() {
  std::function<void()> next;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (waiting_.empty()) {
      busy_ = false;
      return;
    }
    next = std::move(waiting_.front());
    waiting_.pop_front();
  }
  asio::post(cluster_->io(), std::move(next));
}

std::vector<ScanBatch> LogScannerImpl::TakeBufferedLocked() {
  std::vector<ScanBatch> out;
  for (auto& b : buffer_) {
    auto sub = subs_.find(KeyOf(b.batch));
    if (sub != subs_.end() && sub->second.epoch == b.epoch) out.push_back(std::move(b.batch));
  }
  buffer_.clear();
  return out;
}

void LogScannerImpl::PollAsync(int64_t timeout_ms, int64_t max_records, Callback<std::vector<ScanBatch>> done) {
  if (timeout_ms < 0) return done(Status::InvalidArgument("poll: timeout_ms must be >= 0, got " + std::to_string(timeout_ms)));
  auto self = shared_from_this();
  RunExclusive([self, timeout_ms, max_records, done = std::move(done)]() mutable {
    self->wakeup_ = false;
    self->cluster_->Spawn<std::vector<ScanBatch>>(
        [](std::shared_ptr<LogScannerImpl> s, int64_t t, int64_t max) -> asio::awaitable<Result<std::vector<ScanBatch>>> {
          auto r = co_await s->Poll(t);
          if (r.ok() && max > 0) s->Cap(&*r, max);
          co_return r;
        }(self, timeout_ms, max_records),
        [self, done = std::move(done)](Result<std::vector<ScanBatch>> r) {
          done(std::move(r));  // before End: `done` may Requeue ahead of the next poll
          self->End();
        });
  });
}

std::optional<std::vector<ScanBatch>> LogScannerImpl::TryPoll(int64_t max_records) {
  std::vector<ScanBatch> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // A running poll or read owns the buffer (it may be about to requeue in front).
    if (busy_ || buffer_.empty()) return std::nullopt;
    out = TakeBufferedLocked();
    // The rest goes back under the same lock: a fetch landing meanwhile appends behind it.
    if (max_records > 0) RequeueLocked(SplitAt(&out, max_records));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

void LogScannerImpl::Cap(std::vector<ScanBatch>* batches, int64_t max_records) {
  Requeue(SplitAt(batches, max_records));
}

std::vector<ScanBatch> LogScannerImpl::SplitAt(std::vector<ScanBatch>* batches, int64_t max_records) {
  int64_t rows = 0;
  size_t i = 0;
  for (; i < batches->size(); ++i) {
    const int64_t n = (*batches)[i].batch->num_rows();
    if (rows + n > max_records) break;
    rows += n;
  }
  std::vector<ScanBatch> rest;
  if (i == batches->size()) return rest;
  ScanBatch& cut = (*batches)[i];
  const int64_t keep = max_records - rows;
  if (keep > 0) {
    // Split the batch: its first `keep` rows go now, the others wait.
    rest.push_back(SplitOff(&cut, keep));
    ++i;
  }
  for (size_t j = i; j < batches->size(); ++j) rest.push_back(std::move((*batches)[j]));
  batches->resize(i);
  return rest;
}

void LogScannerImpl::ReadBatchesAsync(Callback<std::vector<ScanBatch>> done) { RunRead(true, 0, std::move(done)); }

void LogScannerImpl::ReadPartAsync(bool start, int64_t max_bytes, Callback<std::vector<ScanBatch>> done) {
  if (max_bytes <= 0) return done(Status::InvalidArgument("ReadPartAsync: max_bytes must be > 0"));
  RunRead(start, max_bytes, std::move(done));
}

void LogScannerImpl::RunRead(bool start, int64_t max_bytes, Callback<std::vector<ScanBatch>> done) {
  auto self = shared_from_this();
  RunExclusive([self, start, max_bytes, done = std::move(done)]() mutable {
    self->cluster_->Spawn<std::vector<ScanBatch>>(
        [](std::shared_ptr<LogScannerImpl> s, bool start, int64_t max_bytes) -> asio::awaitable<Result<std::vector<ScanBatch>>> {
          co_return co_await s->ReadToEnd(start, max_bytes);
        }(self, start, max_bytes),
        [self, done = std::move(done)](Result<std::vector<ScanBatch>> r) {
          done(std::move(r));  // before End: `done` may Requeue ahead of the next read
          self->End();
        });
  });
}

void LogScannerImpl::ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) {
  auto schema = decoder_->schema();
  ReadBatchesAsync([schema, done = std::move(done)](Result<std::vector<ScanBatch>> r) {
    if (!r.ok()) return done(r.status());
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    batches.reserve(r->size());
    for (auto& b : *r) batches.push_back(std::move(b.batch));
    auto table = arrow::Table::FromRecordBatches(schema, batches);
    if (!table.ok()) return done(Status::Internal("assembling the result table: " + table.status().ToString()));
    done(*table);
  });
}

asio::awaitable<Status> LogScannerImpl::ResolvePositions() {
  for (int64_t kind : {kEarliestOffset, kLatestOffset}) {
    std::vector<TableBucket> buckets;
    std::map<TableBucket, uint64_t> epochs;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [b, sub] : subs_)
        if (sub.position == kind) {
          buckets.push_back(b);
          epochs[b] = sub.epoch;
        }
    }
    if (buckets.empty()) continue;
    const int32_t type = kind == kEarliestOffset ? 0 : 1;
    auto offsets = co_await ListBucketOffsets(cluster_, table_, buckets, type, std::nullopt);
    if (!offsets.ok()) co_return offsets.status();
    DropPartitions(offsets->missing_partitions);
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [b, off] : offsets->offsets) {
      auto sub = subs_.find(b);
      if (sub != subs_.end() && sub->second.epoch == epochs[b]) sub->second.position = off;
    }
  }
  co_return Status::OK();
}

asio::awaitable<Result<std::vector<ScanBatch>>> LogScannerImpl::Poll(int64_t timeout_ms) {
  // The poll returns by its own deadline whatever a fetch is doing (a frozen leader answers
  // only after client.request-timeout): a fetch still running then stays in flight, and what
  // it brings is returned by the next poll or read.
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto buffered = TakeBufferedLocked();
      if (!buffered.empty()) co_return buffered;
    }
    const auto now = Clock::now();
    const int64_t remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    if (!inflight_) {
      bool any;
      {
        std::lock_guard<std::mutex> lock(mu_);
        any = !subs_.empty();
      }
      if (!any) {
        // Nothing subscribed: wait out the timeout (a subscribe may come meanwhile).
        if (remaining <= 0 || wakeup_ || cluster_->closed()) co_return std::vector<ScanBatch>{};
        co_await cluster_->Sleep(std::chrono::milliseconds(std::min<int64_t>(remaining, 100)));
        continue;
      }
      StartFetch(static_cast<int32_t>(std::clamp<int64_t>(remaining, 0, cluster_->options().fetch_wait_max_time_ms)));
    }
    // Wait in slices so a Wakeup is seen promptly.
    const bool ended = co_await WaitFetch(std::min(deadline, Clock::now() + std::chrono::milliseconds(100)));
    if (ended) {
      Status error = inflight_->error;
      inflight_.reset();
      if (error.ok()) {
        failing_since_.reset();
      } else if (!error.IsRetriable()) {
        co_return error;
      } else {
        // Retriable (a leader moving, a server starting): polls keep trying, as the Java
        // scanner does, and report it only when it lasts two request timeouts.
        const auto now2 = Clock::now();
        util::MetricCounters::Add(cluster_->metrics().fetch_retries, 1);
        if (!failing_since_) {
          failing_since_ = now2;
          FLUSS_LOG(kInfo, "table " + table_.table_path.ToString() + ": fetching again after: " + error.message());
        }
        if (now2 - *failing_since_ > std::chrono::milliseconds(cluster_->options().request_timeout_ms) * 2) {
          failing_since_.reset();
          co_return error;
        }
        const int64_t left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now2).count();
        if (left > 0) co_await cluster_->Sleep(std::chrono::milliseconds(std::min<int64_t>(left, 100)));
      }
      std::lock_guard<std::mutex> lock(mu_);
      auto buffered = TakeBufferedLocked();
      if (!buffered.empty()) co_return buffered;
    }
    if (Clock::now() >= deadline || wakeup_ || cluster_->closed()) co_return std::vector<ScanBatch>{};
  }
}

void LogScannerImpl::StartFetch(int32_t wait_ms) {
  inflight_ = std::make_shared<FetchInFlight>(cluster_->io());
  asio::co_spawn(cluster_->io(), RunFetch(inflight_, wait_ms), asio::detached);
}

asio::awaitable<void> LogScannerImpl::RunFetch(std::shared_ptr<FetchInFlight> f, int32_t wait_ms) {
  // (Keeps the scanner alive while the fetch runs.)
  auto self = shared_from_this();
  Status error;
  try {
    error = co_await ResolvePositions();
    Positions positions;
    if (error.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [b, sub] : subs_)
        if (sub.position >= 0) positions[b] = sub;
    }
    if (error.ok() && !positions.empty()) {
      auto raw = co_await FetchRound(positions, std::nullopt, wait_ms);
      if (!raw.ok()) {
        error = raw.status();
      } else {
        const auto first = FirstOffsets(*raw);
        auto batches = co_await decoder_->DecodeFetched(std::move(*raw));
        if (!batches.ok()) {
          Rewind(first, positions);  // a failed decode skips nothing: the next fetch retries it
          error = batches.status();
        } else {
          std::lock_guard<std::mutex> lock(mu_);
          for (auto& b : *batches) {
            const uint64_t epoch = positions[KeyOf(b)].epoch;
            buffer_.push_back(Buffered{std::move(b), epoch});
          }
        }
      }
    }
  } catch (const std::exception& e) {
    error = Status::Internal(std::string("unexpected exception in the client: ") + e.what());
  }
  f->error = std::move(error);
  f->done = true;
  f->signal.cancel();
}

asio::awaitable<bool> LogScannerImpl::WaitFetch(Clock::time_point until) {
  auto f = inflight_;
  if (!f) co_return true;
  if (!f->done && Clock::now() < until) {
    f->signal.expires_at(until);
    asio::error_code ec;
    co_await f->signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return f->done;
}

std::map<TableBucket, int64_t> LogScannerImpl::FirstOffsets(const std::vector<RawBatch>& raw) {
  std::map<TableBucket, int64_t> first;
  for (const auto& r : raw) {
    const int64_t off = r.header.base_offset + r.from;
    auto it = first.find(r.bucket);
    if (it == first.end() || off < it->second) first[r.bucket] = off;
  }
  return first;
}

void LogScannerImpl::Rewind(const std::map<TableBucket, int64_t>& offsets, const Positions& fetched) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [b, off] : offsets) {
    auto sub = subs_.find(b);
    auto f = fetched.find(b);
    if (sub != subs_.end() && f != fetched.end() && sub->second.epoch == f->second.epoch) sub->second.position = off;
  }
}

asio::awaitable<Result<std::vector<ScanBatch>>> LogScannerImpl::ReadToEnd(bool start, int64_t max_bytes) {
  if (!start && !part_end_)
    co_return Status::InvalidArgument("table " + table_.table_path.ToString() +
                                      ": no read in parts is running (start one first)");
  if (start) part_end_.reset();
  // A fetch a timed-out poll left in flight ends first: its batches precede the positions.
  if (inflight_) {
    while (!co_await WaitFetch(Clock::time_point::max())) {
    }
    Status error = inflight_->error;
    inflight_.reset();
    if (!error.ok()) co_return error;
  }
  std::vector<ScanBatch> out;
  Status st = co_await ResolvePositions();
  if (!st.ok()) co_return st;
  Positions subs;
  std::vector<ScanBatch> buffered;
  {
    std::lock_guard<std::mutex> lock(mu_);
    subs = subs_;
    buffered = TakeBufferedLocked();
  }
  if (subs.empty()) {
    part_end_.reset();
    co_return out;
  }
  std::map<TableBucket, int64_t> end;
  if (start) {
    std::vector<TableBucket> buckets;
    for (auto& [b, s] : subs) buckets.push_back(b);
    // The high watermarks now, from the current leaders, are where this read stops.
    auto listed = co_await ListBucketOffsets(cluster_, table_, buckets, 1, std::nullopt);
    if (!listed.ok()) {
      Requeue(std::move(buffered));
      co_return listed.status();
    }
    DropPartitions(listed->missing_partitions);
    end = std::move(listed->offsets);
    if (max_bytes > 0) part_end_ = end;
  } else {
    end = *part_end_;  // the stops the read in parts began with
  }
  // Batches a poll (or the previous part) fetched but did not return come first (they precede
  // the positions); the rest of them stays buffered for the next poll.
  std::vector<ScanBatch> later;
  for (auto& b : buffered) {
    auto stop_it = end.find(KeyOf(b));
    if (stop_it == end.end()) {
      // Its partition was dropped before this read began; or, in a later part, the bucket was
      // subscribed after the read began: not part of the read, kept for the next poll.
      if (!start) later.push_back(std::move(b));
      continue;
    }
    const int64_t stop = stop_it->second;
    if (b.base_offset >= stop) {
      later.push_back(std::move(b));
      continue;
    }
    const int64_t n = b.batch->num_rows();
    const int64_t keep = std::min<int64_t>(n, stop - b.base_offset);
    if (keep < n) later.push_back(SplitOff(&b, keep));
    out.push_back(std::move(b));
  }
  Requeue(std::move(later));
  // On failure, what was read goes back to the buffer: a retried read returns it (no loss).
  auto fail = [&](Status error) {
    Requeue(std::move(out));
    return error;
  };
  int64_t out_bytes = 0;  // Arrow buffer bytes of `out` read by the rounds below
  // Fetches are pipelined: the next round is on the wire while this one is decoded.
  auto active_positions = [&]() {
    Positions active;
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [b, sub] : subs_) {
      auto e = end.find(b);
      if (sub.position >= 0 && e != end.end() && sub.position < e->second) active[b] = sub;
    }
    return active;
  };
  // A leader change costs up to one request timeout for the attempt at the old leader plus
  // the election: reads give up only after two request timeouts without progress.
  const auto no_progress_limit = std::chrono::milliseconds(cluster_->options().request_timeout_ms) * 2;
  auto last_progress = Clock::now();
  Positions active = active_positions();
  std::optional<net::Deferred<std::vector<RawBatch>>> next;
  Positions next_positions = active;
  if (!active.empty()) next = net::StartDeferred<std::vector<RawBatch>>(cluster_->io(), FetchRound(active, end, 0));
  while (next) {
    auto raw = co_await net::Join(std::move(*next));
    next.reset();
    const Positions fetched = std::move(next_positions);
    if (!raw.ok()) co_return fail(raw.status());
    Positions now_active = active_positions();
    bool moved = !raw->empty();
    for (auto& [b, sub] : active) {
      auto it = now_active.find(b);
      if (it == now_active.end() || it->second.position != sub.position) moved = true;
    }
    active = std::move(now_active);
    if (moved) {
      last_progress = Clock::now();
    } else if (Clock::now() - last_progress > no_progress_limit) {
      co_return fail(Status::Timeout("table " + table_.table_path.ToString() +
                                     ": reading made no progress within 2 x client.request-timeout"));
    }
    if (cluster_->closed()) co_return fail(Status::Closed("the connection is closed"));
    const auto first = FirstOffsets(*raw);
    std::vector<RawBatch> round = std::move(*raw);
    // A read in parts that this round fills does not fetch ahead: the part ends with it (the
    // fetched bytes stand in for the decoded ones, which ZSTD makes larger).
    int64_t round_bytes = 0;
    for (const auto& r : round) round_bytes += r.slice ? r.slice->size() : 0;
    const bool part_full = max_bytes > 0 && out_bytes + round_bytes >= max_bytes;
    if (!active.empty() && !part_full) {
      next_positions = active;
      next = net::StartDeferred<std::vector<RawBatch>>(cluster_->io(), FetchRound(active, end, 0));
    }
    auto batches = co_await decoder_->DecodeFetched(std::move(round));
    if (!batches.ok()) {
      // Nothing from the bad batch on counts as read: let the fetch in flight end (it moves
      // the positions), then move them back to this round's start.
      if (next) {
        auto ignored = co_await net::Join(std::move(*next));
        (void)ignored;
      }
      Rewind(first, fetched);
      co_return fail(batches.status());
    }
    for (auto& b : *batches) {
      out_bytes += arrow::util::TotalBufferSize(*b.batch);
      out.push_back(std::move(b));
    }
    if (max_bytes > 0 && out_bytes >= max_bytes) {
      if (next) co_await KeepRound(std::move(*next), std::move(next_positions));
      co_return out;  // part_end_ stays: the next part goes on from here
    }
  }
  // Every bucket reached its stop, or this part is full (a read in parts ends with the first
  // empty part).
  if (out.empty()) part_end_.reset();
  co_return out;
}

asio::awaitable<void> LogScannerImpl::KeepRound(net::Deferred<std::vector<RawBatch>> round, Positions fetched) {
  auto raw = co_await net::Join(std::move(round));
  // A failed round moved no position: the next part or poll fetches it again.
  if (!raw.ok()) co_return;
  const auto first = FirstOffsets(*raw);
  auto batches = co_await decoder_->DecodeFetched(std::move(*raw));
  if (!batches.ok()) {
    Rewind(first, fetched);  // fetched again, and refused again, by the next part or poll
    co_return;
  }
  Requeue(std::move(*batches));
}

asio::awaitable<Status> LogScannerImpl::RefreshPartitionLeaders(Positions* positions) {
  std::set<int64_t> refresh;
  {
    std::lock_guard<std::mutex> lock(mu_);
    refresh.swap(stale_partitions_);
  }
  for (auto& [b, sub] : *positions)
    if (b.partition_id && !cluster_->metadata().Leader(b)) refresh.insert(*b.partition_id);
  std::erase_if(refresh, [&](int64_t id) {
    return std::none_of(positions->begin(), positions->end(), [id](const auto& kv) { return kv.first.partition_id == id; });
  });
  if (refresh.empty()) co_return Status::OK();
  const std::vector<int64_t> ids(refresh.begin(), refresh.end());
  auto gone = co_await cluster_->RefreshPartitions(table_.table_path, ids);
  if (!gone.ok()) {
    if (!gone.status().IsRetriable()) co_return gone.status().WithContext("table " + table_.table_path.ToString());
    // Asked again by the next round (the partitions with a cached leader are fetched meanwhile).
    std::lock_guard<std::mutex> lock(mu_);
    stale_partitions_.insert(refresh.begin(), refresh.end());
    co_return Status::OK();
  }
  // Dropped at the coordinator (a fetch answered UNKNOWN_TABLE_OR_BUCKET for it): the
  // partition leaves the subscription; the other partitions are not held up by it.
  DropPartitions(*gone);
  std::erase_if(*positions, [&](const auto& kv) { return kv.first.partition_id && gone->count(*kv.first.partition_id); });
  co_return Status::OK();
}

asio::awaitable<Result<std::vector<RawBatch>>> LogScannerImpl::FetchRound(
    Positions positions, std::optional<std::map<TableBucket, int64_t>> stop, int32_t wait_ms) {
  const TablePath& path = table_.table_path;
  // Buckets whose leader is unknown (e.g. during a failover), and partitions a fetch found
  // stale, wait for a refresh; the others are fetched meanwhile.
  bool missing = false;
  for (auto& [b, sub] : positions) missing |= !b.partition_id && !cluster_->metadata().Leader(b).has_value();
  if (missing) {
    const std::vector<TablePath> tables{path};
    Status st = co_await cluster_->RefreshMetadata(tables);
    if (!st.ok() && !st.IsRetriable()) co_return st.WithContext("table " + path.ToString());
  }
  if (table_.IsPartitioned()) {
    Status st = co_await RefreshPartitionLeaders(&positions);
    if (!st.ok()) co_return st;
  }
  if (cluster_->closed()) co_return Status::Closed("the connection is closed");
  std::map<int32_t, std::map<TableBucket, int64_t>> by_leader;
  std::map<int32_t, std::map<TableBucket, int64_t>> max_bytes_by_leader;
  bool leaderless = false;
  for (auto& [b, sub] : positions) {
    auto leader = cluster_->metadata().Leader(b);
    if (!leader) {
      leaderless = true;
      continue;
    }
    by_leader[*leader][b] = sub.position;
    if (int64_t bytes = sub.fetch_size.BytesToAsk(cluster_->options().fetch_max_bytes); bytes > 0)
      max_bytes_by_leader[*leader][b] = bytes;
  }
  std::vector<asio::awaitable<Result<LeaderFetch>>> ops;
  for (auto& [leader, buckets] : by_leader)
    ops.push_back(FetchFromLeader(leader, buckets, max_bytes_by_leader[leader], stop, wait_ms));
  auto results = co_await net::WhenAll<LeaderFetch>(cluster_->io(), std::move(ops));
  std::vector<RawBatch> batches;
  bool retry = false;
  Status error;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto& opts = cluster_->options();
    // The subscription of `b` if it is still the one fetched, else nullptr: a bucket
    // re-subscribed or unsubscribed meanwhile keeps its new state (mu_ held).
    auto still_fetched = [&](const TableBucket& b) -> Subscription* {
      auto sub = subs_.find(b);
      return sub != subs_.end() && sub->second.epoch == positions[b].epoch ? &sub->second : nullptr;
    };
    for (auto& r : results) {
      if (!r.ok()) {
        if (error.ok()) error = r.status();
        continue;
      }
      retry |= r->retry;
      stale_partitions_.insert(r->stale_partitions.begin(), r->stale_partitions.end());
      for (auto& [b, next] : r->next_positions) {
        if (Subscription* sub = still_fetched(b)) {
          sub->position = next;
          sub->fetch_size.OnNewPosition();
        }
      }
      for (auto& [b, bytes] : r->next_batch_bytes)
        if (Subscription* sub = still_fetched(b)) sub->fetch_size.OnCutBatch(bytes, opts.fetch_max_bytes);
      for (auto& batch : r->batches)
        if (still_fetched(batch.bucket)) batches.push_back(std::move(batch));
    }
  }
  if (!error.ok() && batches.empty()) co_return error;
  if ((retry || leaderless) && batches.empty()) co_await cluster_->Sleep(std::chrono::milliseconds(100));
  co_return batches;
}

asio::awaitable<Result<LeaderFetch>> LogScannerImpl::FetchFromLeader(
    int32_t leader, std::map<TableBucket, int64_t> positions, std::map<TableBucket, int64_t> max_bytes,
    std::optional<std::map<TableBucket, int64_t>> stop, int32_t wait_ms) {
  const TablePath& path = table_.table_path;
  const auto& opts = cluster_->options();
  protocol::FetchLogTable fetch;
  fetch.table_id = table_.table_id;
  fetch.projected_fields = decoder_->pushed_down_columns();
  for (auto& [b, pos] : positions) {
    auto bigger = max_bytes.find(b);  // at most fetch_max_bytes, an int32 (FetchRound caps it)
    const int32_t limit = bigger == max_bytes.end()
                              ? opts.fetch_max_bytes_for_bucket
                              : std::max(opts.fetch_max_bytes_for_bucket, static_cast<int32_t>(bigger->second));
    fetch.buckets.push_back(protocol::FetchLogBucket{protocol::BucketRef{b.partition_id, b.bucket}, pos, limit});
  }
  const proto::FetchLogRequest req = protocol::MakeFetchLogRequest(fetch, opts.fetch_max_bytes, wait_ms, opts.fetch_min_bytes);
  LeaderFetch out;
  auto conn = cluster_->TabletServer(leader);
  if (!conn) {
    cluster_->metadata().InvalidateTable(path);
    out.retry = true;
    co_return out;
  }
  // The leader may hold the fetch for up to wait_ms before answering (protocol-rpc.md 11.3):
  // that wait is not a lost answer, so the request timeout starts after it.
  const int64_t timeout_ms = opts.request_timeout_ms + std::max<int64_t>(wait_ms, 0);
  auto resp = co_await cluster_->CallForBody(conn, ApiKey::FETCH_LOG, req, timeout_ms);
  if (!resp.ok()) {
    if (!resp.status().IsRetriable())
      co_return resp.status().WithContext("fetching table " + path.ToString() + " from tablet server " +
                                          std::to_string(leader));
    cluster_->metadata().InvalidateTable(path);
    out.retry = true;
    co_return out;
  }
  auto fetched = TakeLeaderFetch(*resp, positions, stop, path.ToString());
  if (!fetched.ok()) co_return fetched.status().WithContext("from tablet server " + std::to_string(leader));
  if (fetched->invalidate_table) cluster_->metadata().InvalidateTable(path);
  int64_t records = 0, bytes = 0;
  for (const auto& b : fetched->batches) {
    records += b.to - b.from;
    bytes += b.slice ? b.slice->size() : 0;
  }
  util::MetricCounters::Add(cluster_->metrics().records_fetched, records);
  util::MetricCounters::Add(cluster_->metrics().bytes_fetched, bytes);
  co_return fetched;
}

}  // namespace fluss::scan
