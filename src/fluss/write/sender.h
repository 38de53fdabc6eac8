// Sends closed write batches of every table to their bucket leaders, one connection-wide
// queue per table bucket (batches of a partition whose id is not known yet wait, in order, until
// a metadata request resolves it; a partition that does not exist fails them, or is created when
// client.writer.dynamic-create-partition.enabled is set): ProduceLog for log batches, PutKv for KV batches, one request per
// leader and table (and column set), at most one batch per bucket per request. Handles
// acknowledgements, retries after metadata refreshes, idempotence (InitWriter, sequences),
// the delivery timeout (client.writer.delivery-timeout) and completion of every handle.
//
// Thread affinity: PostDrain may be called from any thread. Everything else runs on the I/O
// thread only; `queues_`, `idempotence_`, the refresh and timer flags belong to it.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <set>
#include <vector>

#include "fluss/metadata/cluster.h"
#include "fluss/write/idempotence.h"
#include "fluss/write/memory_limiter.h"
#include "fluss/write/record_accumulator.h"

namespace fluss::write {

class Sender : public std::enable_shared_from_this<Sender> {
 public:
  Sender(std::shared_ptr<metadata::Cluster> cluster, std::shared_ptr<MemoryLimiter> memory,
         std::shared_ptr<RecordAccumulator> accumulator);

  /// Schedules one Drain on the I/O thread (coalesced). Any thread.
  void PostDrain();
  /// Moves closed batches into the bucket queues and sends what may be sent (I/O thread).
  void Drain();
  /// Fails every batch, queued or still in the accumulator, with `status` (I/O thread; closing).
  void Abort(const Status& status);

  /// A per-bucket answer of ProduceLog or PutKv.
  struct BucketAnswer {
    int32_t error_code = 0;
    std::string message;
  };

 private:
  using BatchPtr = std::unique_ptr<WriteBatch>;
  using Queue = std::deque<BatchPtr>;

  /// One request's worth of batches: same leader, table, request kind and column set.
  struct RequestKey {
    int32_t leader;
    int64_t table_id;
    RequestKind kind;
    std::vector<int32_t> target_columns;
    friend bool operator<(const RequestKey& a, const RequestKey& b) {
      return std::tie(a.leader, a.table_id, a.kind, a.target_columns) <
             std::tie(b.leader, b.table_id, b.kind, b.target_columns);
    }
  };

  /// Sends the batches of one request key (encoding and stamping first) (I/O thread).
  void Send(const RequestKey& key, std::vector<BatchPtr> batches);
  /// Sends one request and hands the answer to HandleResponse (I/O thread).
  void SendRequest(const RequestKey& key, std::vector<BatchPtr> group);
  void HandleResponse(std::vector<BatchPtr> batches, Result<std::map<metadata::TableBucket, BucketAnswer>> resp);
  void RetryOrFail(BatchPtr batch, const Status& st, bool* need_backoff);
  /// Puts a batch to retry back into its bucket queue, in sequence order.
  void Requeue(BatchPtr batch);
  /// What one metadata refresh must learn about a table.
  struct RefreshTarget {
    TablePath path;
    bool table = false;                ///< bucket leaders of the (non-partitioned) table
    std::set<std::string> partitions;  ///< partitions to resolve or find the leaders of
  };
  /// Queues a closed batch in its bucket queue, or with the batches waiting for its partition id.
  void Enqueue(BatchPtr batch);
  /// Refreshes the metadata of tables and partitions whose batches have no leader or no
  /// partition id, fails the batches of tables and partitions that no longer exist, then
  /// drains again.
  void StartRefresh(std::map<std::string, RefreshTarget> targets);
  /// The table part of StartRefresh: fails the queued batches of `path` when the coordinator
  /// says the table is gone (or was recreated under a new id). I/O thread.
  asio::awaitable<void> RefreshTable(TablePath path);
  /// The partition part: resolves the waiting batches of partition `name` of `path`, fails its
  /// batches when it is gone (unless creating it is enabled; then creates it). I/O thread.
  asio::awaitable<void> RefreshPartition(TablePath path, std::string name);
  /// Fails the queued (not in-flight) batches of partition `name` of table `table_id` that carry
  /// a partition id other than `keep` (a dropped partition).
  void FailQueuedPartition(int64_t table_id, const std::string& name, std::optional<int64_t> keep, const Status& st);
  /// Moves the queued batches of partition `name` of table `table_id` that carry another
  /// partition id and that no server may have stored (never sent, or refused with an error) to
  /// partition `partition_id` (the partition was re-created).
  void MoveUnwrittenToPartition(int64_t table_id, const std::string& name, int64_t partition_id);
  /// Fails the batches of partition `name` of table `table_id` waiting for its id.
  void FailUnresolved(int64_t table_id, const std::string& name, const Status& st);
  /// Gets a writer id (InitWriter) before the first idempotent send.
  void StartInitWriter();
  /// Fails the queued batches of the non-partitioned table `table_id` (not in flight) with `st`.
  void FailQueued(int64_t table_id, const Status& st);
  void Complete(BatchPtr batch, const Status& st);
  /// Fails the queued (not in-flight) batches whose delivery timeout passed.
  void ExpireQueued();
  /// Arms a timer for the next delivery-timeout expiry among queued batches.
  void ScheduleExpiryCheck();
  /// The kTimeout a batch gets when its delivery timeout passes; `last` is its last error.
  Status DeliveryTimeout(const WriteBatch& b, const Status& last) const;
  /// The UNKNOWN_WRITER_ID_EXCEPTION a batch gets instead of a retry that could store it twice
  /// (IdempotenceManager::InDoubtUnderOldWriterId).
  Status InDoubtAfterWriterReset(const WriteBatch& b) const;
  /// Drains again after a short backoff.
  void DrainLater();
  bool AnyQueued() const;

  std::shared_ptr<metadata::Cluster> cluster_;
  std::shared_ptr<MemoryLimiter> memory_;
  std::shared_ptr<RecordAccumulator> accumulator_;
  const ClientOptions& options_;
  std::atomic<bool> drain_posted_{false};

  std::map<metadata::TableBucket, Queue> queues_;
  /// Batches of partitions not resolved yet, by (table id, partition name), oldest first.
  std::map<std::pair<int64_t, std::string>, Queue> unresolved_;
  IdempotenceManager idempotence_;
  bool init_writer_running_ = false;
  size_t init_writer_server_ = 0;  // rotates InitWriter over the tablet servers
  bool refreshing_ = false;
  bool expiry_timer_armed_ = false;
  metadata::Clock::time_point expiry_timer_at_;
  bool aborted_ = false;
  Status abort_status_;
};

}  // namespace fluss::write
