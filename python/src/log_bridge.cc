// The core's log lines (include/fluss/log.h) to Python's `logging`: the core's threads put each
// line in a bounded queue without touching the GIL (an I/O thread waiting for the GIL while the
// interpreter waits for that thread would hang), and a Python thread of fluss/_logging.py takes
// them with _log_wait and hands them to the logger "fluss".
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>

#include <nanobind/stl/pair.h>

#include "bindings.h"
#include "fluss/log.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

// Lines waiting beyond this are counted, not kept: a stuck logging handler must not grow the
// process without bound.
constexpr size_t kMaxQueuedLines = 10000;

struct LogQueue {
  std::mutex mu;  // a leaf lock
  std::condition_variable cv;
  std::deque<std::pair<int, std::string>> lines;
  uint64_t dropped = 0;  // lines lost to a full queue since the last _log_wait
  bool stopped = false;  // _log_stop: waits return at once (the interpreter is ending)
};

// Never destroyed: core threads may log until the process ends.
LogQueue& Queue() {
  static auto* q = new LogQueue;
  return *q;
}

void Enqueue(LogLevel level, std::string_view message) {
  LogQueue& q = Queue();
  {
    std::lock_guard<std::mutex> lock(q.mu);
    if (q.lines.size() >= kMaxQueuedLines) {
      ++q.dropped;
      return;
    }
    q.lines.emplace_back(static_cast<int>(level), std::string(message));
  }
  q.cv.notify_one();
}

}  // namespace

void BindLogBridge(nb::module_& m) {
  m.def(
      "_log_install", [](int min_level) { SetLogSink(Enqueue, static_cast<LogLevel>(min_level)); }, "min_level"_a,
      "Sends the core's log lines of `min_level` (a logging level: 10, 20, 30, 40) or above to the queue _log_wait reads.");
  m.def(
      "_log_wait",
      [](int64_t timeout_ms) {
        std::deque<std::pair<int, std::string>> lines;
        uint64_t dropped = 0;
        {
          nb::gil_scoped_release release;
          LogQueue& q = Queue();
          std::unique_lock<std::mutex> lock(q.mu);
          q.cv.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                        [&] { return !q.lines.empty() || q.dropped > 0 || q.stopped; });
          lines.swap(q.lines);
          std::swap(dropped, q.dropped);
        }
        return std::make_pair(std::vector<std::pair<int, std::string>>(std::make_move_iterator(lines.begin()),
                                                                       std::make_move_iterator(lines.end())),
                              dropped);
      },
      "timeout_ms"_a,
      "Waits up to `timeout_ms` (GIL released) for log lines; returns ([(level, message)], lines dropped).");
  m.def(
      "_log_stop",
      [] {
        LogQueue& q = Queue();
        {
          std::lock_guard<std::mutex> lock(q.mu);
          q.stopped = true;
        }
        q.cv.notify_all();
      },
      "Makes every _log_wait return at once from now on, so the thread taking the lines can end before "
      "the interpreter does (a thread waking in native code during finalization would be killed by an "
      "unwind that C++ frames do not allow).");
}

}  // namespace fluss::py
