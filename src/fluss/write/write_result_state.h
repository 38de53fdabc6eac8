// Shared state behind fluss::WriteResult.
//
// Thread affinity: any thread; guarded by `mu`. Callbacks run on the completing thread (the
// I/O thread) after the lock is released.
#pragma once

#include <condition_variable>
#include <mutex>
#include <vector>

#include "fluss/client.h"

namespace fluss {

struct WriteResult::State {
  std::mutex mu;
  std::condition_variable cv;
  int parts = 1;  // batches still unacknowledged (a large Arrow write spans several)
  bool done = false;
  Status status;  // first failure among the parts
  std::vector<StatusCallback> waiters;

  /// Adds `n` parts (before the parts that exist have all completed).
  void AddParts(int n) {
    std::lock_guard<std::mutex> lock(mu);
    parts += n;
  }
  /// Records the outcome of one part; completes when every part has reported.
  void CompletePart(const Status& st);
};

}  // namespace fluss
