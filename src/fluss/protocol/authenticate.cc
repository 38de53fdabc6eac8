#include "fluss/protocol/authenticate.h"

namespace fluss::protocol {

std::string SaslPlainToken(const std::string& username, const std::string& password) {
  std::string token;
  token.reserve(2 + username.size() + password.size());
  token.push_back('\0');  // empty authzid
  token += username;
  token.push_back('\0');
  token += password;
  return token;
}

proto::AuthenticateRequest MakeSaslPlainAuthenticateRequest(const std::string& username,
                                                            const std::string& password) {
  proto::AuthenticateRequest req;
  req.set_protocol(kSaslPlainMechanism);
  req.set_token(SaslPlainToken(username, password));
  return req;
}

Result<std::optional<std::string>> ParseAuthenticateResponse(const char* data, size_t size) {
  proto::AuthenticateResponse resp;
  if (!resp.ParseFromArray(data, static_cast<int>(size)))
    return Status::Protocol("malformed AUTHENTICATE response");
  if (!resp.has_challenge()) return std::optional<std::string>();
  return std::optional<std::string>(resp.challenge());
}

}  // namespace fluss::protocol
