// Fixed-width integer load/store helpers. Frame headers are big-endian (RPC), batch headers
// little-endian (records); the names say which.
#pragma once

#include <cstdint>
#include <cstring>

namespace fluss::util {

inline void PutBe16(uint8_t* p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xFF; }
inline void PutBe32(uint8_t* p, uint32_t v) {
  p[0] = v >> 24; p[1] = (v >> 16) & 0xFF; p[2] = (v >> 8) & 0xFF; p[3] = v & 0xFF;
}
inline uint32_t GetBe32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// x86-64 and AArch64 are little-endian; memcpy keeps unaligned access legal.
template <typename T>
inline void PutLe(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }
template <typename T>
inline T GetLe(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace fluss::util
