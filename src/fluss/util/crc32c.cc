#include "fluss/util/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace fluss::util {

namespace {

constexpr uint32_t kPoly = 0x82F63B78u;

// Slicing-by-8 tables for the portable path.
struct Tables {
  std::array<std::array<uint32_t, 256>, 8> t{};
  constexpr Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
      for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
  }
};
constexpr Tables kTables;

uint32_t Portable(uint32_t crc, const uint8_t* p, size_t n) {
  const auto& t = kTables.t;
  while (n >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    v ^= crc;
    crc = t[7][v & 0xFF] ^ t[6][(v >> 8) & 0xFF] ^ t[5][(v >> 16) & 0xFF] ^
          t[4][(v >> 24) & 0xFF] ^ t[3][(v >> 32) & 0xFF] ^ t[2][(v >> 40) & 0xFF] ^
          t[1][(v >> 48) & 0xFF] ^ t[0][v >> 56];
    p += 8;
    n -= 8;
  }
  while (n--) crc = (crc >> 8) ^ t[0][(crc ^ *p++) & 0xFF];
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t OneChain(uint32_t crc, const uint8_t* p, size_t n) {
  uint64_t c = crc;
  while (n >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    c = _mm_crc32_u64(c, v);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (n--) c32 = _mm_crc32_u8(c32, *p++);
  return c32;
}

// The crc32 instruction takes 3 cycles but can start every cycle: one chain runs at a third of
// the hardware's speed. Large inputs go in blocks of three kBlock-byte lanes, each its own
// chain, joined with the linearity of the CRC register: crc(c, A|B) = shift_|B|(crc(c, A)) ^
// crc(0, B), where shift_n (the register after n zero bytes) is a linear map of the 32 bits,
// applied through four 256-entry tables.
constexpr size_t kBlock = 4096;

struct Shift {
  std::array<std::array<uint32_t, 256>, 4> t{};
  /// shift_n for n zero bytes, built from the images of the 32 basis bits.
  explicit Shift(size_t n) {
    static const std::array<uint8_t, 2 * kBlock> kZeros{};
    std::array<uint32_t, 32> basis{};
    for (int bit = 0; bit < 32; ++bit) basis[bit] = OneChain(1u << bit, kZeros.data(), n);
    for (int k = 0; k < 4; ++k)
      for (uint32_t b = 0; b < 256; ++b) {
        uint32_t v = 0;
        for (int bit = 0; bit < 8; ++bit)
          if (b & (1u << bit)) v ^= basis[8 * k + bit];
        t[k][b] = v;
      }
  }
  uint32_t operator()(uint32_t c) const {
    return t[0][c & 0xFF] ^ t[1][(c >> 8) & 0xFF] ^ t[2][(c >> 16) & 0xFF] ^ t[3][c >> 24];
  }
};

__attribute__((target("sse4.2"))) uint32_t Hardware(uint32_t crc, const uint8_t* p, size_t n) {
  if (n >= 3 * kBlock) {
    static const Shift kShift1(kBlock), kShift2(2 * kBlock);
    while (n >= 3 * kBlock) {
      uint64_t a = crc, b = 0, c = 0;
      for (size_t i = 0; i < kBlock; i += 8) {
        uint64_t va, vb, vc;
        std::memcpy(&va, p + i, 8);
        std::memcpy(&vb, p + kBlock + i, 8);
        std::memcpy(&vc, p + 2 * kBlock + i, 8);
        a = _mm_crc32_u64(a, va);
        b = _mm_crc32_u64(b, vb);
        c = _mm_crc32_u64(c, vc);
      }
      crc = kShift2(static_cast<uint32_t>(a)) ^ kShift1(static_cast<uint32_t>(b)) ^ static_cast<uint32_t>(c);
      p += 3 * kBlock;
      n -= 3 * kBlock;
    }
  }
  return OneChain(crc, p, n);
}
const bool kHasSse42 = __builtin_cpu_supports("sse4.2");
#endif

}  // namespace

uint32_t Crc32c(const uint8_t* data, size_t size) {
#if defined(__x86_64__)
  if (kHasSse42) return ~Hardware(0xFFFFFFFFu, data, size);
#endif
  return ~Portable(0xFFFFFFFFu, data, size);
}

uint32_t Crc32cPortable(const uint8_t* data, size_t size) { return ~Portable(0xFFFFFFFFu, data, size); }

}  // namespace fluss::util
