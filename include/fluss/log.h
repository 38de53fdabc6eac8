// fluss::SetLogSink: where libfluss's log lines go (connections made and lost, metadata
// refreshes, bucket leaders moving, retried writes and reads, idempotent writer resets).
// By default they go nowhere. The Python package hands them to the `logging` logger "fluss".
#pragma once

#include <functional>
#include <string_view>

namespace fluss {

/// Severity of a log line, as Python's logging levels (DEBUG, INFO, WARNING, ERROR).
enum class LogLevel : int { kDebug = 10, kInfo = 20, kWarning = 30, kError = 40 };

/// Receives one log line. Called on the thread that logs, often the connection's I/O thread:
/// it must return quickly and must not call into libfluss.
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

/// Sends every log line of `min_level` or above, process-wide, to `sink` (replacing the one
/// set before); an empty `sink` drops them all again. Thread-safe; lines being logged while
/// the sink changes go to the old or the new one.
void SetLogSink(LogSink sink, LogLevel min_level = LogLevel::kInfo);

}  // namespace fluss
