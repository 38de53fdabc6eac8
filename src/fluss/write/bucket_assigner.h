// Which bucket a row goes to (protocol-data.md section 7): the hash of its bucket-key bytes
// for tables with a bucket key, else the Java client's STICKY policy (one bucket until its
// batch is full, then another chosen at random).
//
// Thread affinity: any thread. StickyBucketAssigner reads its current bucket without a lock
// (an atomic, read once per row) and moves it under its own `mu_` (a leaf lock);
// KeyBucketAssigner is immutable.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "fluss/client.h"
#include "fluss/row/key_encoder.h"

namespace fluss::write {

class BucketAssigner {
 public:
  virtual ~BucketAssigner() = default;
  /// The bucket of a validated row (one Value per column). `key` receives the bucket-key bytes
  /// when the assigner encodes them (for reuse as a primary key); fails with kInvalidArgument
  /// naming the column for a bad key value.
  virtual Result<int32_t> Assign(const Value* row, std::string* key) = 0;
  /// The batch of `bucket` just filled up (sticky assignment moves on).
  virtual void OnBatchFull(int32_t bucket) {}
  /// True when Assign depends on the row (a bucket key), so rows of one Arrow batch may go to
  /// several buckets.
  virtual bool per_row() const = 0;
};

/// STICKY: every row to the current bucket; a full batch moves it to another bucket, chosen
/// uniformly at random among the others.
class StickyBucketAssigner final : public BucketAssigner {
 public:
  explicit StickyBucketAssigner(int32_t num_buckets);
  Result<int32_t> Assign(const Value* row, std::string* key) override;
  void OnBatchFull(int32_t bucket) override;
  bool per_row() const override { return false; }

 private:
  const int32_t num_buckets_;
  std::mutex mu_;     // serialises moves (rng_)
  std::mt19937 rng_;  // mu_
  std::atomic<int32_t> current_{0};
};

/// Fluss default bucketing of the CompactedKey bytes of the bucket-key columns.
class KeyBucketAssigner final : public BucketAssigner {
 public:
  KeyBucketAssigner(row::CompactedKeyEncoder encoder, int32_t num_buckets)
      : encoder_(std::move(encoder)), num_buckets_(num_buckets) {}
  Result<int32_t> Assign(const Value* row, std::string* key) override;
  bool per_row() const override { return true; }

 private:
  const row::CompactedKeyEncoder encoder_;
  const int32_t num_buckets_;
};

}  // namespace fluss::write
