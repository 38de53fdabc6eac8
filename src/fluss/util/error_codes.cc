// The functions of include/fluss/error_codes.h, derived from its FLUSS_ERROR_CODES table.
#include "fluss/error_codes.h"

namespace fluss {

namespace {

struct Entry {
  int32_t code;
  const char* name;
  bool retriable;
};

constexpr Entry kTable[] = {
#define FLUSS_ERROR_CODE_ENTRY(name, code, retriable) {code, #name, retriable},
    FLUSS_ERROR_CODES(FLUSS_ERROR_CODE_ENTRY)
#undef FLUSS_ERROR_CODE_ENTRY
};
constexpr int32_t kLowest = -1;
constexpr int32_t kCount = static_cast<int32_t>(sizeof(kTable) / sizeof(kTable[0]));

// Fluss codes are consecutive from -1: a code is found at index code + 1.
constexpr bool Consecutive() {
  for (int32_t i = 0; i < kCount; ++i)
    if (kTable[i].code != kLowest + i) return false;
  return true;
}
static_assert(Consecutive(), "FLUSS_ERROR_CODES must list the codes -1, 0, 1, ... in order without gaps");

const Entry* Find(int32_t code) {
  // (in int64: code - kLowest overflows int32 for the largest codes a server could send)
  if (code < kLowest || int64_t{code} - kLowest >= kCount) return nullptr;
  return &kTable[code - kLowest];
}

}  // namespace

const char* ErrorCodeName(int32_t code) {
  const Entry* e = Find(code);
  return e ? e->name : "UNKNOWN";
}

const std::vector<std::pair<int32_t, const char*>>& AllErrorCodes() {
  static const auto* all = [] {
    auto* v = new std::vector<std::pair<int32_t, const char*>>();
    for (const Entry& e : kTable) v->emplace_back(e.code, e.name);
    return v;
  }();
  return *all;
}

bool IsRetriableErrorCode(int32_t code) {
  const Entry* e = Find(code);
  return e && e->retriable;
}

}  // namespace fluss
