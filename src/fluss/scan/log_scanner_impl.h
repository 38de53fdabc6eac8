// Log scanner: subscriptions keyed by table bucket (partition id included), a buffer of
// fetched batches, fetches from bucket leaders (in parallel, one request per leader; responses
// taken apart by scan/leader_fetch.h, decoded by scan/projected_decoder.h), polls and bounded
// reads, and partitions dropped on the server leaving the subscription.
//
// Thread affinity: Subscribe/Unsubscribe/Requeue and the start of PollAsync/ToArrowAsync run on
// any thread and take `mu_`; the fetch coroutines run on the I/O thread and take `mu_` only to
// read and advance positions. At most one poll or read runs at a time (`busy_`).
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "fluss/client.h"
#include "fluss/metadata/cluster.h"
#include "fluss/net/coroutines.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/record/log_batch.h"
#include "fluss/scan/fetch_size_hint.h"
#include "fluss/scan/leader_fetch.h"
#include "fluss/scan/projected_decoder.h"

namespace fluss::scan {

using metadata::Clock;
using metadata::TableBucket;

class LogScannerImpl : public LogScanner, public std::enable_shared_from_this<LogScannerImpl> {
 public:
  static Result<std::shared_ptr<LogScannerImpl>> Create(std::shared_ptr<metadata::Cluster> cluster,
                                                        TableInfo table, std::vector<int32_t> projection);

  Status Subscribe(int32_t bucket, int64_t start_offset) override;
  Status SubscribePartition(int64_t partition_id, int32_t bucket, int64_t start_offset) override;
  Status Unsubscribe(int32_t bucket) override;
  Status UnsubscribePartition(int64_t partition_id, int32_t bucket) override;
  std::vector<int64_t> TakeDroppedPartitions() override;
  void PollAsync(int64_t timeout_ms, Callback<std::vector<ScanBatch>> done) override {
    PollAsync(timeout_ms, 0, std::move(done));
  }
  void PollAsync(int64_t timeout_ms, int64_t max_records, Callback<std::vector<ScanBatch>> done) override;
  void Requeue(std::vector<ScanBatch> batches) override;
  std::optional<std::vector<ScanBatch>> TryPoll(int64_t max_records) override;
  void Wakeup() override { wakeup_ = true; }
  void ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) override;
  void ReadBatchesAsync(Callback<std::vector<ScanBatch>> done) override;
  void ReadPartAsync(bool start, int64_t max_bytes, Callback<std::vector<ScanBatch>> done) override;
  const std::shared_ptr<arrow::Schema>& schema() const override { return decoder_->schema(); }

 private:
  struct Subscription {
    int64_t position = 0;  // next offset to read, or kEarliestOffset / kLatestOffset
    uint64_t epoch = 0;    // changes on every (re)subscribe; stale fetch results are dropped
    FetchSizeHint fetch_size;  // the byte limit its fetches ask for
  };
  struct Buffered {
    ScanBatch batch;
    uint64_t epoch = 0;
  };
  /// A fetch started by a poll and not joined yet (I/O thread). It outlives the poll that
  /// started it when the poll's timeout passes first; what it fetches lands in `buffer_`.
  struct FetchInFlight {
    explicit FetchInFlight(asio::io_context& io) : signal(io) {}
    asio::steady_timer signal;  // cancelled when the fetch ends
    bool done = false;
    Status error;
  };

  using Positions = std::map<TableBucket, Subscription>;

  LogScannerImpl(std::shared_ptr<metadata::Cluster> cluster, TableInfo table);
  /// Checks `bucket` and `start_offset` and (re)subscribes `bucket`. Takes `mu_`.
  Status AddSubscription(TableBucket bucket, int64_t start_offset);
  /// The table bucket a batch was read from.
  TableBucket KeyOf(const ScanBatch& b) const { return TableBucket{table_.table_id, b.partition_id, b.bucket}; }
  /// Removes the subscriptions (and buffered batches) of partitions `ids`, which the
  /// coordinator no longer knows, and records them for TakeDroppedPartitions. Takes `mu_`.
  void DropPartitions(const std::set<int64_t>& ids);
  /// Refreshes the leaders of the partitions of `positions` that have none cached or that a
  /// fetch found stale, dropping (and erasing from `positions`) those the coordinator no longer
  /// knows. I/O thread.
  asio::awaitable<Status> RefreshPartitionLeaders(Positions* positions);
  /// Runs `start` now if no poll or read is running, else after the running ones end.
  void RunExclusive(std::function<void()> start);
  /// Ends the running operation and starts the next waiting one.
  void End();
  asio::awaitable<Result<std::vector<ScanBatch>>> Poll(int64_t timeout_ms);
  /// Keeps the first `max_records` records of `batches` (slicing one batch if needed) and puts
  /// the rest back in front of the buffer.
  void Cap(std::vector<ScanBatch>* batches, int64_t max_records);
  /// Keeps the first `max_records` records of `batches` (slicing one batch if needed) and
  /// returns the rest, in order. Any thread; touches no member.
  static std::vector<ScanBatch> SplitAt(std::vector<ScanBatch>* batches, int64_t max_records);
  /// Requeue with mu_ held.
  void RequeueLocked(std::vector<ScanBatch> batches);
  /// Starts a background fetch (ListOffsets for EARLIEST/LATEST subscriptions, then one fetch
  /// round, decoded into `buffer_`) as `inflight_` (I/O thread).
  void StartFetch(int32_t wait_ms);
  asio::awaitable<void> RunFetch(std::shared_ptr<FetchInFlight> f, int32_t wait_ms);
  /// Waits until `inflight_` ends or `until` passes; true when it ended (I/O thread).
  asio::awaitable<bool> WaitFetch(Clock::time_point until);
  /// The first offset fetched per bucket in `raw`.
  static std::map<TableBucket, int64_t> FirstOffsets(const std::vector<RawBatch>& raw);
  /// Moves the positions of the buckets in `offsets` back there when they are still under the
  /// subscription `fetched` names, so batches fetched but not delivered are fetched again.
  /// Takes `mu_`.
  void Rewind(const std::map<TableBucket, int64_t>& offsets, const Positions& fetched);
  /// The bounded read (I/O thread, one operation at a time): `max_bytes` 0 reads to the end
  /// at once; > 0 returns after about that many bytes, the stop offsets kept in `part_end_`
  /// for the next part (`start` fixes new ones).
  asio::awaitable<Result<std::vector<ScanBatch>>> ReadToEnd(bool start, int64_t max_bytes);
  /// Joins a fetch round a read in parts started but does not return, and puts its decoded
  /// batches in the buffer for the next part or poll (I/O thread).
  asio::awaitable<void> KeepRound(net::Deferred<std::vector<RawBatch>> round, Positions fetched);
  /// Runs ReadToEnd as the scanner's one operation, then `done`.
  void RunRead(bool start, int64_t max_bytes, Callback<std::vector<ScanBatch>> done);
  /// Resolves kEarliestOffset / kLatestOffset subscriptions with ListOffsets (per partition
  /// bucket), dropping partitions the coordinator no longer knows.
  asio::awaitable<Status> ResolvePositions();
  /// One fetch from every leader of the buckets in `positions`; `stop` (if set) bounds what is
  /// returned per bucket; `wait_ms` > 0 lets the server wait for data. Returns the batches and
  /// advances the subscriptions whose epoch is unchanged.
  asio::awaitable<Result<std::vector<RawBatch>>> FetchRound(Positions positions,
                                                            std::optional<std::map<TableBucket, int64_t>> stop,
                                                            int32_t wait_ms);
  /// `max_bytes`: the byte limit of buckets that need more than the configured one (their
  /// Subscription::fetch_size).
  asio::awaitable<Result<LeaderFetch>> FetchFromLeader(int32_t leader, std::map<TableBucket, int64_t> positions,
                                                       std::map<TableBucket, int64_t> max_bytes,
                                                       std::optional<std::map<TableBucket, int64_t>> stop,
                                                       int32_t wait_ms);
  std::vector<ScanBatch> TakeBufferedLocked();

  std::shared_ptr<metadata::Cluster> cluster_;
  const TableInfo table_;
  std::unique_ptr<ProjectedDecoder> decoder_;  // fetched batches -> the projected ScanBatches

  std::mutex mu_;
  std::map<TableBucket, Subscription> subs_;
  std::set<int64_t> stale_partitions_;        // partitions whose leaders a fetch found stale
  std::vector<int64_t> dropped_partitions_;   // for TakeDroppedPartitions
  std::deque<Buffered> buffer_;
  uint64_t next_epoch_ = 1;
  bool busy_ = false;
  std::deque<std::function<void()>> waiting_;  // operations queued behind the running one
  std::atomic<bool> wakeup_{false};
  std::shared_ptr<FetchInFlight> inflight_;  // I/O thread
  std::optional<Clock::time_point> failing_since_;  // I/O thread: polls failing retriably since
  // I/O thread: the stop offsets of a read in parts (ReadPartAsync) not finished yet.
  std::optional<std::map<TableBucket, int64_t>> part_end_;
};

}  // namespace fluss::scan
