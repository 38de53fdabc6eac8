// fluss::SetLogSink (include/fluss/log.h) and util::Log / FLUSS_LOG: lines at or above the
// sink's level reach it, in order; lines below it, or with no sink, cost nothing and go nowhere.
#include "fluss/util/log.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace fluss {
namespace {

struct Captured {
  std::vector<std::pair<LogLevel, std::string>> lines;
};

TEST(LogSink, LinesAtOrAboveTheLevelReachTheSinkInOrder) {
  Captured c;
  SetLogSink([&c](LogLevel l, std::string_view m) { c.lines.emplace_back(l, std::string(m)); }, LogLevel::kInfo);
  int built = 0;
  auto message = [&built](const char* s) {
    ++built;
    return std::string(s);
  };
  FLUSS_LOG(kDebug, message("not this"));
  FLUSS_LOG(kInfo, message("connected"));
  FLUSS_LOG(kWarning, message("lost"));
  util::Log(LogLevel::kError, "failed");
  EXPECT_EQ(built, 2);  // the DEBUG line was never built
  ASSERT_EQ(c.lines.size(), 3u);
  EXPECT_EQ(c.lines[0], std::make_pair(LogLevel::kInfo, std::string("connected")));
  EXPECT_EQ(c.lines[1], std::make_pair(LogLevel::kWarning, std::string("lost")));
  EXPECT_EQ(c.lines[2], std::make_pair(LogLevel::kError, std::string("failed")));
  EXPECT_TRUE(util::LogEnabled(LogLevel::kInfo));
  EXPECT_FALSE(util::LogEnabled(LogLevel::kDebug));

  SetLogSink(nullptr);
  FLUSS_LOG(kError, message("nowhere"));
  EXPECT_EQ(c.lines.size(), 3u);
  EXPECT_EQ(built, 2);
  EXPECT_FALSE(util::LogEnabled(LogLevel::kError));
}

}  // namespace
}  // namespace fluss
