// Fluss server error codes as the protocol code uses them (protocol-rpc.md section 4): the
// constants, server errors as Statuses, and the classification behind retries. Names, numbers and
// retriability come from include/fluss/error_codes.h, the one table.
#pragma once

#include <cstdint>
#include <string>

#include "fluss/error_codes.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// The server error codes as plain int32 constants for comparing with wire fields
/// (`br.error_code() != protocol::NONE`), generated from the one table of
/// include/fluss/error_codes.h (the Java enum's name, `Errors`).
enum Errors : int32_t {
#define FLUSS_PROTOCOL_ERRORS_ENUMERATOR(name, code, retriable) name = code,
  FLUSS_ERROR_CODES(FLUSS_PROTOCOL_ERRORS_ENUMERATOR)
#undef FLUSS_PROTOCOL_ERRORS_ENUMERATOR
};

/// The server's error message as shown to users: for UNKNOWN_SERVER_ERROR (-1) the server
/// sends a Java stack trace; only its first line is kept.
std::string ServerMessage(int32_t code, const std::string& message);

/// A server error as a Status, `context` (e.g. "table db.t bucket 2") prefixed to the message.
/// UNKNOWN_SERVER_ERROR (-1) is refined from the Java exception text the server sends along
/// (0.9.1 reports some well-defined states only that way): a missing table becomes
/// TABLE_NOT_EXIST (7), and a server still starting (its coordinator event processor not
/// initialized yet) a retriable error (Status::ServerTransient).
Status ServerError(int32_t code, const std::string& message, const std::string& context = "");

/// Name of the code as in the Java `Errors` enum, "UNKNOWN" if not known.
using fluss::ErrorCodeName;
/// The Java exception extends RetriableException.
inline bool IsRetriableError(int32_t code) { return IsRetriableErrorCode(code); }
/// The Java exception extends InvalidMetadataException: refresh metadata before retrying.
bool IsInvalidMetadataError(int32_t code);

}  // namespace fluss::protocol
