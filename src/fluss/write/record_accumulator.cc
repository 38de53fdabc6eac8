#include "fluss/write/record_accumulator.h"

namespace fluss::write {

Result<RecordAccumulator::Appended> RecordAccumulator::Append(const std::shared_ptr<WriteTracker>& tracker,
                                                              const PhysicalBucket& bucket,
                                                              const WriteRecord& record, const BatchFactory& make) {
  std::lock_guard<std::mutex> lock(mu_);
  if (aborted_) return abort_status_;
  Appended out;
  auto it = FindOpenLocked(tracker.get(), bucket);
  std::unique_ptr<WriteBatch> fresh;
  WriteBatch* batch;
  if (it != open_.end()) {
    batch = it->second.get();
  } else {
    fresh = make(bucket);
    batch = fresh.get();
  }
  FLUSS_ASSIGN_OR_RETURN(const int64_t bytes, batch->Append(record));
  if (fresh) {
    // Registered only once it holds a record, so a refused first record leaves nothing behind.
    fresh->id = tracker->Begin();
    fresh->tracker = tracker;
    fresh->result = std::make_shared<WriteResult::State>();
    out.opened = fresh->id;
    it = open_.emplace(Key{tracker.get(), bucket}, std::move(fresh)).first;
    last_ = it;
  }
  batch->bytes += bytes;
  ++batch->rows;
  memory_.Reserve(bytes);
  out.result = batch->result;
  if (batch->size_in_bytes() >= batch_size_) {
    CloseLocked(it);
    out.batch_full = true;
  }
  return out;
}

Status RecordAccumulator::AddClosed(const std::shared_ptr<WriteTracker>& tracker, std::unique_ptr<WriteBatch> batch,
                                    std::shared_ptr<WriteResult::State> result, int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (aborted_) return abort_status_;
  auto it = FindOpenLocked(tracker.get(), batch->physical_bucket());
  if (it != open_.end()) CloseLocked(it);
  batch->id = tracker->Begin();
  batch->tracker = tracker;
  batch->result = std::move(result);
  batch->bytes = bytes;
  memory_.Reserve(bytes);
  closed_.push_back(Closed{std::move(batch), Status::OK()});
  return Status::OK();
}

RecordAccumulator::OpenMap::iterator RecordAccumulator::FindOpenLocked(const WriteTracker* tracker,
                                                                     const PhysicalBucket& bucket) {
  // Consecutive rows mostly go to the same batch: checked without building a Key (a string copy).
  if (last_ != open_.end() && last_->first.first == tracker && last_->first.second == bucket) return last_;
  auto it = open_.find(Key{tracker, bucket});
  if (it != open_.end()) last_ = it;
  return it;
}

void RecordAccumulator::CloseLocked(OpenMap::iterator it) {
  if (it == last_) last_ = open_.end();
  std::unique_ptr<WriteBatch> batch = std::move(it->second);
  open_.erase(it);
  // A failure cannot happen for validated rows; the sender fails the batch rather than lose it.
  Status st = batch->Close();
  closed_.push_back(Closed{std::move(batch), std::move(st)});
}

void RecordAccumulator::CloseAll(const WriteTracker* tracker) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = open_.begin(); it != open_.end();) {
    auto next = std::next(it);
    if (!tracker || it->first.first == tracker) CloseLocked(it);
    it = next;
  }
}

bool RecordAccumulator::CloseIfOpen(const WriteTracker* tracker, const PhysicalBucket& bucket, uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = FindOpenLocked(tracker, bucket);
  if (it == open_.end() || it->second->id != id) return false;
  CloseLocked(it);
  return true;
}

std::vector<RecordAccumulator::Closed> RecordAccumulator::TakeClosed() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Closed> out(std::make_move_iterator(closed_.begin()), std::make_move_iterator(closed_.end()));
  closed_.clear();
  return out;
}

std::vector<RecordAccumulator::Closed> RecordAccumulator::Abort(const Status& status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    aborted_ = true;
    abort_status_ = status;
  }
  CloseAll(nullptr);
  return TakeClosed();
}

}  // namespace fluss::write
