#include "fluss/row/bucketing.h"

#include <bit>
#include <climits>

#include "fluss/util/bytes.h"

namespace fluss::row {

namespace {

// All arithmetic is on uint32_t (mod 2^32), matching Java int overflow; results are converted to
// int32_t only at the end.
constexpr uint32_t kC1 = 0xcc9e2d51u;
constexpr uint32_t kC2 = 0x1b873593u;
constexpr uint32_t kN = 0xe6546b64u;

inline uint32_t MixK1(uint32_t k) {
  k *= kC1;
  k = std::rotl(k, 15);
  return k * kC2;
}

inline uint32_t MixH1(uint32_t h, uint32_t k) {
  h ^= k;
  h = std::rotl(h, 13);
  return h * 5 + kN;
}

inline uint32_t Fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

inline uint32_t LoadLe32(const uint8_t* p) { return util::GetLe<uint32_t>(p); }

}  // namespace

int32_t FlussHashBytes(const uint8_t* data, size_t size) {
  uint32_t h = kFlussHashSeed;
  const size_t aligned = size - size % 4;
  for (size_t i = 0; i < aligned; i += 4) h = MixH1(h, MixK1(LoadLe32(data + i)));
  for (size_t i = aligned; i < size; ++i) {
    // Java reads a signed byte and widens it to int: 0x80..0xFF become 0xFFFFFF80..0xFFFFFFFF.
    const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(data[i])));
    h = MixH1(h, MixK1(k));
  }
  h ^= static_cast<uint32_t>(size);  // Java: the int length
  return static_cast<int32_t>(Fmix32(h));
}

int32_t FlussMurmurHashInt(int32_t code) {
  uint32_t c = MixK1(static_cast<uint32_t>(code));
  c = std::rotl(c, 13) * 5 + kN;
  c ^= 4;
  const auto h = static_cast<int32_t>(Fmix32(c));
  if (h >= 0) return h;
  if (h != INT32_MIN) return -h;
  return 0;
}

int32_t FlussBucketOf(const uint8_t* key, size_t size, int32_t num_buckets) {
  if (size == 0 || num_buckets <= 0) return -1;
  return FlussMurmurHashInt(FlussHashBytes(key, size)) % num_buckets;
}

int32_t Murmur3Hash32(const uint8_t* data, size_t size, uint32_t seed) {
  uint32_t h = seed;
  const size_t aligned = size - size % 4;
  for (size_t i = 0; i < aligned; i += 4) h = MixH1(h, MixK1(LoadLe32(data + i)));
  uint32_t k = 0;
  for (size_t i = size - 1; i + 1 > aligned; --i) k = (k << 8) | data[i];  // unsigned tail, LE
  if (size % 4 != 0) h ^= MixK1(k);
  h ^= static_cast<uint32_t>(size);
  return static_cast<int32_t>(Fmix32(h));
}

int32_t PaimonBucketOf(const uint8_t* key, size_t size, int32_t num_buckets) {
  if (num_buckets <= 0) return -1;
  const int32_t r = FlussHashBytes(key, size) % num_buckets;  // C++ % truncates, as Java's
  return r < 0 ? -r : r;
}

int32_t IcebergBucketOf(const uint8_t* key, size_t size, int32_t num_buckets) {
  if (num_buckets <= 0) return -1;
  return static_cast<int32_t>(static_cast<uint32_t>(Murmur3Hash32(key, size, 0)) & 0x7fffffffu) % num_buckets;
}

int32_t BucketOf(BucketingFunction function, const uint8_t* key, size_t size, int32_t num_buckets) {
  switch (function) {
    case BucketingFunction::kFluss: return FlussBucketOf(key, size, num_buckets);
    case BucketingFunction::kPaimon: return PaimonBucketOf(key, size, num_buckets);
    case BucketingFunction::kIceberg: return IcebergBucketOf(key, size, num_buckets);
  }
  return -1;
}

}  // namespace fluss::row
