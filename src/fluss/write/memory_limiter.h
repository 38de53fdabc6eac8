// The writer buffer budget of one connection (client.writer.buffer.memory-size), shared by
// every append and upsert writer as in the Java client: bytes of unacknowledged batches.
//
// Thread affinity: any thread. The count is atomic, so Reserve and Full (once per appended
// row) take no lock; `mu_` (a leaf lock) orders waiters and wake-ups.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "fluss/status.h"

namespace fluss::write {

class MemoryLimiter {
 public:
  /// `limit_bytes`: client.writer.buffer.memory-size; `wait_timeout_ms`:
  /// client.writer.buffer.wait-timeout.
  MemoryLimiter(int64_t limit_bytes, int64_t wait_timeout_ms) : limit_(limit_bytes), wait_timeout_ms_(wait_timeout_ms) {}

  /// Accounts `bytes` more (never waits: callers check Full or WaitForSpace first).
  void Reserve(int64_t bytes);
  /// Gives `bytes` back and wakes waiters.
  void Release(int64_t bytes);
  /// Bytes accounted now (any thread).
  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  /// client.writer.buffer.memory-size, bytes.
  int64_t limit() const { return limit_; }
  /// True while the buffered bytes are at or above the limit (false once aborted).
  bool Full() const;
  /// Blocks until the buffer is below its limit or aborted; kTimeout after the wait timeout,
  /// the message naming `what` (e.g. "table db.t").
  Status WaitForSpace(const std::string& what);
  /// Wakes every waiter for good (the connection is closing).
  void Abort();

 private:
  const int64_t limit_;
  const int64_t wait_timeout_ms_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<int64_t> used_{0};
  std::atomic<bool> aborted_{false};
};

}  // namespace fluss::write
