// CRC-32C (protocol-data.md section 0): reflected polynomial 0x82F63B78, initial value and
// final XOR 0xFFFFFFFF, as java.util.zip.CRC32C. Log batches store it over bytes [25, end).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fluss/util/crc32c.h"

namespace {

using fluss::util::Crc32c;
using fluss::util::Crc32cPortable;

uint32_t Crc(const std::string& s) {
  return Crc32c(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}
uint32_t PortableCrc(const std::string& s) {
  return Crc32cPortable(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// The definition, one bit at a time, written from the rule above and nothing else. Slow but
// obviously right; used to check the table-driven and SSE4.2 paths on many lengths/alignments.
uint32_t BitwiseReference(const uint8_t* p, size_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
  }
  return crc ^ 0xFFFFFFFFu;
}

// Crc32c() picks the SSE4.2 path on most x86-64 machines; Crc32cPortable() is the slicing-by-8
// table path used elsewhere (AArch64). Every check below runs on both.

TEST(Crc32c, CheckValue) {
  // The standard check value of CRC-32C (the one every CRC catalogue lists), quoted in
  // protocol-data.md: ASCII "123456789" -> 0xE3069283.
  EXPECT_EQ(Crc("123456789"), 0xE3069283u);
  EXPECT_EQ(PortableCrc("123456789"), 0xE3069283u);
}

TEST(Crc32c, EmptyInputIsZero) {
  // No bytes: the register stays at the initial 0xFFFFFFFF, the final XOR makes it 0.
  EXPECT_EQ(Crc32c(nullptr, 0), 0u);
  EXPECT_EQ(Crc32cPortable(nullptr, 0), 0u);
}

TEST(Crc32c, Rfc3720Vectors) {
  // CRC-32C is the iSCSI CRC; RFC 3720 appendix B.4 lists these 32-byte vectors (the RFC prints
  // the CRC bytes least significant first, e.g. "aa 36 91 8a" = 0x8A9136AA).
  std::vector<uint8_t> zeros(32, 0x00), ones(32, 0xFF), inc(32), dec(32);
  for (int i = 0; i < 32; ++i) {
    inc[i] = static_cast<uint8_t>(i);
    dec[i] = static_cast<uint8_t>(31 - i);
  }
  for (auto* crc : {&Crc32c, &Crc32cPortable}) {
    EXPECT_EQ(crc(zeros.data(), zeros.size()), 0x8A9136AAu);
    EXPECT_EQ(crc(ones.data(), ones.size()), 0x62A8AB43u);
    EXPECT_EQ(crc(inc.data(), inc.size()), 0x46DD794Eu);
    EXPECT_EQ(crc(dec.data(), dec.size()), 0x113FDB5Cu);
  }
}

TEST(Crc32c, MatchesBitwiseDefinitionForEveryLengthAndAlignment) {
  // The fast paths consume 8 bytes at a time and then a tail; lengths 0..80 at start offsets
  // 0..7 cover every tail length and misalignment.
  std::vector<uint8_t> data(96);
  uint32_t x = 0x12345678u;
  for (auto& b : data) {  // xorshift: deterministic, non-repeating bytes
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<uint8_t>(x);
  }
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t len = 0; len <= 80; ++len) {
      const uint32_t expected = BitwiseReference(data.data() + offset, len);
      ASSERT_EQ(Crc32c(data.data() + offset, len), expected) << "offset " << offset << " length " << len;
      ASSERT_EQ(Crc32cPortable(data.data() + offset, len), expected) << "offset " << offset << " length " << len;
    }
  }
}

TEST(Crc32c, ThreeLaneBlocksMatchTheBitwiseDefinition) {
  // Inputs of 3 x 4096 bytes or more are summed in three interleaved lanes per block and joined
  // by shift tables: lengths around the block multiples, at odd offsets, must still match.
  std::vector<uint8_t> data(3 * 3 * 4096 + 64);
  uint32_t x = 0x9E3779B9u;
  for (auto& b : data) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<uint8_t>(x);
  }
  for (size_t offset : {0, 3}) {
    for (size_t len : {12287, 12288, 12289, 12295, 24575, 24576, 24583, 36864, 36864 + 57}) {
      const uint32_t expected = BitwiseReference(data.data() + offset, len);
      ASSERT_EQ(Crc32c(data.data() + offset, len), expected) << "offset " << offset << " length " << len;
      ASSERT_EQ(Crc32cPortable(data.data() + offset, len), expected) << "offset " << offset << " length " << len;
    }
  }
}

TEST(Crc32c, IsNotPlainCrc32) {
  // The classic zlib CRC-32 of "123456789" is 0xCBF43926; a mix-up of the polynomials would
  // be caught here (the server rejects batches with a wrong CRC).
  EXPECT_NE(Crc("123456789"), 0xCBF43926u);
  EXPECT_NE(PortableCrc("123456789"), 0xCBF43926u);
  // A single flipped bit changes the value.
  EXPECT_NE(Crc("123456789"), Crc("123456788"));
}

}  // namespace
