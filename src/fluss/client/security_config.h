// The security part of the client configuration (protocol-rpc.md 10.2): the cross-checks of
// protocol, mechanism and SASL/PLAIN credentials, and the JAAS line of
// client.security.sasl.jaas.config read as the Java client reads it. ParseClientOptions
// (config.cc) parses each key and then calls ResolveSecurity.
//
// No message of this file contains a password or a JAAS line (which holds one): only key names.
//
// Thread affinity: none; pure functions.
#pragma once

#include <string>

#include "fluss/config.h"
#include "fluss/status.h"

namespace fluss::client {

/// The keys that set the security options, spelled as given (empty: not given), so that
/// messages name what the user wrote; and the JAAS line, when given.
struct SecurityKeys {
  std::string protocol;     ///< client.security.protocol | security.protocol
  std::string username;     ///< client.security.sasl.username | security.sasl.username
  std::string password;     ///< client.security.sasl.password | security.sasl.password
  std::string jaas_config;  ///< client.security.sasl.jaas.config
  std::string jaas_text;    ///< its value (secret)
};

/// Completes `options` (security_protocol, sasl_username and sasl_password already set from
/// their own keys) and checks the combination: the JAAS line, when given, supplies username and
/// password and excludes the two keys; username and password go together; SASL needs them and
/// PLAINTEXT refuses them (they would be ignored); neither may be empty or hold a NUL byte
/// (the SASL/PLAIN token separates them by NUL). kInvalidArgument naming the keys.
Status ResolveSecurity(const SecurityKeys& keys, ClientOptions* options);

/// SASL/PLAIN credentials.
struct PlainCredentials {
  std::string username;
  std::string password;
};

/// The `username` and `password` options of the JAAS line `text`, e.g.
///   org.apache.fluss.security.auth.sasl.plain.PlainLoginModule required username="u" password="p";
/// read like the Java client's JaasConfig (a StreamTokenizer): one entry of login module,
/// control flag (required, requisite, sufficient or optional, any case), `key=value` options
/// (values quoted with " or ' and backslash escapes, or bare words), a final ';'; `//` and
/// `/* */` comments. The module must be the PlainLoginModule. kInvalidArgument naming `key`
/// and what is wrong, never quoting the text.
Result<PlainCredentials> ParsePlainJaasConfig(const std::string& key, const std::string& text);

}  // namespace fluss::client
