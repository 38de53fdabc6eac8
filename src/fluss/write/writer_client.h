// The writer client of one connection (the Java client's WriterClient): one buffer budget,
// one accumulator, one writer id and one sender shared by every append and upsert writer.
// Writers turn rows into records and buckets; this class files them, arms linger timers,
// flushes, and fails everything pending when the connection closes.
//
// Thread affinity: Append, AddClosed, Flush, FlushAll and memory() may be called from any
// thread; Abort runs on the I/O thread. Linger timers run on the I/O thread.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "fluss/metadata/cluster.h"
#include "fluss/write/memory_limiter.h"
#include "fluss/write/record_accumulator.h"
#include "fluss/write/sender.h"
#include "fluss/write/write_tracker.h"

namespace fluss::write {

class WriterClient : public std::enable_shared_from_this<WriterClient> {
 public:
  explicit WriterClient(std::shared_ptr<metadata::Cluster> cluster);

  /// A tracker for a new writer: its batches, flushes and unreported failures.
  std::shared_ptr<WriteTracker> NewTracker();

  /// Files `record` into the open batch of (`tracker`, `bucket`), made by `make` when needed,
  /// and arms the batch's linger timer (client.writer.batch-timeout) when it opened one.
  /// Fails with kClosed after the connection closed, or with the batch's encoding error.
  /// `batch_full` in the result says the batch filled up (bucket assigners move on).
  Result<RecordAccumulator::Appended> Append(const std::shared_ptr<WriteTracker>& tracker,
                                             const PhysicalBucket& bucket, const WriteRecord& record,
                                             const RecordAccumulator::BatchFactory& make);
  /// Queues a closed batch (a whole Arrow input) accounted as `bytes`, and sends it.
  Status AddClosed(const std::shared_ptr<WriteTracker>& tracker, std::unique_ptr<WriteBatch> batch,
                   std::shared_ptr<WriteResult::State> result, int64_t bytes);
  /// Sends the batches that filled up (after Append reported batch_full).
  void Wake() { sender_->PostDrain(); }

  /// Closes the open batches of `tracker` and calls `done` when all its writes made before
  /// are complete (WriteTracker::Flush has the outcome rules).
  void Flush(const std::shared_ptr<WriteTracker>& tracker, net::StatusCallback done);
  /// Flush of every live writer; `done` gets the first error (connection close).
  void FlushAll(net::StatusCallback done);
  /// Fails every pending write with `status` (I/O thread; the connection is closing).
  void Abort(const Status& status);

  MemoryLimiter& memory() { return *memory_; }
  const std::shared_ptr<metadata::Cluster>& cluster() const { return cluster_; }

 private:
  void ScheduleLinger(std::weak_ptr<WriteTracker> tracker, PhysicalBucket bucket, uint64_t id);

  std::shared_ptr<metadata::Cluster> cluster_;
  std::shared_ptr<MemoryLimiter> memory_;
  std::shared_ptr<RecordAccumulator> accumulator_;
  std::shared_ptr<Sender> sender_;
  std::mutex trackers_mu_;
  std::vector<std::weak_ptr<WriteTracker>> trackers_;  // guarded by trackers_mu_
};

}  // namespace fluss::write
