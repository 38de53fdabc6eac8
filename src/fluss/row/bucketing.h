// Bucket assignment of the Fluss default bucketing function (no lake format, or `lance`):
// bucket = MathUtils.murmurHash(MurmurHashUtils.hashBytes(bucket key bytes)) % numBuckets, where
// the bucket key bytes come from the CompactedKey encoder (key_encoder.h).
// protocol-data.md section 7; Java: FlussBucketingFunction, MurmurHashUtils, MathUtils.
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fluss::row {

/// Seed of Fluss MurmurHashUtils.DEFAULT_SEED.
inline constexpr uint32_t kFlussHashSeed = 42;

/// Fluss MurmurHashUtils.hashBytes (seed 42; Java sign extension of tail bytes).
///
/// A Flink variant of Murmur3 x86_32: full 4-byte blocks are read little-endian, but each of the
/// len % 4 tail bytes is sign-extended to 32 bits and mixed on its own (mixK1 then mixH1), unlike
/// standard Murmur3. Returns the hash as Java's signed int.
int32_t FlussHashBytes(const uint8_t* data, size_t size);
inline int32_t FlussHashBytes(std::string_view bytes) {
  return FlussHashBytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

/// MathUtils.murmurHash of an int (non-negative result; INT_MIN -> 0).
int32_t FlussMurmurHashInt(int32_t code);

/// Default Fluss bucketing: FlussMurmurHashInt(FlussHashBytes(key)) % num_buckets. Empty key is
/// an error (return -1); so is num_buckets <= 0.
int32_t FlussBucketOf(const uint8_t* key, size_t size, int32_t num_buckets);
inline int32_t FlussBucketOf(std::string_view key, int32_t num_buckets) {
  return FlussBucketOf(reinterpret_cast<const uint8_t*>(key.data()), key.size(), num_buckets);
}

}  // namespace fluss::row
