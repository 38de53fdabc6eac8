// Hex helpers of the byte-exact unit tests: Unhex("00 | 0102") -> bytes (spaces, '|' and newlines
// ignored), Hex(bytes) -> lowercase hex.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

namespace fluss::testing {

inline std::string Unhex(std::string_view s) {
  std::string out;
  int hi = -1;
  for (char ch : s) {
    if (ch == ' ' || ch == '|' || ch == '\n') continue;
    const int v = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : std::tolower(ch) - 'a' + 10;
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<char>(hi * 16 + v));
      hi = -1;
    }
  }
  return out;
}

inline std::string Hex(std::string_view b) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

inline const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

}  // namespace fluss::testing
