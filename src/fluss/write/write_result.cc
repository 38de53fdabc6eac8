// WriteResult: the shared completion of the batch (or batches) holding a write.
#include "fluss/write/write_result_state.h"

namespace fluss {

void WriteResult::State::CompletePart(const Status& st) {
  std::vector<StatusCallback> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!st.ok() && status.ok()) status = st;
    if (--parts > 0) return;
    done = true;
    callbacks = std::move(waiters);
  }
  cv.notify_all();
  for (auto& cb : callbacks) cb(status);
}

void WriteResult::OnComplete(StatusCallback cb) const {
  if (!state_) return cb(Status::OK());
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!state_->done) {
      state_->waiters.push_back(std::move(cb));
      return;
    }
  }
  cb(state_->status);
}

Status WriteResult::Wait() const {
  if (!state_) return Status::OK();
  std::unique_lock<std::mutex> lock(state_->mu);
  state_->cv.wait(lock, [&] { return state_->done; });
  return state_->status;
}

bool WriteResult::done() const {
  if (!state_) return true;
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->done;
}

}  // namespace fluss
