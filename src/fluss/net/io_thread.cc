#include "fluss/net/io_thread.h"

namespace fluss::net {

IoThread::IoThread() : work_(asio::make_work_guard(io_)) {}

IoThread::~IoThread() {
  closed_ = true;
  work_.reset();
  io_.stop();
  if (thread_.joinable()) {
    if (OnThread()) thread_.detach();
    else thread_.join();
  }
}

void IoThread::Start(std::shared_ptr<void> keep_alive) {
  thread_ = std::thread([this, keep_alive = std::move(keep_alive)]() mutable {
    io_.run();
    io_done_.set_value();
    // keep_alive goes last: it may own this object. Its destructor then runs on this thread,
    // which the destructor above detects (the thread detaches itself).
    keep_alive.reset();
  });
}

void IoThread::CancelTimers() {
  for (auto& w : timers_)
    if (auto t = w.lock()) t->cancel();
  timers_.clear();
}

void IoThread::Stop() {
  closed_ = true;
  work_.reset();
  // Bounded: a stuck operation (a bug) must not hang the caller; then stop the loop instead.
  if (io_done_.get_future().wait_for(std::chrono::seconds(10)) != std::future_status::ready) io_.stop();
  if (thread_.joinable()) thread_.join();
  // Run what was posted after the loop ended (e.g. by a writer racing with Close): each sees
  // the closed state and ends, releasing what it holds.
  io_.restart();
  io_.poll();
}

std::shared_ptr<asio::steady_timer> IoThread::NewTimer() {
  auto t = std::make_shared<asio::steady_timer>(io_);
  if (timers_.size() >= 64) {
    std::erase_if(timers_, [](const std::weak_ptr<asio::steady_timer>& w) { return w.expired(); });
  }
  timers_.push_back(t);
  return t;
}

asio::awaitable<void> IoThread::Sleep(std::chrono::milliseconds d) {
  if (closed()) co_return;
  auto t = NewTimer();
  t->expires_after(d);
  asio::error_code ec;  // cancellation on shutdown is not an error here
  co_await t->async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

void IoThread::SpawnStatus(asio::awaitable<Status> aw, StatusCallback done) {
  if (closed()) {
    done(Status::Closed("the connection is closed"));
    return;
  }
  asio::co_spawn(io_, Deliver<Status, StatusCallback>(std::move(aw), std::move(done)), asio::detached);
}

}  // namespace fluss::net
