// Open and closed write batches of one connection, shared by every writer. Each writer fills
// its own open batch per bucket (of one partition, for a partitioned table), so flushes and
// partial-update column sets never mix; a batch closes at client.writer.batch-size bytes, on its linger timer, on flush, or when a
// whole Arrow batch of the same bucket must go after it; closed batches wait for the sender.
//
// Thread affinity: any thread; guarded by `mu_`. Lock order: mu_ before the MemoryLimiter's
// and WriteTracker's locks; no callback runs while mu_ is held.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "fluss/write/memory_limiter.h"
#include "fluss/write/write_batch.h"
#include "fluss/write/write_tracker.h"

namespace fluss::write {

class RecordAccumulator {
 public:
  /// `batch_size`: client.writer.batch-size, the bytes at which an open batch closes.
  RecordAccumulator(MemoryLimiter& memory, int64_t batch_size) : memory_(memory), batch_size_(batch_size) {}

  /// Makes an empty open batch for a bucket (the writer's batch variant).
  using BatchFactory = std::function<std::unique_ptr<WriteBatch>(const PhysicalBucket&)>;

  struct Appended {
    std::shared_ptr<WriteResult::State> result;  ///< the handle of the batch holding the record
    bool batch_full = false;                     ///< the record filled its batch, now closed
    std::optional<uint64_t> opened;              ///< id of a batch this append opened (linger)
  };

  /// Appends `record` to the open batch of (`tracker`, `bucket`), opening one with `make`.
  /// A record that fails (kInvalidArgument from the encoder) leaves everything as it was.
  /// After Abort, fails with the abort status.
  Result<Appended> Append(const std::shared_ptr<WriteTracker>& tracker, const PhysicalBucket& bucket,
                          const WriteRecord& record, const BatchFactory& make);
  /// Queues an already closed batch (a whole Arrow input) of `tracker`, after closing the
  /// tracker's open batch of the same bucket so writes of a bucket keep their order.
  Status AddClosed(const std::shared_ptr<WriteTracker>& tracker, std::unique_ptr<WriteBatch> batch,
                   std::shared_ptr<WriteResult::State> result, int64_t bytes);
  /// Closes every open batch of `tracker` (of every writer when null).
  void CloseAll(const WriteTracker* tracker);
  /// Closes the open batch of (`tracker`, `bucket`) if it is still batch `id` (linger timer).
  /// Returns true when it closed one.
  bool CloseIfOpen(const WriteTracker* tracker, const PhysicalBucket& bucket, uint64_t id);

  /// A closed batch and, when closing it failed, why (the sender fails it then).
  struct Closed {
    std::unique_ptr<WriteBatch> batch;
    Status status;
  };
  /// Takes every closed batch, oldest first.
  std::vector<Closed> TakeClosed();
  /// Closes and takes every batch; later appends fail with `status`.
  std::vector<Closed> Abort(const Status& status);

 private:
  using Key = std::pair<const WriteTracker*, PhysicalBucket>;
  using OpenMap = std::map<Key, std::unique_ptr<WriteBatch>>;
  /// Moves the open batch at `it` to the closed queue (mu_ held).
  void CloseLocked(OpenMap::iterator it);
  /// The open batch of (`tracker`, `bucket`), or open_.end() (mu_ held). Rows mostly go to the bucket of the
  /// previous row (sticky assignment, or one key), so that one is remembered.
  OpenMap::iterator FindOpenLocked(const WriteTracker* tracker, const PhysicalBucket& bucket);

  MemoryLimiter& memory_;
  const int64_t batch_size_;
  std::mutex mu_;
  OpenMap open_;
  OpenMap::iterator last_ = open_.end();  // the batch the previous Append found or opened
  std::deque<Closed> closed_;
  bool aborted_ = false;
  Status abort_status_;
};

}  // namespace fluss::write
