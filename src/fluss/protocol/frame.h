// RPC framing (protocol-rpc.md section 1), sans I/O.
//
// Request:  int32 frame_length | int16 api_key | int16 api_version | int32 request_id | body
// Response: int32 frame_length | int8 type | [int32 request_id unless type 2] | body
// All header integers are big-endian; frame_length counts the bytes after itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fluss/protocol/api_keys.h"
#include "fluss/status.h"

namespace fluss::protocol {

inline constexpr size_t kFrameLengthSize = 4;
inline constexpr size_t kRequestHeaderSize = 8;  // after frame_length
inline constexpr size_t kRequestPrefixSize = kFrameLengthSize + kRequestHeaderSize;

enum class ResponseType : int8_t { kSuccess = 0, kError = 1, kServerFailure = 2 };

/// Writes the 12-byte request prefix (frame length, api key, version, request id) to `out`.
void EncodeRequestPrefix(uint8_t* out, ApiKey key, int16_t version, int32_t request_id,
                         size_t body_size);

/// A decoded response frame; `body` points into the frame buffer given to DecodeResponse.
struct ResponseFrame {
  ResponseType type = ResponseType::kSuccess;
  int32_t request_id = -1;  // -1 for kServerFailure, which carries no request id
  std::string_view body;    // XxxResponse (kSuccess) or ErrorResponse (kError, kServerFailure)
};

/// Decodes a response frame given the bytes after frame_length. Fails on an unknown type or a
/// frame shorter than its header.
Result<ResponseFrame> DecodeResponse(const uint8_t* data, size_t size);

}  // namespace fluss::protocol
