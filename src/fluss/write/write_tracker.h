// What one writer has in flight and what failed since its last flush: flush waits for every
// batch the writer made before the call and reports every failure exactly once.
//
// Thread affinity: any thread; guarded by `mu_` (a leaf lock: nothing else is locked or called
// while it is held, callbacks run after it is released).
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <vector>

#include "fluss/net/io_thread.h"
#include "fluss/status.h"

namespace fluss::write {

class WriteTracker {
 public:
  /// Registers a new batch and returns its id (increasing; flush order).
  uint64_t Begin();
  /// Records the outcome of batch `id` holding `rows` rows and answers the flushes it ends.
  void Complete(uint64_t id, int64_t rows, const Status& st);
  /// Calls `done` once every batch begun before this call has completed: OK when none failed
  /// since the previous flush (including writes whose handles nobody awaited), otherwise an
  /// error with the first failure's code, saying how many rows and batches failed and why.
  /// Each failure is reported by one flush (every flush waiting when it happens, else the next
  /// one). `done` runs on the calling thread when nothing is pending.
  void Flush(net::StatusCallback done);
  /// True while some batch of this writer is incomplete.
  bool pending() const;

 private:
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
    uint64_t target = 0;    // every batch with id <= target must complete
    FailureTally failures;  // failures since the previous flush, reported by this one
    net::StatusCallback done;
  };

  mutable std::mutex mu_;
  uint64_t next_id_ = 1;
  std::set<uint64_t> incomplete_;
  std::vector<FlushWaiter> waiters_;
  FailureTally unreported_;  // failures no waiting flush covers
};

}  // namespace fluss::write
