// FetchSizeHint: how many bytes the next fetch of one bucket asks for, learnt from the batches
// the server cut (a fact protocol-rpc.md 11.3 leaves out: the real 0.9.1 server answers a
// bucket's fetch with at most its byte limit, cutting the last batch there, except for the first
// bucket of a request, which gets its first batch whole).
//
// With a 1 MiB per-bucket limit (client.scanner.log.fetch.max-bytes-for-bucket) and batches
// larger than that, a scanner that always asks for the limit receives a cut part of each batch
// and drops it (1M rows in 64 buckets: 364 MB received for 56 MB of data). Reusing the size of
// the last cut batch instead still cut every batch a few bytes larger than the one before it
// (3 buckets of 1.84 MB batches: 67 MB received for 54 MB). So:
// - when the last answer ended in a cut batch, whose header gives its size, ask for exactly
//   that size;
// - otherwise ask for the largest cut batch seen plus 1/64: a writer's batches are about the
//   same size, the headroom covers what they differ by, and the part of the following batch it
//   takes tells that batch's exact size for the fetch after.
// Never more than client.scanner.log.fetch.max-bytes (memory a fetch may take).
//
// Thread affinity: none; the scanner keeps one per subscribed bucket under its mutex.
#pragma once

#include <algorithm>
#include <cstdint>

namespace fluss::scan {

class FetchSizeHint {
 public:
  /// The answer moved the bucket's position: the size of the batch now at it is unknown.
  void OnNewPosition() { next_batch_bytes_ = 0; }
  /// The answer ended in a batch of `batch_bytes` bytes (its whole size) cut at the limit;
  /// `fetch_max_bytes`: client.scanner.log.fetch.max-bytes.
  void OnCutBatch(int64_t batch_bytes, int64_t fetch_max_bytes) {
    next_batch_bytes_ = std::min(batch_bytes, fetch_max_bytes);
    largest_cut_batch_bytes_ = std::max(largest_cut_batch_bytes_, next_batch_bytes_);
  }
  /// The byte limit for the next fetch of the bucket, or 0 when nothing was cut yet (then the
  /// per-bucket limit applies); at most `fetch_max_bytes`.
  int64_t BytesToAsk(int64_t fetch_max_bytes) const {
    if (next_batch_bytes_ > 0) return next_batch_bytes_;
    return std::min(fetch_max_bytes, largest_cut_batch_bytes_ + largest_cut_batch_bytes_ / 64);
  }

 private:
  int64_t next_batch_bytes_ = 0;        // of the batch at the position, when known
  int64_t largest_cut_batch_bytes_ = 0;  // since the subscription
};

}  // namespace fluss::scan
