// Bucket assignment from bucket-key bytes (protocol-data.md section 7.2; Java: BucketingFunction
// and its Fluss / Paimon / Iceberg implementations, MurmurHashUtils, MathUtils):
//   Fluss default (no lake format, or `lance`): MathUtils.murmurHash(hashBytes(key)) % numBuckets,
//     the key from the CompactedKey encoder (key_encoder.h);
//   Paimon: abs(hashBytes(key) % numBuckets) (Java's truncating %), the key a Paimon BinaryRow
//     (paimon_key_encoder.h);
//   Iceberg: (standard Murmur3 x86_32 seed 0 of the key & 0x7fffffff) % numBuckets, the key from
//     iceberg_key_encoder.h.
// hashBytes is the Fluss variant of Murmur3 (seed 42, tail bytes sign-extended and mixed one by
// one); Iceberg uses the standard one (Guava murmur3_32_fixed).
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

/// Standard Murmur3 x86_32 of `data[0, size)` with `seed` (tail bytes packed little-endian into
/// one block, as Guava's murmur3_32_fixed). Returned as Java's signed int.
int32_t Murmur3Hash32(const uint8_t* data, size_t size, uint32_t seed);

/// Paimon bucketing: abs(FlussHashBytes(key) % num_buckets). Returns -1 when num_buckets <= 0.
int32_t PaimonBucketOf(const uint8_t* key, size_t size, int32_t num_buckets);

/// Iceberg bucketing: (Murmur3Hash32(key, 0) & 0x7fffffff) % num_buckets. Returns -1 when
/// num_buckets <= 0.
int32_t IcebergBucketOf(const uint8_t* key, size_t size, int32_t num_buckets);

/// Which bucket function a table uses (key_encoding.h picks it from `table.datalake.format`).
enum class BucketingFunction : uint8_t { kFluss, kPaimon, kIceberg };

/// The bucket of `key` in `num_buckets` buckets by `function`; -1 for num_buckets <= 0 or (Fluss
/// only) an empty key.
int32_t BucketOf(BucketingFunction function, const uint8_t* key, size_t size, int32_t num_buckets);
inline int32_t BucketOf(BucketingFunction function, std::string_view key, int32_t num_buckets) {
  return BucketOf(function, reinterpret_cast<const uint8_t*>(key.data()), key.size(), num_buckets);
}

}  // namespace fluss::row
