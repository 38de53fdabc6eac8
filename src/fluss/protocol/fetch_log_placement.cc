#include "fluss/protocol/fetch_log_placement.h"

#include <algorithm>
#include <cstring>

namespace fluss::protocol {

namespace {

constexpr size_t kMaxVarint = 10;
constexpr size_t kMaxTag = 5;  // as protobuf reads a tag

}  // namespace

void FetchLogPlacement::NextRead(uint8_t** dst, size_t* max) const {
  size_t limit = size_;
  if (have_ < shifted_until_) {
    limit = shifted_until_;  // the rest of a placed payload, in one read
  } else if (placing_) {
    limit = std::min(size_, std::max(cursor_, have_) + kLookahead);
  }
  *dst = body_ + have_ - (have_ < shifted_until_ ? shift_ : 0);
  *max = limit - have_;
}

void FetchLogPlacement::Received(size_t n) {
  have_ += n;
  if (placing_ && have_ >= shifted_until_) Advance();
}

std::vector<PlacedRecords> FetchLogPlacement::Finish() {
  for (auto& p : placed_) {
    uint8_t* at = body_ + p.offset - p.shift;
    std::array<uint8_t, 8> head{};
    std::memcpy(head.data(), at, p.shift);
    std::memcpy(at, p.kept.data(), p.shift);
    p.kept = head;
  }
  return std::move(placed_);
}

void FetchLogPlacement::Advance() {
  while (placing_) {
    switch (Step()) {
      case Token::kDone: break;
      case Token::kNeedMore: return;
      case Token::kStop: placing_ = false; return;
    }
  }
}

FetchLogPlacement::Token FetchLogPlacement::ReadVarint(size_t end, uint64_t* v, size_t max_bytes) {
  uint64_t out = 0;
  for (size_t i = 0; i < max_bytes; ++i) {
    const size_t at = cursor_ + i;
    if (at >= end) return Token::kStop;  // runs past its message
    if (at >= have_) return Token::kNeedMore;
    const uint8_t b = body_[at];
    if (i < 9) out |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    else out |= static_cast<uint64_t>(b & 0x01) << 63;
    if ((b & 0x80) == 0) {
      *v = out;
      cursor_ = at + 1;
      return Token::kDone;
    }
  }
  return Token::kStop;  // longer than the reading allows: let the parser judge it
}

FetchLogPlacement::Token FetchLogPlacement::Step() {
  while (!ends_.empty() && cursor_ == ends_.back()) ends_.pop_back();
  if (cursor_ == size_) return Token::kStop;  // the whole body is read: nothing left to place
  if (cursor_ >= have_) return Token::kNeedMore;
  const size_t end = ends_.empty() ? size_ : ends_.back();
  const size_t start = cursor_;
  uint64_t tag = 0;
  Token t = ReadVarint(end, &tag, kMaxTag);
  if (t != Token::kDone) {
    cursor_ = start;
    return t;
  }
  const uint64_t field = (tag & 0xFFFFFFFFu) >> 3;
  const int wire = static_cast<int>(tag & 7);
  const size_t depth = ends_.size();  // 0: the response, 1: a table, 2: a bucket
  uint64_t v = 0;
  if (wire == 0) {
    const bool known = (depth == 1 && field == 1) ||
                       (depth == 2 && (field == 1 || field == 2 || field == 3 || field == 5 || field == 6));
    if (!known) return Token::kStop;
    t = ReadVarint(end, &v, kMaxVarint);
    if (t == Token::kNeedMore) cursor_ = start;  // read the whole field again with more bytes
    return t;
  }
  if (wire != 2) return Token::kStop;
  t = ReadVarint(end, &v, kMaxVarint);
  if (t != Token::kDone) {
    if (t == Token::kNeedMore) cursor_ = start;
    return t;
  }
  if (v > end - cursor_) return Token::kStop;  // past the end of its message
  const size_t value = cursor_, n = static_cast<size_t>(v);
  if ((depth == 0 && field == 1) || (depth == 1 && field == 2)) {
    ends_.push_back(value + n);  // into tables_resp or buckets_resp
  } else if (depth == 2 && (field == 4 || field == 7)) {
    cursor_ = value + n;  // error_message, remote_log_fetch_info: skipped
  } else if (depth == 2 && field == 8) {
    Place(value, n);
    cursor_ = value + n;
  } else {
    return Token::kStop;
  }
  return Token::kDone;
}

void FetchLogPlacement::Place(size_t offset, size_t size) {
  // The rule of ParseFetchLogResponse's own move, so both agree on where every payload is.
  const size_t shift = reinterpret_cast<uintptr_t>(body_ + offset) % kRecordsAlignment;
  if (shift == 0 || size == 0 || offset - in_use_ < shift) {
    in_use_ = offset + size;
    return;
  }
  PlacedRecords p;
  p.offset = offset;
  p.shift = static_cast<uint8_t>(shift);
  std::memcpy(p.kept.data(), body_ + offset - shift, shift);
  // The few payload bytes that came with the header (at most kLookahead) move; the rest is
  // received in place.
  const size_t arrived = std::min(have_, offset + size) - offset;
  std::memmove(body_ + offset - shift, body_ + offset, arrived);
  if (have_ < offset + size) {
    shift_ = shift;
    shifted_until_ = offset + size;
  }
  placed_.push_back(p);
  in_use_ = offset - shift + size;
}

}  // namespace fluss::protocol
