// fluss::LogScanner: reads the buckets of a log table (or the changelog of a primary-key table).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>
#include <arrow/type_fwd.h>
#include "fluss/callbacks.h"

namespace fluss {

/// Records of one log batch handed to the user: the rows at offsets
/// [base_offset, last_offset] of `bucket`, all committed at `commit_timestamp`.
struct ScanBatch {
  int32_t bucket = 0;
  int64_t base_offset = 0;       ///< offset of the first row of `batch`
  int64_t last_offset = 0;       ///< offset of the last row of `batch`
  int64_t commit_timestamp = 0;  ///< epoch ms, the timestamp of every record of the batch
  std::shared_ptr<arrow::RecordBatch> batch;  ///< the scanner's projected schema
  std::vector<int8_t> change_types;           ///< one per row; empty means all +A (append-only)
};

/// Reads a log table's buckets. Positions start where Subscribe says and advance as batches
/// are returned; each record is returned once, in offset order within its bucket.
class LogScanner {
 public:
  virtual ~LogScanner() = default;
  /// Subscribes `bucket` from `start_offset`: an offset, kEarliestOffset (log start) or
  /// kLatestOffset (the high watermark when the next read starts). Re-subscribing moves the
  /// position. Fails with kInvalidArgument for a bucket outside the table or a bad offset.
  virtual Status Subscribe(int32_t bucket, int64_t start_offset) = 0;
  /// Stops reading `bucket`; batches of it not yet returned are dropped.
  virtual Status Unsubscribe(int32_t bucket) = 0;
  /// Returns the next batches of the subscribed buckets: as soon as any are fetched, or an empty
  /// list once `timeout_ms` passes. The server waits for client.scanner.log.fetch.min-bytes up
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
  /// Makes a poll in progress return early, with what it has fetched (possibly nothing), within
  /// about client.scanner.log.fetch.wait-max-time. For callers that abandon a poll.
  virtual void Wakeup() = 0;
  /// Puts batches returned by a poll that the caller could not deliver back in front, so the
  /// next poll returns them first (e.g. the poll was cancelled after its fetch completed).
  virtual void Requeue(std::vector<ScanBatch> batches) = 0;
  /// Reads every subscribed bucket from its position up to the high watermark of its current
  /// leader when the call starts (leaders are refreshed at the coordinator first, so a stale
  /// replica never shortens the read), and returns the records as one table (the scanner's
  /// projected schema; an empty table at once when there is nothing to read). Advances the
  /// positions. Leader changes are retried; fails with a retriable kTimeout when no bucket
  /// progressed for 2 x client.request-timeout. On failure nothing read is lost: the records
  /// go back to the scanner for the next read.
  virtual void ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) = 0;
  /// The bounded read of ToArrowAsync, as the batches it read (bucket and offsets kept), so a
  /// caller that cannot deliver them can Requeue them. On failure, nothing read is lost: the
  /// positions are left where the undelivered records start.
  virtual void ReadBatchesAsync(Callback<std::vector<ScanBatch>> done) = 0;
  /// The schema of what this scanner returns (after projection).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
};

}  // namespace fluss
