#include "fluss/write/bucket_assigner.h"

#include "fluss/row/bucketing.h"

namespace fluss::write {

StickyBucketAssigner::StickyBucketAssigner(int32_t num_buckets)
    : num_buckets_(std::max(1, num_buckets)), rng_(std::random_device{}()) {
  current_ = static_cast<int32_t>(rng_() % static_cast<uint32_t>(num_buckets_));
}

Result<int32_t> StickyBucketAssigner::Assign(const Value*, std::string*) {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

void StickyBucketAssigner::OnBatchFull(int32_t bucket) {
  std::lock_guard<std::mutex> lock(mu_);
  if (num_buckets_ <= 1 || bucket != current_) return;
  // Move to a different bucket, chosen at random like the Java sticky assigner.
  const int32_t next = static_cast<int32_t>(rng_() % static_cast<uint32_t>(num_buckets_ - 1));
  current_ = next >= current_ ? next + 1 : next;
}

Result<int32_t> KeyBucketAssigner::Assign(const Value* row, std::string* key) {
  FLUSS_RETURN_NOT_OK(encoder_.Encode(row, key));
  return row::FlussBucketOf(*key, num_buckets_);
}

}  // namespace fluss::write
