#include "fluss/write/bucket_assigner.h"

#include "fluss/row/bucketing.h"

namespace fluss::write {

StickyBucketAssigner::StickyBucketAssigner(int32_t num_buckets)
    : num_buckets_(std::max(1, num_buckets)), rng_(std::random_device{}()) {
  current_.store(static_cast<int32_t>(rng_() % static_cast<uint32_t>(num_buckets_)));
}

Result<int32_t> StickyBucketAssigner::Assign(const Value*, std::string*) {
  return current_.load(std::memory_order_relaxed);
}

void StickyBucketAssigner::OnBatchFull(int32_t bucket) {
  std::lock_guard<std::mutex> lock(mu_);
  const int32_t current = current_.load(std::memory_order_relaxed);
  if (num_buckets_ <= 1 || bucket != current) return;
  // Move to a different bucket, chosen at random like the Java sticky assigner.
  const int32_t next = static_cast<int32_t>(rng_() % static_cast<uint32_t>(num_buckets_ - 1));
  current_.store(next >= current ? next + 1 : next, std::memory_order_relaxed);
}

Result<int32_t> KeyBucketAssigner::Assign(const Value* row, std::string* key) {
  FLUSS_RETURN_NOT_OK(encoder_.Encode(row, key));
  return row::FlussBucketOf(*key, num_buckets_);
}

}  // namespace fluss::write
