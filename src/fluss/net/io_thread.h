// The I/O thread of a connection: one asio::io_context run by one thread, the timers it owns
// and the closing sequence that lets every operation on it end.
//
// Thread affinity: Start, MarkClosed, Stop, Post, Spawn, SpawnStatus, closed() and OnThread()
// may be called from any thread; NewTimer and Sleep run on the I/O thread only.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <asio.hpp>

#include "fluss/status.h"

namespace fluss::net {

using Clock = std::chrono::steady_clock;

template <typename T>
using Callback = std::function<void(Result<T>)>;
using StatusCallback = std::function<void(Status)>;

class IoThread {
 public:
  IoThread();
  /// Stops the loop and joins the thread if Stop was not called (from the thread itself the
  /// thread is detached instead).
  ~IoThread();
  IoThread(const IoThread&) = delete;
  IoThread& operator=(const IoThread&) = delete;

  /// Starts the thread. `keep_alive` is held until the loop ends, so the owner of this object
  /// is never destroyed while its io_context runs (a callback may drop the last user
  /// reference).
  void Start(std::shared_ptr<void> keep_alive);

  asio::io_context& io() { return io_; }
  bool closed() const { return closed_.load(); }
  /// True on the I/O thread.
  bool OnThread() const { return std::this_thread::get_id() == thread_.get_id(); }

  /// Marks the loop as closing: Sleep returns at once, Spawn answers kClosed.
  void MarkClosed() { closed_ = true; }
  /// Cancels every timer made by NewTimer (I/O thread only, as part of closing).
  void CancelTimers();
  /// Ends the loop after MarkClosed: lets it run out of work (bounded by 10 s, then stops it),
  /// joins the thread, and runs what was posted after the end so every handler sees the
  /// closed state and releases what it holds. Not from the I/O thread.
  void Stop();

  /// A timer that CancelTimers cancels, so no wait outlives the connection (I/O thread only).
  std::shared_ptr<asio::steady_timer> NewTimer();
  /// Sleeps on the I/O thread; returns at once when closing (I/O thread only).
  asio::awaitable<void> Sleep(std::chrono::milliseconds d);

  /// Runs `aw` on the I/O thread and hands its result to `done` (on the I/O thread). When
  /// closed, `done` gets kClosed at once. An exception escaping `aw` (a bug) becomes kInternal.
  template <typename T>
  void Spawn(asio::awaitable<Result<T>> aw, Callback<T> done);
  void SpawnStatus(asio::awaitable<Status> aw, StatusCallback done);

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
  std::atomic<bool> closed_{false};
  std::vector<std::weak_ptr<asio::steady_timer>> timers_;  // I/O thread: cancelled on close
  std::promise<void> io_done_;                              // set when the loop's run ends
};

// ---- templates ----

/// Awaits `aw` (yielding a Status or a Result<T>) and hands the outcome to `done`; an
/// exception escaping the operation (a bug) becomes kInternal instead of a callback that
/// never comes.
template <typename R, typename Done>
asio::awaitable<void> Deliver(asio::awaitable<R> aw, Done done) {
  std::string error;
  try {
    R r = co_await std::move(aw);
    done(std::move(r));
    co_return;
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "unknown exception";
  }
  done(Status::Internal("unexpected exception in the client: " + error));
}

template <typename T>
void IoThread::Spawn(asio::awaitable<Result<T>> aw, Callback<T> done) {
  if (closed()) {
    done(Status::Closed("the connection is closed"));
    return;
  }
  asio::co_spawn(io_, Deliver<Result<T>, Callback<T>>(std::move(aw), std::move(done)), asio::detached);
}

}  // namespace fluss::net
