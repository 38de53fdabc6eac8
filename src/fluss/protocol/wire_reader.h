// Reading protobuf wire format by hand, for the responses whose bytes fields must not be copied
// (FetchLog's records, protocol/fetch_log_response.h). A message is a sequence of fields, each
// a tag (field number << 3 | wire type) and a value: varint (0), 64-bit (1), length-delimited
// (2) or 32-bit (5). Groups (start 3 ... end 4) are obsolete and in no Fluss message, but
// protobuf skips an unknown one, so Skip does too (found by the differential fuzz check).
//
// Thread affinity: none; reads the caller's bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fluss/util/bytes.h"

namespace fluss::protocol::wire {

/// The fields of one message held in `size` bytes at `data`, in order. Every read returns
/// false on malformed input (a value running past the end, a bad varint or wire type, field
/// number 0); failed() then tells it from the plain end of the message.
class FieldReader {
 public:
  FieldReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  /// The next field's number and wire type; false at the end or when the tag is malformed.
  bool Next(uint32_t* field, int* wire_type) {
    if (pos_ == size_) return false;
    // A tag is read as protobuf reads it: a varint of at most 5 bytes, kept to its low 32 bits
    // (a fifth byte's high bits are dropped, not refused); field number 0 is refused.
    const size_t start = pos_;
    uint64_t tag = 0;
    if (!util::ReadVarint64(data_, size_, &pos_, &tag) || pos_ - start > 5) return Fail();
    tag &= 0xFFFFFFFFu;
    if ((tag >> 3) == 0) return Fail();
    *field = static_cast<uint32_t>(tag >> 3);
    *wire_type = static_cast<int>(tag & 7);
    last_field_ = *field;
    return true;
  }
  /// The value of a varint field (wire type 0, checked).
  bool Varint(int wire_type, uint64_t* v) {
    if (wire_type != 0 || !util::ReadVarint64(data_, size_, &pos_, v)) return Fail();
    return true;
  }
  /// A varint field read as int32: the low 32 bits, as protobuf reads an int32.
  bool Int32(int wire_type, int32_t* v) {
    uint64_t u = 0;
    if (!Varint(wire_type, &u)) return false;
    *v = static_cast<int32_t>(static_cast<uint32_t>(u));
    return true;
  }
  bool Int64(int wire_type, int64_t* v) {
    uint64_t u = 0;
    if (!Varint(wire_type, &u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }
  /// The value of a length-delimited field (wire type 2, checked): its offset from `data`
  /// and its size in bytes.
  bool LengthDelimited(int wire_type, size_t* offset, size_t* size) {
    uint64_t n = 0;
    if (wire_type != 2 || !util::ReadVarint64(data_, size_, &pos_, &n) || n > size_ - pos_) return Fail();
    *offset = pos_;
    *size = static_cast<size_t>(n);
    pos_ += static_cast<size_t>(n);
    return true;
  }
  /// Skips the value of the field Next just read, of `wire_type` (an unknown field, as
  /// protobuf ignores it). A group is skipped up to its end tag; an end tag without a start
  /// fails, as protobuf's parse does.
  bool Skip(int wire_type) { return SkipValue(wire_type, last_field_, 0); }
  bool failed() const { return failed_; }

 private:
  // Protobuf's recursion limit, which also bounds nested groups.
  static constexpr int kMaxGroupDepth = 100;

  bool SkipValue(int wire_type, uint32_t field, int depth) {
    size_t offset = 0, size = 0;
    uint64_t v = 0;
    switch (wire_type) {
      case 0: return Varint(0, &v);
      case 1: return Advance(8);
      case 2: return LengthDelimited(2, &offset, &size);
      case 3: return SkipGroup(field, depth + 1);
      case 5: return Advance(4);
      default: return Fail();
    }
  }
  /// The fields of a group started by field `field`, through its end tag.
  bool SkipGroup(uint32_t field, int depth) {
    if (depth > kMaxGroupDepth) return Fail();
    uint32_t inner = 0;
    int type = 0;
    while (Next(&inner, &type)) {
      if (type == 4) return inner == field ? true : Fail();
      if (!SkipValue(type, inner, depth)) return false;
    }
    return Fail();  // the message ended inside the group
  }
  bool Advance(size_t n) {
    if (n > size_ - pos_) return Fail();
    pos_ += n;
    return true;
  }
  bool Fail() {
    failed_ = true;
    return false;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool failed_ = false;
  uint32_t last_field_ = 0;  // of the tag Next read last
};

}  // namespace fluss::protocol::wire
