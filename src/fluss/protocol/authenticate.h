// Authenticate (api key 1038; protocol-rpc.md section 10), the SASL token exchange a client runs
// on every new connection to a SASL listener, right after ApiVersions and before anything else:
//   AuthenticateRequest: 1 protocol string (the SASL mechanism name, "PLAIN", not "SASL") |
//                        2 token bytes
//   AuthenticateResponse: 1 challenge bytes opt (present and empty once PLAIN succeeded)
// A failed exchange is a request-level error: 46 AUTHENTICATE_EXCEPTION (wrong user or password,
// mechanism not enabled, a PLAINTEXT listener) or 51 RETRIABLE_AUTHENTICATE_EXCEPTION.
//
// Thread affinity: none; pure functions. The token holds the password: never log or print it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// The SASL mechanism name the AuthenticateRequest carries for SASL/PLAIN.
inline constexpr const char* kSaslPlainMechanism = "PLAIN";

/// The SASL/PLAIN initial response of RFC 4616, `authzid NUL authcid NUL passwd` (UTF-8), with an
/// empty authzid as the Java client sends it (the server then authorizes as `username`). The
/// caller has checked that neither part is empty or holds a NUL byte (client/config.cc does).
std::string SaslPlainToken(const std::string& username, const std::string& password);

/// The AuthenticateRequest of SASL/PLAIN: protocol "PLAIN", token SaslPlainToken(...).
proto::AuthenticateRequest MakeSaslPlainAuthenticateRequest(const std::string& username,
                                                            const std::string& password);

/// The challenge of an AuthenticateResponse body (`size` bytes at `data`): its bytes when the
/// field is present (empty for a completed PLAIN exchange), nullopt when absent. kProtocol for
/// bytes that do not parse as an AuthenticateResponse.
Result<std::optional<std::string>> ParseAuthenticateResponse(const char* data, size_t size);

}  // namespace fluss::protocol
