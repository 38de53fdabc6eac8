// The memory pool Arrow allocates decoded log batches from: huge-page memory (util/huge_pages.h),
// refusing any one allocation over the limit set for the decode running on the calling thread. A compressed
// ARROW body declares each buffer's uncompressed size and Arrow allocates what it declares, so
// without a limit a few bytes from a faulty or hostile server could make the client allocate
// gigabytes (found by tests/fuzz/log_records_fuzz).
//
// Thread affinity: any thread; the limit is per thread (DecodeMemoryLimit), the pool shared.
#pragma once

#include <cstdint>

#include <arrow/memory_pool.h>

namespace fluss::record {

/// The pool; allocations made outside a DecodeMemoryLimit scope are not limited.
arrow::MemoryPool* DecodeMemoryPool();

/// While alive, allocations from DecodeMemoryPool() on this thread larger than `max_bytes`
/// fail with arrow::Status::OutOfMemory. Scopes do not nest.
class DecodeMemoryLimit {
 public:
  explicit DecodeMemoryLimit(int64_t max_bytes);
  ~DecodeMemoryLimit();
  DecodeMemoryLimit(const DecodeMemoryLimit&) = delete;
  DecodeMemoryLimit& operator=(const DecodeMemoryLimit&) = delete;
};

/// The largest buffer a log batch of `batch_bytes` bytes may decode to: 256 times its size (a
/// ratio real data exceeds only in constant columns), and never less than 64 MiB.
int64_t DecodedBufferLimit(int64_t batch_bytes);

}  // namespace fluss::record
