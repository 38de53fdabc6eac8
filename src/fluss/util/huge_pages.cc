// The regions, chunks and cache of huge_pages.h.
#include "fluss/util/huge_pages.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLUSS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FLUSS_ASAN 1
#endif
#ifdef FLUSS_ASAN
#include <sanitizer/asan_interface.h>
// Freed slices and cached memory are poisoned, so a use after free still fails under ASan.
#define FLUSS_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define FLUSS_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define FLUSS_POISON(p, n) ((void)(p), (void)(n))
#define FLUSS_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace fluss::util::huge_pages {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kSmallPage = 4096;
// A chunk's first bytes: how many references it has (its live slices, plus one while it is
// the current chunk of its thread).
struct ChunkHeader {
  std::atomic<int64_t> refs;
};
constexpr size_t kHeaderSize = kAlignment;
static_assert(sizeof(ChunkHeader) <= kHeaderSize);

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

/// A fresh mapping of `size` bytes aligned at `align` (a power of two, at least the page size),
/// advised MADV_HUGEPAGE; nullptr when mmap fails.
uint8_t* MapAligned(size_t size, size_t align) {
  const size_t span = size + align;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = RoundUp(start, align);
  // Unmap what is before and after the aligned span.
  if (aligned > start) ::munmap(raw, aligned - start);
  const uintptr_t end = aligned + size, span_end = start + span;
  if (span_end > end) ::munmap(reinterpret_cast<void*>(end), span_end - end);
  auto* p = reinterpret_cast<uint8_t*>(aligned);
#ifdef MADV_HUGEPAGE
  (void)::madvise(p, size, MADV_HUGEPAGE);  // advice: refused or unsupported is fine
#endif
  return p;
}

/// Mapped memory, the cache of freed regions and chunks, and the sizes of live regions.
class Mappings {
 public:
  static Mappings& Get() {
    static Mappings* m = new Mappings();  // leaked: slices may be freed during static teardown
    return *m;
  }

  uint8_t* NewRegion(size_t size) {
    const size_t capacity = RoundUp(size, kSmallPage);
    uint8_t* p = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      // The smallest cached region that fits, wasting at most a quarter of it.
      auto best = cached_regions_.end();
      for (auto it = cached_regions_.begin(); it != cached_regions_.end(); ++it)
        if (it->second >= capacity && it->second - capacity <= it->second / 4 &&
            (best == cached_regions_.end() || it->second < best->second))
          best = it;
      if (best != cached_regions_.end()) {
        p = best->first;
        live_regions_[p] = best->second;
        cached_bytes_ -= best->second;
        FLUSS_UNPOISON(p, best->second);
        cached_regions_.erase(best);
        return p;
      }
    }
    p = MapAligned(capacity, kHugePage);
    if (!p) return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    live_regions_[p] = capacity;
    mapped_bytes_ += capacity;
    return p;
  }

  void FreeRegion(uint8_t* p) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_regions_.find(p);
    if (it == live_regions_.end()) return;  // not ours: a caller's bug, never unmap blindly
    const size_t capacity = it->second;
    live_regions_.erase(it);
    Keep(p, capacity, /*chunk=*/false);
  }

  /// A chunk with one reference (its thread's), or nullptr.
  ChunkHeader* NewChunk() {
    uint8_t* p = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!cached_chunks_.empty()) {
        p = cached_chunks_.back();
        cached_chunks_.pop_back();
        cached_bytes_ -= kChunkSize;
        FLUSS_UNPOISON(p, kHeaderSize);
      }
    }
    if (!p) {
      p = MapAligned(kChunkSize, kChunkSize);
      if (!p) return nullptr;
      std::lock_guard<std::mutex> lock(mu_);
      mapped_bytes_ += kChunkSize;
      FLUSS_POISON(p + kHeaderSize, kChunkSize - kHeaderSize);
    }
    return new (p) ChunkHeader{1};
  }

  void FreeChunk(ChunkHeader* h) {
    h->~ChunkHeader();
    std::lock_guard<std::mutex> lock(mu_);
    Keep(reinterpret_cast<uint8_t*>(h), kChunkSize, /*chunk=*/true);
  }

  size_t mapped() {
    std::lock_guard<std::mutex> lock(mu_);
    return mapped_bytes_;
  }
  size_t cached() {
    std::lock_guard<std::mutex> lock(mu_);
    return cached_bytes_;
  }

 private:
  /// Caches `p` while the cache has room, else unmaps it. mu_ held.
  void Keep(uint8_t* p, size_t size, bool chunk) {
    if (cached_bytes_ + size <= kCacheBytes) {
      FLUSS_POISON(p, size);
      cached_bytes_ += size;
      if (chunk) cached_chunks_.push_back(p);
      else cached_regions_.emplace_back(p, size);
      return;
    }
    FLUSS_UNPOISON(p, size);
    ::munmap(p, size);
    mapped_bytes_ -= size;
  }

  std::mutex mu_;  // a leaf: nothing else is locked or called under it but mmap/munmap
  std::unordered_map<uint8_t*, size_t> live_regions_;            // mu_: start -> capacity
  std::vector<std::pair<uint8_t*, size_t>> cached_regions_;      // mu_
  std::vector<uint8_t*> cached_chunks_;                          // mu_
  size_t cached_bytes_ = 0;                                      // mu_
  size_t mapped_bytes_ = 0;                                      // mu_
};

/// Drops one reference of the chunk; the last one recycles it.
void Unref(ChunkHeader* h) {
  if (h->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) Mappings::Get().FreeChunk(h);
}

/// The chunk the calling thread carves slices from.
struct CurrentChunk {
  ChunkHeader* chunk = nullptr;
  size_t used = 0;  // bytes of it handed out, header included
  ~CurrentChunk() {
    if (chunk) Unref(chunk);
  }
};
thread_local CurrentChunk t_current;

#ifdef FLUSS_ASAN
constexpr size_t kRedZone = kAlignment;  // poisoned bytes after each slice: overruns are reported
#else
constexpr size_t kRedZone = 0;
#endif

uint8_t* AllocateSlice(size_t size) {
  const size_t span = RoundUp(size, kAlignment) + kRedZone;
  CurrentChunk& c = t_current;
  if (!c.chunk || c.used + span > kChunkSize) {
    ChunkHeader* next = Mappings::Get().NewChunk();
    if (!next) return nullptr;
    if (c.chunk) Unref(c.chunk);
    c.chunk = next;
    c.used = kHeaderSize;
  }
  uint8_t* p = reinterpret_cast<uint8_t*>(c.chunk) + c.used;
  c.used += span;
  c.chunk->refs.fetch_add(1, std::memory_order_relaxed);
  FLUSS_UNPOISON(p, size);
  return p;
}

void FreeSlice(uint8_t* p, size_t size) {
  FLUSS_POISON(p, size);
  auto* h = reinterpret_cast<ChunkHeader*>(reinterpret_cast<uintptr_t>(p) & ~(uintptr_t{kChunkSize} - 1));
  Unref(h);
}

}  // namespace

uint8_t* Allocate(size_t size) {
  if (size == 0) size = 1;
  return size > kSliceMax ? Mappings::Get().NewRegion(size) : AllocateSlice(size);
}

void Free(uint8_t* p, size_t size) {
  if (!p) return;
  if (size == 0) size = 1;
  if (size > kSliceMax) Mappings::Get().FreeRegion(p);
  else FreeSlice(p, size);
}

size_t MappedBytes() { return Mappings::Get().mapped(); }
size_t CachedBytes() { return Mappings::Get().cached(); }

}  // namespace fluss::util::huge_pages
