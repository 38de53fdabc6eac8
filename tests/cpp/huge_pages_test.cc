// util/huge_pages.h: slices carved from per-thread chunks, regions of their own, and the cache
// of freed memory. The mappings are process-wide, so each test works on threads of its own and
// checks changes of the counters, not their absolute values.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "fluss/util/huge_pages.h"

namespace {

namespace hp = fluss::util::huge_pages;

struct Block {
  uint8_t* p;
  size_t size;
  uint8_t fill;
};

/// Allocates `n` slices of sizes 1..kSliceMax (seeded), each filled with its own byte.
std::vector<Block> FillSlices(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Block> blocks;
  for (int i = 0; i < n; ++i) {
    // Mostly small, some near the limit: both the carving and the chunk change are exercised.
    const size_t size = (i % 10 == 0) ? hp::kSliceMax - rng() % 1000 : 1 + rng() % 70000;
    uint8_t* p = hp::Allocate(size);
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % hp::kAlignment, 0u) << size;
    const auto fill = static_cast<uint8_t>(i * 37 + 1);
    std::memset(p, fill, size);
    blocks.push_back({p, size, fill});
  }
  return blocks;
}

/// Every block still holds its own byte: no two overlap.
void ExpectIntact(const std::vector<Block>& blocks) {
  for (const Block& b : blocks)
    for (size_t i = 0; i < b.size; i += 509) ASSERT_EQ(b.p[i], b.fill) << "block of " << b.size << " at byte " << i;
  for (const Block& b : blocks) ASSERT_EQ(b.p[b.size - 1], b.fill);
}

void FreeAll(const std::vector<Block>& blocks) {
  for (const Block& b : blocks) hp::Free(b.p, b.size);
}

TEST(HugePages, SlicesAreAlignedAndDisjoint) {
  std::thread([] {
    auto blocks = FillSlices(300, 7);
    ExpectIntact(blocks);
    FreeAll(blocks);
  }).join();
}

TEST(HugePages, ChunksOfAFinishedRoundAreReused) {
  // A round of slices well within the cache (about 4 slices of ~1 MiB and 36 small ones: one
  // or two chunks), its thread gone: its chunks are cached, so the same round again, at its
  // peak, has mapped nothing new.
  auto round = [](size_t* peak) {
    auto blocks = FillSlices(40, 11);
    ExpectIntact(blocks);
    if (peak) *peak = hp::MappedBytes();
    FreeAll(blocks);
  };
  std::thread(round, nullptr).join();
  ASSERT_GE(hp::CachedBytes(), hp::kChunkSize);
  const size_t mapped = hp::MappedBytes();
  size_t peak = 0;
  std::thread(round, &peak).join();
  EXPECT_EQ(peak, mapped);
}

TEST(HugePages, ASliceKeepsItsChunkAfterItsThreadMovedOn) {
  Block kept{};
  std::thread([&] {
    kept.size = 1000;
    kept.p = hp::Allocate(kept.size);
    kept.fill = 0x5A;
    std::memset(kept.p, kept.fill, kept.size);
  }).join();
  // Its thread has exited (dropping its hold on the chunk); other threads' slices must not
  // land on it (they would overwrite it; ASan would also report the poisoned memory).
  std::thread([] { FreeAll(FillSlices(50, 3)); }).join();
  ExpectIntact({kept});
  // Freed on this thread, another than the one that carved it: the chunk is recycled, cached
  // when the cache has room, else unmapped.
  const size_t cached = hp::CachedBytes(), mapped = hp::MappedBytes();
  hp::Free(kept.p, kept.size);
  if (cached + hp::kChunkSize <= hp::kCacheBytes) {
    EXPECT_EQ(hp::CachedBytes(), cached + hp::kChunkSize);
    EXPECT_EQ(hp::MappedBytes(), mapped);
  } else {
    EXPECT_EQ(hp::CachedBytes(), cached);
    EXPECT_EQ(hp::MappedBytes(), mapped - hp::kChunkSize);
  }
}

TEST(HugePages, RegionsAreReusedWhenTheyFitAndUnmappedBeyondTheCache) {
  const size_t size = 3 * (size_t{1} << 20) + 123;
  uint8_t* a = hp::Allocate(size);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % (size_t{2} << 20), 0u);
  std::memset(a, 1, size);
  const size_t cached = hp::CachedBytes();
  hp::Free(a, size);
  const bool was_cached = hp::CachedBytes() > cached;  // no room in the cache: unmapped
  // The same size again: the cached region when it was cached.
  uint8_t* b = hp::Allocate(size);
  ASSERT_NE(b, nullptr);
  if (was_cached) EXPECT_EQ(b, a);
  std::memset(b, 2, size);
  hp::Free(b, size);

  // Larger than the whole cache: unmapped on free.
  const size_t mapped = hp::MappedBytes();
  const size_t big = hp::kCacheBytes + 4096;
  uint8_t* c = hp::Allocate(big);
  ASSERT_NE(c, nullptr);
  EXPECT_GE(hp::MappedBytes(), mapped + big);
  c[0] = 1;
  c[big - 1] = 2;
  hp::Free(c, big);
  EXPECT_EQ(hp::MappedBytes(), mapped);
}

TEST(HugePages, ManyThreadsAllocateAndFreeEachOthersSlices) {
  // Each thread frees the slices of the thread before it (TSan and ASan check the rest).
  constexpr int kThreads = 4;
  std::vector<std::vector<Block>> made(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&made, t] { made[t] = FillSlices(100, 100 + t); });
  for (auto& th : threads) th.join();
  threads.clear();
  for (int t = 0; t < kThreads; ++t) ExpectIntact(made[t]);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&made, t] { FreeAll(made[(t + 1) % kThreads]); });
  for (auto& th : threads) th.join();
}

}  // namespace
