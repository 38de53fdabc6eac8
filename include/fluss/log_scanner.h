// fluss::LogScanner: reads the buckets of a log table, of its partitions when it is partitioned
// (or the changelog of a primary-key table).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>
#include <arrow/type_fwd.h>
#include "fluss/callbacks.h"

namespace fluss {

/// Records of one log batch handed to the user: the rows at offsets
/// [base_offset, last_offset] of `bucket` (of partition `partition_id` of a partitioned
/// table), all committed at `commit_timestamp`.
struct ScanBatch {
  int32_t bucket = 0;
  std::optional<int64_t> partition_id;  ///< the partition of `bucket`; absent for a non-partitioned table
  int64_t base_offset = 0;       ///< offset of the first row of `batch`
  int64_t last_offset = 0;       ///< offset of the last row of `batch`
  int64_t commit_timestamp = 0;  ///< epoch ms, the timestamp of every record of the batch
  std::shared_ptr<arrow::RecordBatch> batch;  ///< the scanner's projected schema
  std::vector<int8_t> change_types;           ///< one per row; empty means all +A (append-only)
};

/// Reads a log table's buckets (of a partitioned table: the buckets of its partitions).
/// Positions start where Subscribe / SubscribePartition say and advance as batches are
/// returned; each record is returned once, in offset order within its bucket.
class LogScanner {
 public:
  virtual ~LogScanner() = default;
  /// Subscribes `bucket` (0 <= bucket < the table's bucket count) of a non-partitioned table
  /// from `start_offset`: an offset >= 0, kEarliestOffset (log start) or kLatestOffset (the
  /// high watermark when the next read starts). Re-subscribing moves the position. Nothing is
  /// sent. Fails with kInvalidArgument for a bucket outside the table, a bad offset, or a
  /// partitioned table (use SubscribePartition).
  virtual Status Subscribe(int32_t bucket, int64_t start_offset) = 0;
  /// Subscribes `bucket` (0 <= bucket < the table's bucket count) of partition `partition_id`
  /// (an id of Admin::ListPartitionInfosAsync, >= 0) of a partitioned table from
  /// `start_offset`, as Subscribe (kEarliestOffset and kLatestOffset resolved per partition
  /// bucket). Nothing is sent: a partition id the server does not know, or a partition dropped
  /// while subscribed, leaves the subscription at the next read, once the coordinator confirms
  /// it is gone (see TakeDroppedPartitions); the other subscriptions go on. Fails with
  /// kInvalidArgument for a negative partition id, a bucket outside the table, a bad offset,
  /// or a non-partitioned table (use Subscribe).
  virtual Status SubscribePartition(int64_t partition_id, int32_t bucket, int64_t start_offset) = 0;
  /// Stops reading `bucket` of a non-partitioned table; batches of it not yet returned are
  /// dropped. Not subscribed is not an error. Fails with kInvalidArgument for a partitioned
  /// table (use UnsubscribePartition).
  virtual Status Unsubscribe(int32_t bucket) = 0;
  /// Stops reading `bucket` of partition `partition_id`; batches of it not yet returned are
  /// dropped. Not subscribed is not an error. Fails with kInvalidArgument for a
  /// non-partitioned table (use Unsubscribe).
  virtual Status UnsubscribePartition(int64_t partition_id, int32_t bucket) = 0;
  /// The partitions (ids) that left the subscription since the last call because the server
  /// dropped them (or never had them): reading one of their buckets found it missing (the
  /// former leader answers UNKNOWN_TABLE_OR_BUCKET (21), briefly NOT_LEADER_OR_FOLLOWER (12),
  /// or no leader is known) and the coordinator, asked for the partition by id, no longer
  /// knows it. Their batches not yet returned were dropped. Thread-safe.
  virtual std::vector<int64_t> TakeDroppedPartitions() = 0;
  /// Returns the next batches of the subscribed buckets: as soon as any are fetched, or an empty
  /// list once `timeout_ms` passes (milliseconds, >= 0, else kInvalidArgument). A dropped
  /// partition leaves the subscription without failing the poll (TakeDroppedPartitions). The server waits for client.scanner.log.fetch.min-bytes up
  /// to client.scanner.log.fetch.wait-max-time per fetch. A poll returns by its own timeout
  /// even when a fetch is still outstanding (e.g. at a frozen leader): that fetch continues and
  /// the next poll or read returns what it brings. Retriable errors (leader changes, servers
  /// starting) are retried inside polls and reported only once they last 2 x
  /// client.request-timeout. Polls and reads of one scanner run one at a time, in call order;
  /// the next starts after `done` returns (so `done` may Requeue).
  virtual void PollAsync(int64_t timeout_ms, Callback<std::vector<ScanBatch>> done) = 0;
  /// PollAsync returning at most `max_records` records (0: no limit); the rest stay buffered
  /// for the next poll, in order.
  virtual void PollAsync(int64_t timeout_ms, int64_t max_records, Callback<std::vector<ScanBatch>> done) = 0;
  /// The batches buffered now (at most `max_records` records, 0: no limit; the rest stay
  /// buffered, in order), taken on the calling thread without waiting or I/O. Nothing (nullopt)
  /// when no batch is buffered or a poll or read is running: then PollAsync. Lets a caller
  /// that polls in a loop skip the hand-off to the I/O thread while fetched data lasts.
  virtual std::optional<std::vector<ScanBatch>> TryPoll(int64_t max_records) = 0;
  /// Makes a poll in progress return early, with what it has fetched (possibly nothing), within
  /// about client.scanner.log.fetch.wait-max-time. For callers that abandon a poll.
  virtual void Wakeup() = 0;
  /// Puts batches returned by a poll that the caller could not deliver back in front, so the
  /// next poll returns them first (e.g. the poll was cancelled after its fetch completed).
  virtual void Requeue(std::vector<ScanBatch> batches) = 0;
  /// Reads every subscribed bucket (of every subscribed partition) from its position up to the
  /// high watermark of its current leader when the call starts (leaders are refreshed at the
  /// coordinator first, so a stale replica never shortens the read), and returns the records as one table (the scanner's
  /// projected schema; an empty table at once when there is nothing to read). Advances the
  /// positions. Leader changes are retried; fails with a retriable kTimeout when no bucket
  /// progressed for 2 x client.request-timeout. On failure nothing read is lost: the records
  /// go back to the scanner for the next read. A partition dropped before or during the read
  /// contributes what was read of it until then (see TakeDroppedPartitions); the others are
  /// read to their end.
  virtual void ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) = 0;
  /// The bounded read of ToArrowAsync, as the batches it read (bucket and offsets kept), so a
  /// caller that cannot deliver them can Requeue them. On failure, nothing read is lost: the
  /// positions are left where the undelivered records start.
  virtual void ReadBatchesAsync(Callback<std::vector<ScanBatch>> done) = 0;
  /// The bounded read of ReadBatchesAsync taken in parts, so that a large read needs memory
  /// for one part only. `start` = true begins a read: where each subscribed bucket stops is
  /// fixed then, as in ReadBatchesAsync; each call returns the next batches, about
  /// `max_bytes` (> 0, bytes of Arrow buffers; at least one fetch round, so at most
  /// `max_bytes` plus one round of client.scanner.log.fetch.max-bytes), and an empty list
  /// once every bucket reached its stop offset. A part fetched past the budget is kept for
  /// the next call (or, if the read is left unfinished, for the next poll). Advances the
  /// positions as it goes; errors as ReadBatchesAsync (what a failing call read goes back to
  /// the scanner). kInvalidArgument for `max_bytes` <= 0, or `start` = false with no read
  /// begun.
  virtual void ReadPartAsync(bool start, int64_t max_bytes, Callback<std::vector<ScanBatch>> done) = 0;
  /// The schema of what this scanner returns (after projection).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
};

}  // namespace fluss
