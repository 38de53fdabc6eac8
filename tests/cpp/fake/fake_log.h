// The log of one bucket as a Fluss 0.9.1 leader keeps it (protocol-rpc.md 9.3, 11.1, 11.3):
// record batches at consecutive offsets, and per writer id the metadata of its last five
// batches, so a re-sent batch is answered with its original offset instead of being stored
// twice and a batch out of sequence is refused with OUT_OF_ORDER_SEQUENCE_EXCEPTION (31).
//
// The fake has no followers, so the high watermark is the log end offset, and no retention, so
// the log start offset is 0. Writer ids never expire here (a real server forgets a writer after
// server.writer-id.expiration-time, 7 days by default).
//
// Thread affinity: none; not thread-safe (the fake cluster guards it with its mutex).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fluss/record/log_batch.h"

namespace fluss::fake {

/// A batch as the leader stored it: base offset and commit timestamp assigned.
struct StoredBatch {
  record::LogBatchHeader header;
  std::string bytes;  ///< the whole batch, header included
};

/// The outcome of one append (one bucket's `records` of a ProduceLog request).
struct AppendOutcome {
  int32_t error_code = 0;  ///< 0, or the per-bucket error the real server answers
  std::string error_message;
  int64_t base_offset = -1;  ///< first offset of the batches, the original one for a duplicate
  bool duplicate = false;    ///< a batch of the records was stored before: nothing appended
};

/// The writer state a leader keeps per bucket (WriterStateEntry): per writer id the last
/// sequence and the offsets of its last five batches.
class WriterStates {
 public:
  /// What the next batch `sequence` of `writer` is: a duplicate of a remembered batch (its
  /// offset in `*duplicate_offset`), in sequence, or out of order (the message in `*error`).
  /// `last_in_request` overrides the writer's last sequence (batches earlier in one request).
  enum class Verdict { kInSequence, kDuplicate, kOutOfOrder };
  Verdict Check(int64_t writer, int32_t sequence, std::optional<int32_t> last_in_request, int64_t* duplicate_offset,
                std::string* error) const;
  /// Remembers batch `sequence` of `writer`, stored at `offset`.
  void Record(int64_t writer, int32_t sequence, int64_t offset);

 private:
  struct Writer {
    int32_t last_sequence = -1;
    std::deque<std::pair<int32_t, int64_t>> recent;  ///< (sequence, offset), the last five
  };
  std::map<int64_t, Writer> writers_;
};

class BucketLog {
 public:
  /// Appends the batches of `records` (back to back, each self-delimited) as the leader does:
  /// all of them or none. A batch whose writer id and sequence match one of the writer's last
  /// five is a duplicate: nothing is appended and its original base offset is returned. A batch
  /// of a known writer must carry the writer's last sequence + 1 (0 after INT32_MAX), the first
  /// batch of an unknown writer sequence 0; otherwise 31. A malformed batch or CRC mismatch gives
  /// CORRUPT_RECORD_EXCEPTION (14). Batches without writer id (-1) are always appended.
  /// `commit_timestamp_ms` is written into the stored headers.
  AppendOutcome Append(std::string_view records, int64_t commit_timestamp_ms);

  /// Every stored batch, in offset order.
  const std::vector<StoredBatch>& batches() const { return batches_; }
  /// Next offset to be assigned; also the high watermark (no followers).
  int64_t end_offset() const { return end_offset_; }
  /// The stored batches a fetch at `offset` returns: from the batch holding `offset` on, whole
  /// batches while they fit in `max_bytes`; with `min_one`, at least one (the server's "min one
  /// message" for the first bucket of a fetch with data).
  std::string Read(int64_t offset, int32_t max_bytes, bool min_one) const;
  /// The first offset whose batch was committed at or after `timestamp_ms`, else end_offset().
  int64_t OffsetForTimestamp(int64_t timestamp_ms) const;

 private:
  std::vector<StoredBatch> batches_;
  int64_t end_offset_ = 0;
  WriterStates writers_;
};

}  // namespace fluss::fake
