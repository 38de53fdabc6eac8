#include "fluss/write/idempotence.h"

#include "fluss/util/log.h"

namespace fluss::write {

void IdempotenceManager::Stamp(WriteBatch& batch) {
  if (!enabled_ || batch.writer_id == writer_id_) return;
  batch.writer_id = writer_id_;
  batch.sequence = buckets_[batch.bucket()].next_sequence++;
  batch.SetWriterAndSequence(batch.writer_id, batch.sequence);
}

IdempotenceManager::OutOfOrder IdempotenceManager::OnOutOfOrderSequence(const WriteBatch& batch) const {
  if (!IsCurrent(batch)) return OutOfOrder::kResendInOrder;  // gets a new id and sequence
  auto it = buckets_.find(batch.bucket());
  const int32_t last_acked = it == buckets_.end() ? -1 : it->second.last_acked;
  if (batch.sequence <= last_acked) return OutOfOrder::kAlreadyWritten;
  if (batch.sequence == last_acked + 1) return OutOfOrder::kFailAndReset;
  return OutOfOrder::kResendInOrder;
}

void IdempotenceManager::OnAcked(const WriteBatch& batch) {
  BucketState& bs = buckets_[batch.bucket()];
  if (IsCurrent(batch)) bs.last_acked = std::max(bs.last_acked, batch.sequence);
  if (batch.attempts > 0 && bs.in_flight == 0) bs.retrying = false;
}

void IdempotenceManager::OnGivenUp(const WriteBatch& batch) {
  if (!IsCurrent(batch)) return;
  FLUSS_LOG(kWarning, "idempotent writer " + std::to_string(writer_id_) + " reset after a failed batch of " +
                          batch.bucket().ToString() + ": the next batches go out under a new writer id");
  Reset();
}

void IdempotenceManager::Reset() {
  writer_id_ = -1;
  for (auto& [bucket, bs] : buckets_) {
    bs.next_sequence = 0;
    bs.last_acked = -1;
    bs.retrying = false;
  }
}

}  // namespace fluss::write
