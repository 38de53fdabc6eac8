#include "fluss/record/decode_memory.h"

#include <algorithm>
#include <limits>
#include <string>

namespace fluss::record {
namespace {

constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
thread_local int64_t t_limit = kNoLimit;

class LimitedPool final : public arrow::MemoryPool {
 public:
  arrow::Status Allocate(int64_t size, int64_t alignment, uint8_t** out) override {
    if (size > t_limit) return TooLarge(size);
    return base()->Allocate(size, alignment, out);
  }
  arrow::Status Reallocate(int64_t old_size, int64_t new_size, int64_t alignment, uint8_t** ptr) override {
    if (new_size > t_limit) return TooLarge(new_size);
    return base()->Reallocate(old_size, new_size, alignment, ptr);
  }
  void Free(uint8_t* buffer, int64_t size, int64_t alignment) override { base()->Free(buffer, size, alignment); }
  int64_t bytes_allocated() const override { return base()->bytes_allocated(); }
  int64_t total_bytes_allocated() const override { return base()->total_bytes_allocated(); }
  int64_t num_allocations() const override { return base()->num_allocations(); }
  std::string backend_name() const override { return base()->backend_name(); }

 private:
  static arrow::MemoryPool* base() { return arrow::default_memory_pool(); }
  static arrow::Status TooLarge(int64_t size) {
    return arrow::Status::OutOfMemory("a log batch declares a decoded buffer of ", size,
                                      " bytes, more than the ", t_limit, " bytes allowed for its size");
  }
};

}  // namespace

arrow::MemoryPool* DecodeMemoryPool() {
  static LimitedPool pool;
  return &pool;
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
