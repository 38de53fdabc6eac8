// FetchLogPlacement: puts the records of a FetchLogResponse at 8-byte aligned addresses while
// the body is received, so that ParseFetchLogResponse need not move them there afterwards (that
// move of every fetched byte was 15% of a warm scan's CPU; perf, issue 11).
//
// The body is read as it arrives, just far enough to know where each records payload starts:
//   FetchLogResponse.tables_resp (1) -> PbFetchLogRespForTable.buckets_resp (2)
//   -> PbFetchLogRespForBucket.records (8)   (fetch_log_response.h has the fields)
// A payload that would start `s` bytes past an aligned address is received `s` bytes earlier,
// over the end of the header before it (when those bytes hold no earlier payload): the layout
// ParseFetchLogResponse's own move makes. The header bytes it covers are kept aside; Finish puts
// them back and keeps the payload's first bytes aside instead (PlacedRecords), so that
// ParseFetchLogResponse reads the header as sent and completes the payload when it reaches
// that records field.
//
// Anything this reading does not expect (another field or wire type, a group, a length past the
// end of its message) ends the placing for the rest of the body: those bytes land where they
// are sent, and ParseFetchLogResponse moves their records as before. So what the body means is
// decided by ParseFetchLogResponse alone.
//
// Thread affinity: none; one per response body being received.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fluss::protocol {

/// The alignment records payloads are placed at, and ParseFetchLogResponse moves them to.
inline constexpr size_t kRecordsAlignment = 8;

/// A records payload received `shift` bytes before its offset in the body as sent.
struct PlacedRecords {
  size_t offset = 0;  ///< of the payload in the body as sent
  uint8_t shift = 0;  ///< 1..7
  /// While receiving: the header bytes the payload covers; after Finish: the payload's first
  /// `shift` bytes, for ParseFetchLogResponse to write back.
  std::array<uint8_t, 8> kept{};
};

class FetchLogPlacement {
 public:
  /// `body`: the buffer the `size`-byte FetchLogResponse body is received into.
  FetchLogPlacement(uint8_t* body, size_t size) : body_(body), size_(size) {}

  /// Where the next bytes go: up to `*max` bytes (at least 1 until complete()) to `*dst`.
  void NextRead(uint8_t** dst, size_t* max) const;
  /// `n` bytes (at most the last NextRead's max) were written at the last NextRead's dst.
  void Received(size_t n);
  bool complete() const { return have_ == size_; }
  /// Once complete(): puts the covered header bytes back and returns the payloads placed, in
  /// body order, for ParseFetchLogResponse.
  std::vector<PlacedRecords> Finish();

 private:
  // Bytes read past the next token while placing: enough for a bucket's header, so a records
  // payload is found after a small read and at most this many of its bytes must be moved.
  static constexpr size_t kLookahead = 64;

  enum class Token { kDone, kNeedMore, kStop };
  /// Reads the fields that have arrived, placing records payloads (stops at the first
  /// unexpected byte).
  void Advance();
  Token Step();
  /// A varint at cursor_, within `end` (its message's end) and have_.
  Token ReadVarint(size_t end, uint64_t* v, size_t max_bytes);
  void Place(size_t offset, size_t size);

  uint8_t* const body_;
  const size_t size_;
  size_t have_ = 0;           // bytes of the body received
  bool placing_ = true;       // false once the whole body is read or something unexpected came
  size_t cursor_ = 0;         // where the next field of the body starts
  std::vector<size_t> ends_;  // ends of the messages cursor_ is in: tables_resp, buckets_resp
  size_t in_use_ = 0;         // bytes before this may belong to a placed payload
  size_t shift_ = 0;          // the payload being received lands this many bytes early...
  size_t shifted_until_ = 0;  // ...up to this offset
  std::vector<PlacedRecords> placed_;
};

}  // namespace fluss::protocol
