// Memory for the large buffers a scan fills and keeps (fetched response frames, decoded log
// batches), backed by 2 MiB pages.
//
// Why: what a scan hands out lands in memory the process never touched, and the kernel maps such
// memory 4 KiB at a time, one page fault each: 64 MiB cost ~55 ms of system CPU here (16k
// faults), the whole extra cost of a first to_arrow and most of the kernel's 18% of a ZSTD scan
// (perf, issue 11). Advised MADV_HUGEPAGE (transparent huge pages; "madvise" is the usual kernel
// default), the same 64 MiB is faulted in 32 pieces for ~10 ms. Where the kernel gives no huge
// pages the advice is ignored and this costs what malloc would.
//
// Two shapes, told apart by the size given back to Free:
//   - a region: one mapping (2 MiB aligned) of its own, for a buffer over kSliceMax bytes;
//   - a slice: smaller buffers are carved one after another from a kChunkSize chunk of the
//     calling thread; a chunk is recycled when its last slice is freed and its thread has moved
//     on to another chunk.
// Freed regions and chunks are kept for reuse up to kCacheBytes in all (a scan that reads again
// after dropping what it read faults nothing); beyond that they are unmapped.
//
// Thread safety: every function may be called on any thread; a slice may be freed on any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fluss::util::huge_pages {

inline constexpr size_t kChunkSize = size_t{8} << 20;  ///< mapped at its own alignment
inline constexpr size_t kSliceMax = size_t{1} << 20;   ///< larger buffers get a region
inline constexpr size_t kCacheBytes = size_t{32} << 20;
inline constexpr size_t kAlignment = 64;  ///< of every buffer returned

/// `size` bytes (at least 1), kAlignment aligned, not zero-filled (fresh pages are zero; reused
/// ones hold old bytes); nullptr when the system cannot map more memory. Give it back with
/// Free(p, size), the same `size`.
uint8_t* Allocate(size_t size);
void Free(uint8_t* p, size_t size);

/// Bytes mapped now: regions and chunks in use or cached (for tests and metrics).
size_t MappedBytes();
/// Bytes mapped now that are cached for reuse.
size_t CachedBytes();

}  // namespace fluss::util::huge_pages
