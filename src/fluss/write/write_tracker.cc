#include "fluss/write/write_tracker.h"

#include <string>

namespace fluss::write {

uint64_t WriteTracker::Begin() {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t id = next_id_++;
  incomplete_.insert(id);
  return id;
}

bool WriteTracker::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !incomplete_.empty();
}

void WriteTracker::Complete(uint64_t id, int64_t rows, const Status& st) {
  std::vector<std::pair<net::StatusCallback, Status>> answered;
  {
    std::lock_guard<std::mutex> lock(mu_);
    incomplete_.erase(id);
    if (!st.ok()) {
      // Every waiting flush that covers this write reports it; otherwise the next flush does.
      bool covered = false;
      for (auto& w : waiters_)
        if (id <= w.target) {
          w.failures.Add(rows, st);
          covered = true;
        }
      if (!covered) unreported_.Add(rows, st);
    }
    const uint64_t lowest = incomplete_.empty() ? UINT64_MAX : *incomplete_.begin();
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      if (lowest > it->target) {
        answered.emplace_back(std::move(it->done), it->failures.ToStatus());
        it = waiters_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& [cb, s] : answered) cb(s);
}

void WriteTracker::Flush(net::StatusCallback done) {
  Status outcome;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // This flush reports every failure since the previous one, also those of writes that
    // completed before it was called (fire-and-forget appends).
    FlushWaiter w{next_id_ - 1, std::move(unreported_), std::move(done)};
    unreported_ = FailureTally{};
    if (!incomplete_.empty() && *incomplete_.begin() <= w.target) {
      waiters_.push_back(std::move(w));
      return;
    }
    outcome = w.failures.ToStatus();  // nothing pending: answer at once
    done = std::move(w.done);
  }
  done(outcome);
}

Status WriteTracker::FailureTally::ToStatus() const {
  if (batches == 0) return Status::OK();
  return Status(first.code(), first.error_code(),
                "flush: since the previous flush, writes of " + std::to_string(rows) + " row(s) in " +
                    std::to_string(batches) + " batch(es) failed; first failure: " + first.ToString());
}

}  // namespace fluss::write
