#include "fluss/util/log.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace fluss {

namespace {

// Above every level: nothing is logged until a sink is set.
constexpr int kNoSink = 1000;

std::atomic<int> g_min_level{kNoSink};
std::mutex g_mu;                               // guards g_sink (a leaf lock)
std::shared_ptr<const LogSink> g_sink;         // the current sink, copied out to call it

}  // namespace

void SetLogSink(LogSink sink, LogLevel min_level) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (sink) {
    g_sink = std::make_shared<const LogSink>(std::move(sink));
    g_min_level.store(static_cast<int>(min_level), std::memory_order_relaxed);
  } else {
    g_sink.reset();
    g_min_level.store(kNoSink, std::memory_order_relaxed);
  }
}

namespace util {

bool LogEnabled(LogLevel level) { return static_cast<int>(level) >= g_min_level.load(std::memory_order_relaxed); }

void Log(LogLevel level, const std::string& message) {
  if (!LogEnabled(level)) return;
  std::shared_ptr<const LogSink> sink;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    sink = g_sink;
  }
  // Called outside the lock: a sink may take its own locks.
  if (sink) (*sink)(level, message);
}

}  // namespace util
}  // namespace fluss
