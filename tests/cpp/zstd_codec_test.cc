// The Fluss ZSTD codec (src/fluss/record/zstd_codec.h): the very frames ZSTD_compress writes,
// from reused contexts, on any number of threads; ARROW log batches written with it decode
// with Arrow's stock codec (which the IPC reader uses).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <arrow/api.h>
#include <arrow/util/compression.h>
#include <zstd.h>

#include "fluss/record/arrow_log.h"
#include "fluss/record/log_batch.h"
#include "fluss/record/zstd_codec.h"

namespace fluss::record {
namespace {

/// `n` bytes that compress somewhat (runs of a few letters), from `seed`.
std::vector<uint8_t> Text(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>('a' + rng() % 5);
  return out;
}

std::vector<uint8_t> Compressed(arrow::util::Codec& codec, const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(static_cast<size_t>(codec.MaxCompressedLen(static_cast<int64_t>(in.size()), in.data())));
  auto n = codec.Compress(static_cast<int64_t>(in.size()), in.data(), static_cast<int64_t>(out.size()), out.data());
  EXPECT_TRUE(n.ok()) << n.status().ToString();
  out.resize(n.ok() ? static_cast<size_t>(*n) : 0);
  return out;
}

TEST(ZstdCodec, IsLabelledZstdAtTheTableLevel) {
  auto codec = MakeFlussZstdCodec(7);
  ASSERT_TRUE(codec.ok()) << codec.status().ToString();
  EXPECT_EQ((*codec)->compression_type(), arrow::Compression::ZSTD);
  EXPECT_EQ((*codec)->compression_level(), 7);
  for (int bad : {0, -1, ZSTD_maxCLevel() + 1}) {
    auto refused = MakeFlussZstdCodec(bad);
    EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(refused.status().message().find("table.log.arrow.compression.zstd.level"), std::string::npos);
  }
}

// Reusing a context must not change a byte: every call writes what a fresh ZSTD_compress
// writes, at every size, and Arrow's stock codec reads it back.
TEST(ZstdCodec, WritesZstdCompressFramesFromReusedContexts) {
  auto codec = MakeFlussZstdCodec(3);
  ASSERT_TRUE(codec.ok());
  auto stock = arrow::util::Codec::Create(arrow::Compression::ZSTD, 3);
  ASSERT_TRUE(stock.ok());
  uint32_t seed = 1;
  for (size_t size : {size_t{0}, size_t{1}, size_t{100}, size_t{70000}, size_t{3} << 20, size_t{5}, size_t{200000}}) {
    SCOPED_TRACE(size);
    const auto in = Text(size, seed++);
    const auto ours = Compressed(**codec, in);
    std::vector<uint8_t> fresh(ZSTD_compressBound(size));
    const size_t n = ZSTD_compress(fresh.data(), fresh.size(), in.data(), size, 3);
    ASSERT_FALSE(ZSTD_isError(n));
    fresh.resize(n);
    EXPECT_EQ(ours, fresh);
    std::vector<uint8_t> back(size);
    auto m = (*stock)->Decompress(static_cast<int64_t>(ours.size()), ours.data(), static_cast<int64_t>(size), back.data());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_EQ(*m, static_cast<int64_t>(size));
    EXPECT_EQ(back, in);
    std::vector<uint8_t> again(size);
    auto k = (*codec)->Decompress(static_cast<int64_t>(ours.size()), ours.data(), static_cast<int64_t>(size), again.data());
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(again, in);
  }
  // A too small output is an error, not an overrun.
  const auto in = Text(10000, 9);
  std::vector<uint8_t> tiny(8);
  EXPECT_FALSE((*codec)->Compress(static_cast<int64_t>(in.size()), in.data(), 8, tiny.data()).ok());
  const auto frame = Compressed(**codec, in);
  EXPECT_FALSE((*codec)->Decompress(static_cast<int64_t>(frame.size()), frame.data(), 100, tiny.data()).ok());
}

TEST(ZstdCodec, CompressesOnManyThreadsAtOnce) {
  auto codec = MakeFlussZstdCodec(3);
  ASSERT_TRUE(codec.ok());
  std::vector<std::vector<uint8_t>> inputs, expected;
  for (uint32_t t = 0; t < 4; ++t) {
    inputs.push_back(Text(50000 + t * 1000, 100 + t));
    std::vector<uint8_t> f(ZSTD_compressBound(inputs.back().size()));
    f.resize(ZSTD_compress(f.data(), f.size(), inputs.back().data(), inputs.back().size(), 3));
    expected.push_back(std::move(f));
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i)
        if (Compressed(**codec, inputs[t]) != expected[t]) ++mismatches[t];
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

TEST(ZstdArrowLog, WriteOptionsForZstdUseTheFlussCodecOnTheCallingThread) {
  auto options = ArrowWriteOptions("zstd", 5);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  ASSERT_NE(options->codec, nullptr);
  EXPECT_EQ(options->codec->compression_type(), arrow::Compression::ZSTD);
  EXPECT_EQ(options->codec->compression_level(), 5);
  EXPECT_FALSE(options->use_threads);
  EXPECT_EQ(ArrowWriteOptions("ZSTD", 0).status().code(), StatusCode::kInvalidArgument);

  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  for (int64_t i = 0; i < 20000; ++i) {
    ASSERT_TRUE(ids.Append(i * 3).ok());
    if (i % 11 == 0) ASSERT_TRUE(names.AppendNull().ok());
    else ASSERT_TRUE(names.Append("name-" + std::to_string(i % 97)).ok());
  }
  auto schema = arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
  auto batch = arrow::RecordBatch::Make(schema, 20000, {*ids.Finish(), *names.Finish()});
  auto encoded = EncodeArrowLogBatch(*batch, 1, *options);
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  auto plain = EncodeArrowLogBatch(*batch, 1, arrow::ipc::IpcWriteOptions::Defaults());
  ASSERT_TRUE(plain.ok());
  EXPECT_LT((*encoded)->size(), (*plain)->size() / 2);  // the body really is compressed
  auto header = ParseLogBatchHeader((*encoded)->data(), (*encoded)->size());
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(ComputeBatchCrc((*encoded)->data(), (*encoded)->size()), header->crc);
  auto decoded = DecodeArrowLogBatch(*encoded, *header, schema);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_NE(*decoded, nullptr);
  EXPECT_TRUE((*decoded)->Equals(*batch));
}

}  // namespace
}  // namespace fluss::record
