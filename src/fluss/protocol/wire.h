// Protobuf wire-format helpers for the request envelopes encoded by hand (the hot `records`
// bytes are borrowed, not copied through a generated std::string field; DESIGN.md "Data path").
// A field is a tag (field number << 3 | wire type) followed by its value: varint (wire type 0) for
// int32 / int64 / bool (an int32 is sign-extended to 64 bits first, so a negative one takes 10
// bytes), length-delimited (wire type 2) for bytes, strings, sub-messages and packed repeated
// scalars. Writing fields in field-number order gives the generated serialiser's bytes.
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fluss/util/bytes.h"

namespace fluss::protocol::wire {

inline constexpr int kVarint = 0;
inline constexpr int kLengthDelimited = 2;

inline void AppendTag(std::string* out, int field, int wire_type) {
  util::AppendVarint64(out, static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(wire_type));
}
/// An int32 field (varint of the value sign-extended to 64 bits).
inline void AppendInt32(std::string* out, int field, int32_t v) {
  AppendTag(out, field, kVarint);
  util::AppendVarint64(out, static_cast<uint64_t>(static_cast<int64_t>(v)));
}
/// An int64 field.
inline void AppendInt64(std::string* out, int field, int64_t v) {
  AppendTag(out, field, kVarint);
  util::AppendVarint64(out, static_cast<uint64_t>(v));
}
/// The tag and length of a length-delimited field of `size` bytes; the bytes follow.
inline void AppendLengthDelimitedHeader(std::string* out, int field, size_t size) {
  AppendTag(out, field, kLengthDelimited);
  util::AppendVarint64(out, size);
}
/// A packed repeated int32 field; nothing for an empty list (as the generated serialiser).
inline void AppendPackedInt32(std::string* out, int field, const std::vector<int32_t>& values) {
  if (values.empty()) return;
  std::string body;
  for (int32_t v : values) util::AppendVarint64(&body, static_cast<uint64_t>(static_cast<int64_t>(v)));
  AppendLengthDelimitedHeader(out, field, body.size());
  out->append(body);
}

}  // namespace fluss::protocol::wire
