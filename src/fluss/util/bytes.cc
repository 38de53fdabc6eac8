#include "fluss/util/bytes.h"

namespace fluss::util {

namespace {

template <typename U, size_t kMaxBytes>
bool ReadVarint(const uint8_t* data, size_t size, size_t* pos, U* out) {
  U v = 0;
  size_t p = *pos;
  for (size_t i = 0; i < kMaxBytes; ++i) {
    if (p >= size) return false;
    const uint8_t b = data[p++];
    v |= static_cast<U>(static_cast<U>(b & 0x7F) << (7 * i));
    if ((b & 0x80) == 0) {
      *out = v;
      *pos = p;
      return true;
    }
  }
  return false;  // a continuation bit on the last allowed byte
}

}  // namespace

bool ReadVarint32(const uint8_t* data, size_t size, size_t* pos, uint32_t* out) {
  return ReadVarint<uint32_t, kMaxVarint32Bytes>(data, size, pos, out);
}

bool ReadVarint64(const uint8_t* data, size_t size, size_t* pos, uint64_t* out) {
  return ReadVarint<uint64_t, kMaxVarint64Bytes>(data, size, pos, out);
}

size_t AppendMinimalBigEndian(std::string* out, int64_t hi, uint64_t lo) {
  uint8_t be[16];
  for (int k = 0; k < 8; ++k) {
    be[k] = static_cast<uint8_t>(static_cast<uint64_t>(hi) >> (56 - 8 * k));
    be[8 + k] = static_cast<uint8_t>(lo >> (56 - 8 * k));
  }
  // Drop a leading byte while it only repeats the sign of the next one.
  size_t s = 0;
  while (s < 15 && ((be[s] == 0x00 && (be[s + 1] & 0x80) == 0) ||
                    (be[s] == 0xFF && (be[s + 1] & 0x80) != 0)))
    ++s;
  out->append(reinterpret_cast<const char*>(be + s), 16 - s);
  return 16 - s;
}

bool ReadBigEndianTwosComplement(const uint8_t* p, size_t n, int64_t* hi, uint64_t* lo) {
  if (n == 0 || n > 16) return false;
  uint8_t be[16];
  std::memset(be, (p[0] & 0x80) ? 0xFF : 0x00, 16 - n);
  std::memcpy(be + 16 - n, p, n);
  uint64_t h = 0, l = 0;
  for (int k = 0; k < 8; ++k) {
    h = (h << 8) | be[k];
    l = (l << 8) | be[8 + k];
  }
  *hi = static_cast<int64_t>(h);
  *lo = l;
  return true;
}

}  // namespace fluss::util
