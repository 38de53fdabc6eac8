// Byte helpers shared by every codec: fixed-width loads and stores (RPC frame headers are
// big-endian, batch headers and rows little-endian; the names say which), the varints of Fluss
// rows and keys, protobuf varints, and the big-endian two's complement of decimal unscaled
// values (protocol-data.md section 0 and table 4.1; protocol-rpc.md section 1 for the frame).
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace fluss::util {

// ---- big-endian (RPC frame header) ----

inline void PutBe16(uint8_t* p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xFF; }
inline void PutBe32(uint8_t* p, uint32_t v) {
  p[0] = v >> 24; p[1] = (v >> 16) & 0xFF; p[2] = (v >> 8) & 0xFF; p[3] = v & 0xFF;
}
inline uint16_t GetBe16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
inline uint32_t GetBe32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// ---- little-endian (batch headers, rows, keys) ----
// x86-64 and AArch64 are little-endian, as Java's Unsafe there; memcpy keeps unaligned access
// legal.

/// Stores `v` (an integer or float type) little-endian at `p` (sizeof(T) bytes).
template <typename T>
inline void PutLe(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }
/// Loads a little-endian T from `p` (sizeof(T) bytes, any alignment).
template <typename T>
inline T GetLe(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
/// Appends `v` little-endian (sizeof(T) bytes) to `out`.
template <typename T>
inline void AppendLe(std::string* out, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out->append(buf, sizeof(T));
}

// ---- varints ----
// Unsigned LEB128 of the bit pattern: 7 data bits per byte, low group first, high bit set when
// more bytes follow. No zig-zag: Fluss rows and keys (CompactedRowWriter) pass an int32 or int64
// bit pattern, so a negative int32 takes 5 bytes and a negative int64 10 bytes. Protobuf varints
// are the same encoding of a uint64 (an int32 field is sign-extended to 64 bits first).

/// `n` rounded up to a multiple of 8 (the word alignment of binary rows and their variable parts).
inline constexpr size_t RoundUpTo8(size_t n) { return (n + 7) & ~size_t{7}; }

inline constexpr size_t kMaxVarint32Bytes = 5;
inline constexpr size_t kMaxVarint64Bytes = 10;

/// Appends the varint of the 64-bit pattern `v` (1..10 bytes).
inline void AppendVarint64(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
/// Appends the varint of the 32-bit pattern `v` (1..5 bytes; int32 -1 -> ff ff ff ff 0f).
inline void AppendVarint32(std::string* out, uint32_t v) { AppendVarint64(out, v); }

/// Bytes AppendVarint64 writes for `v`.
inline size_t Varint64Size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

/// Reads a varint of at most 5 bytes from [data + *pos, data + size) into `*out` and advances
/// `*pos`. Bits past the 32nd are dropped (as Java's CompactedRowReader.readInt). Returns false,
/// leaving `*pos` unchanged, when the bytes end inside the varint or it is longer than 5 bytes.
bool ReadVarint32(const uint8_t* data, size_t size, size_t* pos, uint32_t* out);
/// The same for a varint of at most 10 bytes (CompactedRowReader.readLong).
bool ReadVarint64(const uint8_t* data, size_t size, size_t* pos, uint64_t* out);

// ---- decimal unscaled values ----
// A 128-bit two's complement value is passed as (hi, lo): the signed high 64 bits and the
// unsigned low 64 bits, as arrow::Decimal128 and fluss::Value hold it.

/// Appends the minimal big-endian two's complement of (hi, lo), as Java BigInteger.toByteArray:
/// 1..16 bytes, at least one, keeping the sign bit (0 -> 00, 128 -> 00 80, -1 -> ff, -100 -> 9c).
/// Returns the number of bytes appended.
size_t AppendMinimalBigEndian(std::string* out, int64_t hi, uint64_t lo);

/// Reads `n` (1..16) bytes of big-endian two's complement at `p`, sign-extended to 128 bits.
/// Returns false for n == 0 or n > 16.
bool ReadBigEndianTwosComplement(const uint8_t* p, size_t n, int64_t* hi, uint64_t* lo);

}  // namespace fluss::util
