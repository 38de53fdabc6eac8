// How the connections of a client authenticate (protocol-rpc.md section 10): not at all
// (PLAINTEXT) or with SASL/PLAIN, and the pieces of the SASL handshake that ServerConnection
// runs on every new connection right after ApiVersions: the AUTHENTICATE frame, the retry
// backoff of 51 RETRIABLE_AUTHENTICATE_EXCEPTION, and the error a failed handshake reports.
//
// Thread affinity: none (immutable data and pure functions; the backoff jitter uses a
// thread-local generator).
#pragma once

#include <chrono>
#include <string>

#include "fluss/status.h"

namespace fluss::net {

/// The authentication every connection of one client runs. Shared read-only by its
/// connections.
struct Authentication {
  bool sasl = false;     ///< false: PLAINTEXT, no AUTHENTICATE is sent
  std::string username;  ///< SASL/PLAIN user (client.security.sasl.username)
  std::string password;  ///< secret: never part of a message or log line
};

/// The AUTHENTICATE request frame of SASL/PLAIN for `auth`: protocol::kRequestPrefixSize
/// reserved bytes, then the serialised AuthenticateRequest (it holds the password).
std::string SaslPlainAuthenticateFrame(const Authentication& auth);

/// How long to wait before AUTHENTICATE is sent again after the `attempt`-th (0-based) answer
/// 51 RETRIABLE_AUTHENTICATE_EXCEPTION: 100 ms doubling per attempt, at most 5 s, +-20% jitter
/// (the Java client's ExponentialBackoff(100, 2, 5000, 0.2)).
std::chrono::milliseconds AuthenticateRetryBackoff(int attempt);

/// The error of a failed SASL handshake with `server` ("host:port") for the server's answer `answer`: the
/// same category and error code (46 AUTHENTICATE_EXCEPTION for wrong credentials or a
/// PLAINTEXT listener), the message naming the user and the server, plus a hint when the
/// server says its listener is PLAINTEXT. Never contains the password.
Status AuthenticationFailure(const Authentication& auth, const std::string& server, const Status& answer);

}  // namespace fluss::net
