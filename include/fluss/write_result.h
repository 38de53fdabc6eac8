// fluss::WriteResult: the completion handle of one write.
#pragma once

#include <memory>
#include "fluss/callbacks.h"

namespace fluss {

/// Completion of one write: resolves when the server acknowledged the batch holding it (OK:
/// stored on the replicas writer.acks asks for), or when the batch failed: a non-retriable
/// server error, writer.retries exhausted, client.writer.delivery-timeout passed (kTimeout; the
/// message says when the batch had been sent and so may be stored), or the connection closed.
class WriteResult {
 public:
  struct State;
  WriteResult() = default;
  explicit WriteResult(std::shared_ptr<State> state) : state_(std::move(state)) {}
  /// Calls `done` once with the outcome, immediately (on the calling thread) if already known,
  /// otherwise on the I/O thread.
  void OnComplete(StatusCallback done) const;
  /// Blocks until the outcome is known.
  Status Wait() const;
  /// True when the outcome is known.
  bool done() const;
  /// True when both handles are of the same batch (so share one outcome): lets a binding hand
  /// out one handle object for the rows of a batch.
  bool SameOutcomeAs(const WriteResult& other) const { return state_ == other.state_; }

 private:
  std::shared_ptr<State> state_;
};

}  // namespace fluss
