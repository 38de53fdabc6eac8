// Idempotent writes (protocol-rpc.md section 9): one writer id per connection, a batch
// sequence per table bucket, and what a sequence error means for a batch.
//
// Thread affinity: I/O thread only (owned by the sender).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "fluss/metadata/table_bucket.h"
#include "fluss/types.h"
#include "fluss/write/write_batch.h"

namespace fluss::write {

class IdempotenceManager {
 public:
  /// `enabled`: client.writer.enable-idempotence.
  explicit IdempotenceManager(bool enabled) : enabled_(enabled) {}

  /// Per-bucket send state (also used without idempotence, for the in-flight count).
  struct BucketState {
    int32_t next_sequence = 0;  ///< sequence of the next new batch
    int32_t last_acked = -1;    ///< highest acknowledged sequence under the current writer id
    int in_flight = 0;
    bool retrying = false;      ///< a batch is being retried: one in flight until it succeeds
  };

  bool enabled() const { return enabled_; }
  /// True when batches may be sent: idempotence is off, or a writer id was obtained.
  bool ready() const { return !enabled_ || writer_id_ >= 0; }
  void SetWriterId(int64_t id) { writer_id_ = id; }

  BucketState& bucket(const metadata::TableBucket& b) { return buckets_[b]; }
  /// Batches of `b` allowed in flight: 5 with idempotence (the server remembers the last 5
  /// sequences), 1 without it or while a batch of the bucket is retried.
  int MaxInFlight(const metadata::TableBucket& b) { return enabled_ && !buckets_[b].retrying ? 5 : 1; }

  /// Gives `batch` the current writer id and the bucket's next sequence, unless it already
  /// carries them (a retry keeps its sequence); rewrites its header when it changes. A batch
  /// that InDoubtUnderOldWriterId must not be stamped again.
  void Stamp(WriteBatch& batch);
  /// True when `batch` carries a sequence of the current writer id.
  bool IsCurrent(const WriteBatch& batch) const {
    return enabled_ && writer_id_ >= 0 && batch.writer_id == writer_id_;
  }
  /// True when `batch` was sent under a writer id that has been replaced since and one of its
  /// sends may have been stored (`maybe_stored`): the server may hold it under the old id, so
  /// sending it under the new id (a new sequence the server cannot match to the old one) could
  /// store it twice. Such a batch fails instead of being retried, as in the Java client
  /// (Sender: "the writer id has changed ... This batch will be dropped").
  bool InDoubtUnderOldWriterId(const WriteBatch& batch) const {
    return enabled_ && batch.writer_id >= 0 && batch.writer_id != writer_id_ && batch.maybe_stored;
  }

  /// What OUT_OF_ORDER_SEQUENCE (31) means for `batch` (section 9.4 and the HEAD improvement).
  enum class OutOfOrder {
    kAlreadyWritten,  ///< its sequence is <= the last acked: an earlier attempt was written
    kResendInOrder,   ///< an earlier batch failed and is retried first, or an old writer id
    kFailAndReset,    ///< the next expected batch: the server lost the writer's state
  };
  OutOfOrder OnOutOfOrderSequence(const WriteBatch& batch) const;
  /// Records an acknowledged batch.
  void OnAcked(const WriteBatch& batch);
  /// A batch is given up on: if it consumed a sequence of the current writer id, the gap it
  /// leaves would be refused forever, so start over with a new writer id.
  void OnGivenUp(const WriteBatch& batch);

  /// Tables the writer id is asked for (InitWriter needs WRITE on one of them).
  void AddTable(const TablePath& path) { tables_[path.ToString()] = path; }
  const std::map<std::string, TablePath>& tables() const { return tables_; }

 private:
  /// Forgets the writer id and every sequence.
  void Reset();

  const bool enabled_;
  int64_t writer_id_ = -1;
  std::map<metadata::TableBucket, BucketState> buckets_;
  std::map<std::string, TablePath> tables_;
};

}  // namespace fluss::write
