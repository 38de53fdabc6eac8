// The key-value state of one primary-key bucket as a Fluss 0.9.1 leader keeps it: the latest
// value of each key (protocol-data.md section 5), KV batches applied all or nothing under the
// same writer-id rules as log batches (fake_log.h WriterStates, protocol-rpc.md 9.3): a re-sent
// batch is answered as written and not applied again, a batch out of sequence is refused.
//
// Not modelled: merge engines (first_row, versioned, aggregation), partial updates (a row is
// stored as sent), and the changelog the server derives (log_end_offset counts the applied
// records instead of the changelog entries).
//
// Thread affinity: none; not thread-safe (the fake cluster guards it with its mutex).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "fake/fake_log.h"

namespace fluss::fake {

/// The outcome of one PutKv bucket.
struct PutOutcome {
  int32_t error_code = 0;
  std::string error_message;
  bool duplicate = false;       ///< the batch was applied before: nothing changed
  int64_t log_end_offset = 0;   ///< after the write
};

class BucketKv {
 public:
  /// Applies the KV batch `records` (upserts and deletes, in order). CORRUPT_RECORD_EXCEPTION
  /// (14) for a malformed batch or CRC mismatch, OUT_OF_ORDER_SEQUENCE_EXCEPTION (31) for a
  /// sequence that does not follow the writer's last one.
  PutOutcome Put(std::string_view records);
  /// The value bytes of `key` ([int16 LE schema id][row]), if the key has a row.
  std::optional<std::string> Get(const std::string& key) const;
  /// Every key and its value bytes.
  const std::map<std::string, std::string>& rows() const { return rows_; }
  /// KV batches applied (duplicates and refused ones not counted).
  int batches_applied() const { return batches_applied_; }

 private:
  std::map<std::string, std::string> rows_;
  WriterStates writers_;
  int64_t log_end_offset_ = 0;
  int batches_applied_ = 0;
};

}  // namespace fluss::fake
