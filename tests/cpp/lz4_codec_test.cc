// The Fluss LZ4_FRAME codec (src/fluss/record/lz4_frame_codec.h): frames the Fluss Java reader
// accepts (FLG 0x60 independent blocks, BD 0x40), round trips, ARROW log batches written with
// it, and frames from Arrow's stock LZ4_FRAME codec (linked blocks) still decoded.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/message.h>
#include <arrow/util/compression.h>
#include <arrow/util/decimal.h>
#include <lz4frame.h>

#include "fluss/record/arrow_log.h"
#include "fluss/record/log_batch.h"
#include "fluss/record/lz4_frame_codec.h"

namespace fluss::record {
namespace {

constexpr uint8_t kMagic[4] = {0x04, 0x22, 0x4D, 0x18};  // 0x184D2204 little-endian
constexpr size_t kBlock = 64 * 1024;

// XXH32 (seed 0) written out from the xxHash spec, for inputs shorter than 16 bytes: the LZ4
// frame header checksum is byte 1 of XXH32 over the descriptor (FLG, BD[, content size]).
uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
uint32_t Xxh32Short(const uint8_t* p, size_t len, uint32_t seed) {
  constexpr uint32_t kP1 = 2654435761U, kP2 = 2246822519U, kP3 = 3266489917U,
                     kP4 = 668265263U, kP5 = 374761393U;
  uint32_t h = seed + kP5 + static_cast<uint32_t>(len);
  size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    uint32_t v;
    std::memcpy(&v, p + i, 4);
    h = Rotl(h + v * kP3, 17) * kP4;
  }
  for (; i < len; ++i) h = Rotl(h + p[i] * kP5, 11) * kP1;
  h ^= h >> 15;
  h *= kP2;
  h ^= h >> 13;
  h *= kP3;
  h ^= h >> 16;
  return h;
}

uint32_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
int64_t LoadI64(const uint8_t* p) {
  int64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// What a frame looks like, read the way FlussLZ4BlockInputStream reads it.
struct FrameInfo {
  uint8_t flg = 0;
  uint8_t bd = 0;
  uint8_t header_checksum = 0;
  size_t blocks = 0;
  size_t max_block_payload = 0;  // largest stored block (compressed or raw)
  size_t size = 0;               // bytes from the magic to the end mark (inclusive)
};

// Parses one frame at `p` (no content size, no checksums expected beyond what FLG says).
::testing::AssertionResult ParseFrame(const uint8_t* p, size_t len, FrameInfo* out) {
  if (len < 7) return ::testing::AssertionFailure() << "frame shorter than its header";
  if (std::memcmp(p, kMagic, 4) != 0) return ::testing::AssertionFailure() << "bad magic";
  out->flg = p[4];
  out->bd = p[5];
  size_t pos = 6;
  if (out->flg & 0x08) pos += 8;  // content size
  if (out->flg & 0x01) pos += 4;  // dictionary id
  if (pos + 1 > len) return ::testing::AssertionFailure() << "truncated descriptor";
  out->header_checksum = p[pos];
  if (out->header_checksum != static_cast<uint8_t>(Xxh32Short(p + 4, pos - 4, 0) >> 8))
    return ::testing::AssertionFailure() << "header checksum mismatch";
  pos += 1;
  const bool block_checksum = (out->flg & 0x10) != 0;
  for (;;) {
    if (pos + 4 > len) return ::testing::AssertionFailure() << "truncated block size";
    uint32_t word = LoadU32(p + pos);
    pos += 4;
    if (word == 0) break;  // end mark
    size_t n = word & 0x7FFFFFFFu;
    if (pos + n > len) return ::testing::AssertionFailure() << "truncated block";
    pos += n + (block_checksum ? 4 : 0);
    out->blocks++;
    out->max_block_payload = std::max(out->max_block_payload, n);
  }
  if (out->flg & 0x04) pos += 4;  // content checksum
  out->size = pos;
  return ::testing::AssertionSuccess();
}

std::vector<uint8_t> Compressible(size_t n) {
  std::vector<uint8_t> v(n);
  std::mt19937 rng(42);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>("abcdefgh"[rng() % 8]);
  return v;
}

std::vector<uint8_t> Random(size_t n) {
  std::vector<uint8_t> v(n);
  std::mt19937 rng(7);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::vector<uint8_t> CompressWith(arrow::util::Codec* codec, const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(static_cast<size_t>(codec->MaxCompressedLen(in.size(), in.data())));
  auto n = codec->Compress(in.size(), in.data(), out.size(), out.data());
  EXPECT_TRUE(n.ok()) << n.status().ToString();
  out.resize(n.ok() ? static_cast<size_t>(*n) : 0);
  return out;
}

// ---- the codec on its own ----

TEST(Lz4FrameCodec, IsLabelledLz4Frame) {
  auto codec = MakeFlussLz4FrameCodec();
  ASSERT_NE(codec, nullptr);
  EXPECT_EQ(codec->compression_type(), arrow::Compression::LZ4_FRAME);
  EXPECT_EQ(codec->name(), "lz4");
  EXPECT_FALSE(codec->MakeCompressor().ok());
  EXPECT_FALSE(codec->MakeDecompressor().ok());
}

TEST(Lz4FrameCodec, FrameHeaderBytesAreFlussJavas) {
  auto codec = MakeFlussLz4FrameCodec();
  std::string text = "fluss fluss fluss fluss fluss fluss fluss fluss";
  std::vector<uint8_t> in(text.begin(), text.end());
  auto out = CompressWith(codec.get(), in);
  ASSERT_GE(out.size(), 11u);
  // magic 0x184D2204 LE, FLG 0x60 = version 01 | block independence, nothing else,
  // BD 0x40 = 64 KB max block, header checksum = (XXH32(60 40, seed 0) >> 8) & 0xFF = 0x82.
  EXPECT_EQ(out[0], 0x04);
  EXPECT_EQ(out[1], 0x22);
  EXPECT_EQ(out[2], 0x4D);
  EXPECT_EQ(out[3], 0x18);
  EXPECT_EQ(out[4], 0x60);
  EXPECT_EQ(out[5], 0x40);
  const uint8_t descriptor[2] = {0x60, 0x40};
  EXPECT_EQ(static_cast<uint8_t>(Xxh32Short(descriptor, 2, 0) >> 8), 0x82);
  EXPECT_EQ(out[6], 0x82);
  // One block and the end mark 00 00 00 00, nothing after it (no content checksum).
  FrameInfo info;
  ASSERT_TRUE(ParseFrame(out.data(), out.size(), &info));
  EXPECT_EQ(info.blocks, 1u);
  EXPECT_EQ(info.size, out.size());
  EXPECT_EQ(LoadU32(out.data() + out.size() - 4), 0u);
}

TEST(Lz4FrameCodec, RoundTripsAndKeepsIndependentBlocksAtEverySize) {
  auto codec = MakeFlussLz4FrameCodec();
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, kBlock - 1, kBlock, kBlock + 1, 3 * kBlock + 17,
                   size_t{1} << 20}) {
    for (int kind = 0; kind < 2; ++kind) {
      SCOPED_TRACE("size " + std::to_string(n) + (kind ? " random" : " compressible"));
      auto in = kind ? Random(n) : Compressible(n);
      auto out = CompressWith(codec.get(), in);
      ASSERT_LE(static_cast<int64_t>(out.size()), codec->MaxCompressedLen(n, in.data()));
      FrameInfo info;
      ASSERT_TRUE(ParseFrame(out.data(), out.size(), &info));
      EXPECT_EQ(info.flg, 0x60);  // independent blocks even when there are several
      EXPECT_EQ(info.bd, 0x40);
      EXPECT_EQ(info.header_checksum, 0x82);
      EXPECT_EQ(info.blocks, (n + kBlock - 1) / kBlock);
      EXPECT_LE(info.max_block_payload, kBlock);
      EXPECT_EQ(info.size, out.size());
      std::vector<uint8_t> back(n + 1, 0xEE);  // one guard byte
      auto m = codec->Decompress(out.size(), out.data(), n, back.data());
      ASSERT_TRUE(m.ok()) << m.status().ToString();
      EXPECT_EQ(*m, static_cast<int64_t>(n));
      EXPECT_TRUE(std::equal(in.begin(), in.end(), back.begin()));
      EXPECT_EQ(back[n], 0xEE);
    }
  }
}

TEST(Lz4FrameCodec, DecompressRejectsTruncatedInputAndSmallOutput) {
  auto codec = MakeFlussLz4FrameCodec();
  auto in = Compressible(3 * kBlock);
  auto out = CompressWith(codec.get(), in);
  std::vector<uint8_t> back(in.size());
  // Truncated: without the end mark, and in the middle of a block.
  for (size_t cut : {out.size() - 4, out.size() / 2, size_t{5}}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    EXPECT_FALSE(codec->Decompress(cut, out.data(), back.size(), back.data()).ok());
  }
  // Output one byte too small.
  EXPECT_FALSE(codec->Decompress(out.size(), out.data(), back.size() - 1, back.data()).ok());
  // Not a frame.
  std::vector<uint8_t> junk(32, 0x11);
  EXPECT_FALSE(codec->Decompress(junk.size(), junk.data(), back.size(), back.data()).ok());
}

TEST(Lz4FrameCodec, DecodesArrowStockCodecLinkedBlocks) {
  auto stock = arrow::util::Codec::Create(arrow::Compression::LZ4_FRAME);
  ASSERT_TRUE(stock.ok()) << stock.status().ToString();
  auto codec = MakeFlussLz4FrameCodec();
  for (size_t n : {size_t{1000}, size_t{1} << 20}) {
    SCOPED_TRACE("size " + std::to_string(n));
    auto in = Compressible(n);
    auto out = CompressWith(stock->get(), in);
    FrameInfo info;
    ASSERT_TRUE(ParseFrame(out.data(), out.size(), &info));
    // Arrow's zeroed LZ4F preferences: a single-block buffer is marked independent by liblz4,
    // a multi-block one is *linked* (FLG bit 5 = 0), which Fluss Java rejects.
    EXPECT_EQ(info.flg, n > kBlock ? 0x40 : 0x60);
    EXPECT_EQ(info.bd, 0x40);
    std::vector<uint8_t> back(n);
    auto m = codec->Decompress(out.size(), out.data(), n, back.data());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_EQ(*m, static_cast<int64_t>(n));
    EXPECT_EQ(back, in);
  }
}

TEST(Lz4FrameCodec, DecodesFramesWithChecksumsContentSizeAndConcatenation) {
  auto codec = MakeFlussLz4FrameCodec();
  auto a = Compressible(200000);
  auto b = Random(70000);
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof(prefs));
  prefs.frameInfo.blockSizeID = LZ4F_max256KB;
  prefs.frameInfo.blockMode = LZ4F_blockLinked;
  prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
  prefs.frameInfo.contentSize = a.size();
  std::vector<uint8_t> frames(LZ4F_compressFrameBound(a.size(), &prefs));
  size_t n1 = LZ4F_compressFrame(frames.data(), frames.size(), a.data(), a.size(), &prefs);
  ASSERT_FALSE(LZ4F_isError(n1));
  frames.resize(n1);
  auto second = CompressWith(codec.get(), b);
  frames.insert(frames.end(), second.begin(), second.end());
  std::vector<uint8_t> back(a.size() + b.size());
  auto m = codec->Decompress(frames.size(), frames.data(), back.size(), back.data());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(*m, static_cast<int64_t>(back.size()));
  EXPECT_TRUE(std::equal(a.begin(), a.end(), back.begin()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), back.begin() + a.size()));
}

// ---- ARROW log batches ----

// 20,000 rows: the int64, double, string and timestamp buffers are larger than one 64 KB block.
std::shared_ptr<arrow::RecordBatch> SampleBatch() {
  auto schema = arrow::schema({
      arrow::field("i", arrow::int32()),
      arrow::field("big", arrow::int64()),
      arrow::field("s", arrow::utf8()),
      arrow::field("d", arrow::float64()),
      arrow::field("flag", arrow::boolean()),
      arrow::field("day", arrow::date32()),
      arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO)),
      arrow::field("dec", arrow::decimal128(10, 2)),
  });
  constexpr int kRows = 20000;
  arrow::Int32Builder i;
  arrow::Int64Builder big;
  arrow::StringBuilder s;
  arrow::DoubleBuilder d;
  arrow::BooleanBuilder flag;
  arrow::Date32Builder day;
  arrow::TimestampBuilder ts(arrow::timestamp(arrow::TimeUnit::MICRO), arrow::default_memory_pool());
  arrow::Decimal128Builder dec(arrow::decimal128(10, 2));
  for (int r = 0; r < kRows; ++r) {
    bool null = r % 7 == 3;
    auto check = [](const arrow::Status& st) { ASSERT_TRUE(st.ok()) << st.ToString(); };
    if (null) {
      check(i.AppendNull());
      check(big.AppendNull());
      check(s.AppendNull());
      check(d.AppendNull());
      check(flag.AppendNull());
      check(day.AppendNull());
      check(ts.AppendNull());
      check(dec.AppendNull());
      continue;
    }
    check(i.Append(r - 10000));
    check(big.Append(int64_t{1} << 40 | r));
    check(s.Append("row-" + std::to_string(r)));
    check(d.Append(r * 0.25 - 7.5));
    check(flag.Append(r % 2 == 0));
    check(day.Append(19000 + r % 400));
    check(ts.Append(int64_t{1700000000000000} + int64_t{r} * 1234567));
    check(dec.Append(arrow::Decimal128(int64_t{r} * 101 - 500000)));
  }
  std::vector<std::shared_ptr<arrow::Array>> cols(8);
  EXPECT_TRUE(i.Finish(&cols[0]).ok());
  EXPECT_TRUE(big.Finish(&cols[1]).ok());
  EXPECT_TRUE(s.Finish(&cols[2]).ok());
  EXPECT_TRUE(d.Finish(&cols[3]).ok());
  EXPECT_TRUE(flag.Finish(&cols[4]).ok());
  EXPECT_TRUE(day.Finish(&cols[5]).ok());
  EXPECT_TRUE(ts.Finish(&cols[6]).ok());
  EXPECT_TRUE(dec.Finish(&cols[7]).ok());
  return arrow::RecordBatch::Make(schema, kRows, cols);
}

// Walks the compressed body of an encoded log batch: each non-empty buffer is an int64 LE
// uncompressed length followed by one LZ4 frame, the next buffer at the next 8-aligned offset.
// Checks each frame decompresses to its announced length and returns the frames' descriptors.
std::vector<FrameInfo> BodyFrames(const std::shared_ptr<arrow::Buffer>& batch) {
  std::vector<FrameInfo> frames;
  arrow::io::BufferReader reader(arrow::SliceBuffer(batch, kHeaderSizeV0));
  auto message = arrow::ipc::ReadMessage(&reader);
  EXPECT_TRUE(message.ok() && *message);
  if (!message.ok() || !*message) return frames;
  auto body = (*message)->body();
  auto codec = MakeFlussLz4FrameCodec();
  size_t pos = 0;
  while (pos < static_cast<size_t>(body->size())) {
    int64_t uncompressed = LoadI64(body->data() + pos);
    EXPECT_GE(uncompressed, 0) << "a raw (-1) buffer: the walk needs compressed buffers";
    if (uncompressed < 0) break;
    FrameInfo info;
    EXPECT_TRUE(ParseFrame(body->data() + pos + 8, body->size() - pos - 8, &info));
    if (info.size == 0) break;
    std::vector<uint8_t> out(static_cast<size_t>(uncompressed));
    auto m = codec->Decompress(info.size, body->data() + pos + 8, uncompressed, out.data());
    EXPECT_TRUE(m.ok() && *m == uncompressed);
    frames.push_back(info);
    pos = (pos + 8 + info.size + 7) / 8 * 8;
  }
  EXPECT_EQ(pos, static_cast<size_t>(body->size()));
  return frames;
}

void ExpectDecodesTo(const std::shared_ptr<arrow::Buffer>& encoded,
                     const std::shared_ptr<arrow::RecordBatch>& expected) {
  auto header = ParseLogBatchHeader(encoded->data(), encoded->size());
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->record_count, expected->num_rows());
  EXPECT_EQ(ComputeBatchCrc(encoded->data(), encoded->size()), header->crc);
  auto decoded = DecodeArrowLogBatch(encoded, *header, expected->schema());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_NE(*decoded, nullptr);
  EXPECT_TRUE((*decoded)->Equals(*expected));
}

TEST(Lz4ArrowLog, BatchWithFlussCodecDecodesAndHasOnlyIndependentFrames) {
  auto batch = SampleBatch();
  auto options = arrow::ipc::IpcWriteOptions::Defaults();
  options.codec = MakeFlussLz4FrameCodec();
  auto encoded = EncodeArrowLogBatch(*batch, 1, options);
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  ExpectDecodesTo(*encoded, batch);
  auto frames = BodyFrames(*encoded);
  ASSERT_GE(frames.size(), 8u);
  size_t multi_block = 0;
  for (const auto& f : frames) {
    EXPECT_EQ(f.flg, 0x60);
    EXPECT_EQ(f.bd, 0x40);
    EXPECT_LE(f.max_block_payload, kBlock);
    if (f.blocks > 1) multi_block++;
  }
  EXPECT_GE(multi_block, 3u);  // the case where Arrow's stock codec would link blocks
}

TEST(Lz4ArrowLog, WriteOptionsForLz4FrameUseTheFlussCodec) {
  for (const char* name : {"LZ4_FRAME", "lz4_frame"}) {
    SCOPED_TRACE(name);
    auto options = ArrowWriteOptions(name, 3);
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    ASSERT_NE(options->codec, nullptr);
    EXPECT_EQ(options->codec->compression_type(), arrow::Compression::LZ4_FRAME);
    auto batch = SampleBatch();
    auto encoded = EncodeArrowLogBatch(*batch, 1, *options);
    ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
    ExpectDecodesTo(*encoded, batch);
    auto frames = BodyFrames(*encoded);
    ASSERT_GE(frames.size(), 8u);
    for (const auto& f : frames) EXPECT_EQ(f.flg, 0x60);
  }
}

TEST(Lz4ArrowLog, BatchWithArrowStockCodecStillDecodes) {
  auto batch = SampleBatch();
  auto stock = arrow::util::Codec::Create(arrow::Compression::LZ4_FRAME);
  ASSERT_TRUE(stock.ok()) << stock.status().ToString();
  auto options = arrow::ipc::IpcWriteOptions::Defaults();
  options.codec = std::shared_ptr<arrow::util::Codec>(std::move(*stock));
  auto encoded = EncodeArrowLogBatch(*batch, 1, options);
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  auto frames = BodyFrames(*encoded);
  size_t linked = 0;
  for (const auto& f : frames) linked += (f.flg & 0x20) == 0;
  EXPECT_GE(linked, 3u);  // what a Java reader rejects; our reader must still take it
  ExpectDecodesTo(*encoded, batch);
}

}  // namespace
}  // namespace fluss::record
