#include "fluss/record/decode_memory.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <string>

#include "fluss/util/huge_pages.h"

namespace fluss::record {
namespace {

constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
thread_local int64_t t_limit = kNoLimit;

/// The decode limit over huge-page memory (util/huge_pages.h): decoded batches are what a scan
/// keeps, so they are what faults fresh pages in. Alignments over 64 bytes, which the IPC reader
/// never asks for, go to Arrow's default pool.
class LimitedPool final : public arrow::MemoryPool {
 public:
  arrow::Status Allocate(int64_t size, int64_t alignment, uint8_t** out) override {
    if (size > t_limit) return TooLarge(size);
    if (size < 0) return arrow::Status::Invalid("negative allocation size ", size);
    if (!Ours(alignment)) return base()->Allocate(size, alignment, out);
    uint8_t* p = util::huge_pages::Allocate(static_cast<size_t>(size));
    if (!p) return arrow::Status::OutOfMemory("cannot map ", size, " bytes for a decoded log batch");
    Count(size);
    *out = p;
    return arrow::Status::OK();
  }
  arrow::Status Reallocate(int64_t old_size, int64_t new_size, int64_t alignment, uint8_t** ptr) override {
    if (new_size > t_limit) return TooLarge(new_size);
    if (!Ours(alignment)) return base()->Reallocate(old_size, new_size, alignment, ptr);
    uint8_t* next = nullptr;
    ARROW_RETURN_NOT_OK(Allocate(new_size, alignment, &next));
    std::memcpy(next, *ptr, static_cast<size_t>(std::min(old_size, new_size)));
    Free(*ptr, old_size, alignment);
    *ptr = next;
    return arrow::Status::OK();
  }
  void Free(uint8_t* buffer, int64_t size, int64_t alignment) override {
    if (!Ours(alignment)) return base()->Free(buffer, size, alignment);
    util::huge_pages::Free(buffer, static_cast<size_t>(size));
    bytes_.fetch_sub(size, std::memory_order_relaxed);
  }
  int64_t bytes_allocated() const override { return bytes_.load(std::memory_order_relaxed); }
  int64_t max_memory() const override { return max_.load(std::memory_order_relaxed); }
  int64_t total_bytes_allocated() const override { return total_.load(std::memory_order_relaxed); }
  int64_t num_allocations() const override { return count_.load(std::memory_order_relaxed); }
  std::string backend_name() const override { return "fluss-huge-pages"; }

 private:
  static bool Ours(int64_t alignment) { return alignment <= static_cast<int64_t>(util::huge_pages::kAlignment); }
  static arrow::MemoryPool* base() { return arrow::default_memory_pool(); }
  void Count(int64_t size) {
    const int64_t now = bytes_.fetch_add(size, std::memory_order_relaxed) + size;
    int64_t max = max_.load(std::memory_order_relaxed);
    while (now > max && !max_.compare_exchange_weak(max, now, std::memory_order_relaxed)) {
    }
    total_.fetch_add(size, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
  }
  static arrow::Status TooLarge(int64_t size) {
    return arrow::Status::OutOfMemory("a log batch declares a decoded buffer of ", size,
                                      " bytes, more than the ", t_limit, " bytes allowed for its size");
  }

  std::atomic<int64_t> bytes_{0}, max_{0}, total_{0}, count_{0};
};

}  // namespace

arrow::MemoryPool* DecodeMemoryPool() {
  static LimitedPool* pool = new LimitedPool();  // leaked: decoded batches may outlive static teardown
  return pool;
}

DecodeMemoryLimit::DecodeMemoryLimit(int64_t max_bytes) { t_limit = max_bytes; }
DecodeMemoryLimit::~DecodeMemoryLimit() { t_limit = kNoLimit; }

int64_t DecodedBufferLimit(int64_t batch_bytes) {
  constexpr int64_t kFloor = 64LL << 20;
  constexpr int64_t kRatio = 256;
  if (batch_bytes > kNoLimit / kRatio) return kNoLimit;
  return std::max(kFloor, batch_bytes * kRatio);
}

}  // namespace fluss::record
