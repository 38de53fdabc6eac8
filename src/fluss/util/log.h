// Writing log lines to the sink set by fluss::SetLogSink (include/fluss/log.h).
//
// Thread affinity: any thread. A line below the sink's level (or with no sink) costs one
// relaxed atomic load: build the message only when LogEnabled says so, or use FLUSS_LOG.
#pragma once

#include <string>

#include "fluss/log.h"

namespace fluss::util {

/// Whether a line of `level` reaches a sink.
bool LogEnabled(LogLevel level);

/// Sends `message` to the sink when LogEnabled(level).
void Log(LogLevel level, const std::string& message);

}  // namespace fluss::util

/// Logs the std::string expression `message` at `level` (a fluss::LogLevel member name, e.g.
/// kInfo), evaluating it only when a sink takes that level.
#define FLUSS_LOG(level, message)                                            \
  do {                                                                       \
    if (::fluss::util::LogEnabled(::fluss::LogLevel::level))                 \
      ::fluss::util::Log(::fluss::LogLevel::level, (message));               \
  } while (false)
