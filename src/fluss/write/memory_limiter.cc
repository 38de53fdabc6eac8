#include "fluss/write/memory_limiter.h"

#include <chrono>
#include <string>

namespace fluss::write {

void MemoryLimiter::Reserve(int64_t bytes) { used_.fetch_add(bytes, std::memory_order_relaxed); }

void MemoryLimiter::Release(int64_t bytes) {
  used_.fetch_sub(bytes, std::memory_order_relaxed);
  // Taking mu_ after the change: a waiter either saw the new count when it checked (under
  // mu_), or is already waiting and gets the notification.
  { std::lock_guard<std::mutex> lock(mu_); }
  cv_.notify_all();
}

bool MemoryLimiter::Full() const {
  return used_.load(std::memory_order_relaxed) >= limit_ && !aborted_.load(std::memory_order_relaxed);
}

Status MemoryLimiter::WaitForSpace(const std::string& what) {
  std::unique_lock<std::mutex> lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_timeout_ms_);
  if (!cv_.wait_until(lock, deadline, [&] { return used_ < limit_ || aborted_; }))
    return Status::Timeout(what + ": the writer buffer (client.writer.buffer.memory-size = " + std::to_string(limit_) +
                           " bytes) stayed full for " + std::to_string(wait_timeout_ms_) +
                           " ms (client.writer.buffer.wait-timeout)");
  return Status::OK();
}

void MemoryLimiter::Abort() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    aborted_ = true;
  }
  cv_.notify_all();
}

}  // namespace fluss::write
