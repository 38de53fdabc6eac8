// The append writer of log tables: accumulates rows into per-bucket Arrow batches (user
// threads) and sends closed batches to bucket leaders (I/O thread).
//
// Thread affinity: Append*, WriteArrowBatch, FlushAsync, BufferFull and WaitForBufferSpace run
// on any thread and take `mu_`. Drain, Send and the response handling run on the I/O thread
// only; `queues_`, `buckets_`, `writer_id_` and `refreshing_` belong to it.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>

#include <arrow/ipc/options.h>

#include "fluss/client.h"
#include "fluss/client/connection_impl.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/record/indexed_log.h"
#include "fluss/row/key_encoder.h"
#include "fluss/write/row_batch_builder.h"
#include "fluss/write/write_result_state.h"

namespace fluss::write {

class AppendWriterImpl : public AppendWriter,
                         public client::Flushable,
                         public std::enable_shared_from_this<AppendWriterImpl> {
 public:
  static Result<std::shared_ptr<AppendWriterImpl>> Create(std::shared_ptr<client::ConnectionImpl> conn,
                                                          TableInfo table);

  Result<WriteResult> Append(const Value* values, size_t count) override;
  Result<WriteResult> AppendNoWait(const Value* values, size_t count) override;
  Result<WriteResult> WriteArrowBatch(const std::shared_ptr<arrow::RecordBatch>& batch) override;
  void FlushAsync(StatusCallback done) override;
  void Abort(const Status& status) override;
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  bool BufferFull() override;
  Status WaitForBufferSpace() override;

 private:
  struct Batch {
    uint64_t id = 0;
    int32_t bucket = 0;
    std::shared_ptr<arrow::RecordBatch> data;
    std::shared_ptr<arrow::Buffer> encoded;
    std::shared_ptr<WriteResult::State> result;
    int64_t bytes = 0;  // accounted buffer memory
    int64_t rows = 0;
    int32_t attempts = 0;
    bool sent = false;  // sent at least once: on failure, the server may have stored it
    client::Clock::time_point created;  // first row appended: the delivery timeout counts from here
    int64_t writer_id = -1;  // idempotence: the writer id and sequence the bytes carry
    int32_t seq = -1;
  };
  /// Per-bucket send state (I/O thread).
  struct BucketState {
    int32_t next_seq = 0;     // sequence of the next new batch (idempotence)
    int32_t last_acked = -1;  // highest acknowledged sequence of the current writer id
    int in_flight = 0;
    bool retrying = false;    // a batch is being retried: one in flight until it succeeds
  };
  struct OpenBatch {
    std::unique_ptr<RowBatchBuilder> builder;                 // ARROW tables
    std::unique_ptr<record::IndexedBatchBuilder> indexed;     // INDEXED tables
    uint64_t id = 0;
    std::shared_ptr<WriteResult::State> result;
    int64_t bytes = 0;
    int64_t rows = 0;
    client::Clock::time_point created;
  };
  /// Failed writes not yet reported by a flush.
  struct FailureTally {
    int64_t rows = 0;
    int64_t batches = 0;
    Status first;
    void Add(int64_t r, const Status& st) {
      rows += r;
      ++batches;
      if (first.ok()) first = st;
    }
    /// OK, or the error a flush reports: how many rows failed and the first reason.
    Status ToStatus() const;
  };
  struct FlushWaiter {
    uint64_t target = 0;  // every batch with id <= target must complete
    FailureTally failures;  // failures since the previous flush, reported by this one
    StatusCallback done;
  };

  AppendWriterImpl(std::shared_ptr<client::ConnectionImpl> conn, TableInfo table,
                   arrow::ipc::IpcWriteOptions write_options);

  /// The bucket of a validated row: the Fluss hash of its bucket key, or the sticky bucket.
  Result<int32_t> BucketForLocked(const Value* values);
  /// Appends a validated row to its bucket's open batch (under mu_). Sets `state` to the
  /// batch's result and `closed` when a batch closed; `linger` names a batch just opened.
  Status AppendRowLocked(const Value* values, std::shared_ptr<WriteResult::State>* state, bool* closed,
                         std::pair<int32_t, uint64_t>* linger);
  /// Arrow input that cannot go as one batch (bucket keys, INDEXED format): row by row.
  Result<WriteResult> WriteArrowRows(const std::shared_ptr<arrow::RecordBatch>& batch);
  void CloseOpenLocked(int32_t bucket);
  void NextStickyBucketLocked();
  void PostDrain();
  void ScheduleLinger(int32_t bucket, uint64_t id);
  void Drain();
  void SendToLeader(int32_t leader, std::vector<Batch> batches);
  void HandleResponse(std::vector<Batch> batches, Result<proto::ProduceLogResponse> resp);
  void RetryOrFail(Batch batch, const Status& st, bool* need_backoff);
  /// Puts a batch to retry back into its bucket queue, in sequence order.
  void Requeue(Batch batch);
  /// Gets a writer id (InitWriter) before the first idempotent send.
  void StartInitWriter();
  /// Forgets the writer id and the sequences (after an unrecoverable sequence error).
  void ResetWriterId();
  void Complete(const Batch& batch, const Status& st);
  /// Fails the queued (not in-flight) batches whose delivery timeout passed (I/O thread).
  void ExpireQueued();
  /// Arms a timer for the next delivery-timeout expiry among queued batches (I/O thread).
  void ScheduleExpiryCheck();
  /// The kTimeout a batch gets when its delivery timeout passes; `last` is its last error.
  Status DeliveryTimeout(const Batch& b, const Status& last) const;

  std::shared_ptr<client::ConnectionImpl> conn_;
  const TableInfo table_;
  std::shared_ptr<arrow::Schema> schema_;
  const arrow::ipc::IpcWriteOptions write_options_;
  const ClientOptions& options_;
  bool indexed_ = false;                             // INDEXED log format (else ARROW)
  std::optional<row::CompactedKeyEncoder> key_encoder_;  // tables with bucket keys
  std::string key_scratch_;                          // guarded by mu_

  std::mutex mu_;
  std::condition_variable memory_cv_;
  std::map<int32_t, OpenBatch> open_;
  std::deque<Batch> closed_;
  int32_t sticky_bucket_ = 0;
  std::mt19937 rng_;
  uint64_t next_batch_id_ = 1;
  std::set<uint64_t> incomplete_;
  std::vector<FlushWaiter> flush_waiters_;
  FailureTally unreported_;  // failures no waiting flush covers (guarded by mu_)
  int64_t buffered_bytes_ = 0;
  bool aborted_ = false;
  Status abort_status_;

  std::map<int32_t, std::deque<Batch>> queues_;
  std::map<int32_t, BucketState> buckets_;
  bool idempotent_ = false;
  int64_t writer_id_ = -1;
  bool init_writer_running_ = false;
  bool refreshing_ = false;
  bool expiry_timer_armed_ = false;
  client::Clock::time_point expiry_timer_at_;
  size_t init_writer_server_ = 0;  // rotates InitWriter over the tablet servers
  bool drain_posted_ = false;  // guarded by mu_
};

}  // namespace fluss::write
