#include "fluss/net/authentication.h"

#include <algorithm>
#include <random>

#include "fluss/protocol/authenticate.h"
#include "fluss/protocol/frame.h"

namespace fluss::net {

std::string SaslPlainAuthenticateFrame(const Authentication& auth) {
  std::string frame(protocol::kRequestPrefixSize, '\0');
  protocol::MakeSaslPlainAuthenticateRequest(auth.username, auth.password).AppendToString(&frame);
  return frame;
}

std::chrono::milliseconds AuthenticateRetryBackoff(int attempt) {
  const double base = std::min(5000.0, 100.0 * static_cast<double>(1LL << std::clamp(attempt, 0, 16)));
  thread_local std::minstd_rand gen{std::random_device{}()};
  std::uniform_real_distribution<double> jitter(0.8, 1.2);
  return std::chrono::milliseconds(static_cast<int64_t>(base * jitter(gen)));
}

Status AuthenticationFailure(const Authentication& auth, const std::string& server, const Status& answer) {
  std::string msg = "SASL/PLAIN authentication of user '" + auth.username + "' at " + server + " failed: " +
                    answer.message();
  // What the server's PLAINTEXT authenticator answers to protocol "PLAIN" (ServerAuthenticator
  // .matchProtocol in Fluss 0.9.1).
  if (answer.message().find("protocol of server is 'PLAINTEXT'") != std::string::npos)
    msg += " (this listener is PLAINTEXT: connect to the cluster's SASL listener, or set "
           "client.security.protocol to PLAINTEXT)";
  return Status(answer.code(), answer.error_code(), std::move(msg));
}

}  // namespace fluss::net
