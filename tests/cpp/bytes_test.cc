// util/bytes.h: varints (protocol-data.md section 0 examples) and the decimal big-endian helpers.
#include <gtest/gtest.h>

#include "fluss/util/bytes.h"
#include "hex.h"

namespace fluss::util {
namespace {

using testing::Hex;
using testing::Unhex;

std::string V32(int32_t v) {
  std::string out;
  AppendVarint32(&out, static_cast<uint32_t>(v));
  return Hex(out);
}
std::string V64(int64_t v) {
  std::string out;
  AppendVarint64(&out, static_cast<uint64_t>(v));
  return Hex(out);
}

TEST(BytesTest, VarintExamplesOfSection0) {
  EXPECT_EQ(V32(1), "01");
  EXPECT_EQ(V32(100), "64");
  EXPECT_EQ(V32(128), "8001");
  EXPECT_EQ(V32(300), "ac02");
  EXPECT_EQ(V32(1234), "d209");
  EXPECT_EQ(V32(-1), "ffffffff0f");
  EXPECT_EQ(V64(-1), "ffffffffffffffffff01");
  EXPECT_EQ(V64(-2), "feffffffffffffffff01");
  EXPECT_EQ(Varint64Size(static_cast<uint64_t>(-1)), 10u);
  EXPECT_EQ(Varint64Size(127), 1u);
  EXPECT_EQ(Varint64Size(128), 2u);
}

TEST(BytesTest, BoundedVarintDecode) {
  const std::string b = Unhex("ffffffff0f | ac02 | ffffffffffffffffff01 | 80");
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  size_t pos = 0;
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  ASSERT_TRUE(ReadVarint32(p, b.size(), &pos, &u32));
  EXPECT_EQ(static_cast<int32_t>(u32), -1);
  ASSERT_TRUE(ReadVarint32(p, b.size(), &pos, &u32));
  EXPECT_EQ(u32, 300u);
  ASSERT_TRUE(ReadVarint64(p, b.size(), &pos, &u64));
  EXPECT_EQ(static_cast<int64_t>(u64), -1);
  // The last byte says "more follows" but the input ends: rejected, position kept.
  const size_t before = pos;
  EXPECT_FALSE(ReadVarint32(p, b.size(), &pos, &u32));
  EXPECT_EQ(pos, before);
  // Six bytes is too long for a varint32, eleven for a varint64.
  const std::string long32 = Unhex("ffffffffff01");
  pos = 0;
  EXPECT_FALSE(ReadVarint32(reinterpret_cast<const uint8_t*>(long32.data()), long32.size(), &pos, &u32));
  const std::string long64 = Unhex("ffffffffffffffffffff01");
  pos = 0;
  EXPECT_FALSE(ReadVarint64(reinterpret_cast<const uint8_t*>(long64.data()), long64.size(), &pos, &u64));
}

TEST(BytesTest, MinimalBigEndianTwosComplement) {
  auto be = [](int64_t hi, uint64_t lo) {
    std::string out;
    AppendMinimalBigEndian(&out, hi, lo);
    return Hex(out);
  };
  EXPECT_EQ(be(0, 0), "00");
  EXPECT_EQ(be(0, 127), "7f");
  EXPECT_EQ(be(0, 128), "0080");
  EXPECT_EQ(be(0, 1234), "04d2");
  EXPECT_EQ(be(-1, static_cast<uint64_t>(-1)), "ff");
  EXPECT_EQ(be(-1, static_cast<uint64_t>(-100)), "9c");
  EXPECT_EQ(be(-1, static_cast<uint64_t>(-129)), "ff7f");
  EXPECT_EQ(be(1, 0), "010000000000000000");  // 2^64
  for (auto [hi, lo] : {std::pair<int64_t, uint64_t>{0, 0}, {0, 128}, {-1, static_cast<uint64_t>(-129)},
                        {1, 0}, {INT64_MIN, 0}, {INT64_MAX, ~0ull}}) {
    std::string out;
    AppendMinimalBigEndian(&out, hi, lo);
    int64_t h = 7;
    uint64_t l = 7;
    ASSERT_TRUE(ReadBigEndianTwosComplement(reinterpret_cast<const uint8_t*>(out.data()), out.size(), &h, &l));
    EXPECT_EQ(h, hi);
    EXPECT_EQ(l, lo);
  }
  int64_t h;
  uint64_t l;
  const uint8_t z[17] = {};
  EXPECT_FALSE(ReadBigEndianTwosComplement(z, 0, &h, &l));
  EXPECT_FALSE(ReadBigEndianTwosComplement(z, 17, &h, &l));
}

TEST(BytesTest, LittleAndBigEndian) {
  uint8_t b[8];
  PutLe<int32_t>(b, 0x01020304);
  EXPECT_EQ(Hex(std::string_view(reinterpret_cast<char*>(b), 4)), "04030201");
  EXPECT_EQ(GetLe<int32_t>(b), 0x01020304);
  PutBe32(b, 0x01020304);
  EXPECT_EQ(GetBe32(b), 0x01020304u);
  PutBe16(b, 0xABCD);
  EXPECT_EQ(GetBe16(b), 0xABCD);
  std::string s;
  AppendLe<int16_t>(&s, 300);
  EXPECT_EQ(Hex(s), "2c01");
}

}  // namespace
}  // namespace fluss::util
