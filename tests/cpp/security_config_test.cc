// The security keys of ParseClientOptions (config.h; client/security_config.h): both spellings
// (Java's client.security.* and the later pyfluss security.*), the JAAS line as the Java
// client's JaasConfig reads it, every bad combination refused naming the key, and no message
// ever holding the password.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "fluss/client/security_config.h"
#include "fluss/config.h"

namespace {

using fluss::ClientOptions;
using fluss::ParseClientOptions;
using fluss::SecurityProtocol;
using fluss::StatusCode;
using Props = std::map<std::string, std::string>;

constexpr const char* kPassword = "s3cr3t-Pw";
const std::string kModule = "org.apache.fluss.security.auth.sasl.plain.PlainLoginModule";

ClientOptions MustParse(const Props& p) {
  auto r = ParseClientOptions(p);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : ClientOptions{};
}

// Expects InvalidArgument naming every one of `keys`, and not holding the password.
void ExpectRefused(const Props& p, const std::vector<std::string>& keys) {
  auto r = ParseClientOptions(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
  for (const auto& k : keys) EXPECT_NE(r.status().message().find(k), std::string::npos) << r.status().message();
  EXPECT_EQ(r.status().ToString().find(kPassword), std::string::npos) << r.status().message();
}

TEST(SecurityConfig, DefaultIsPlaintext) {
  auto o = MustParse({});
  EXPECT_EQ(o.security_protocol, SecurityProtocol::kPlaintext);
  EXPECT_EQ(o.sasl_mechanism, "PLAIN");
  EXPECT_EQ(o.sasl_username, "");
  EXPECT_EQ(o.sasl_password, "");
  EXPECT_EQ(MustParse({{"client.security.protocol", " plaintext "}}).security_protocol, SecurityProtocol::kPlaintext);
}

TEST(SecurityConfig, JavaKeysCaseInsensitive) {
  auto o = MustParse({{"client.security.protocol", "sasl"},
                      {"client.security.sasl.mechanism", "plain"},
                      {"client.security.sasl.username", "alice"},
                      {"client.security.sasl.password", kPassword}});
  EXPECT_EQ(o.security_protocol, SecurityProtocol::kSasl);
  EXPECT_EQ(o.sasl_mechanism, "PLAIN");
  EXPECT_EQ(o.sasl_username, "alice");
  EXPECT_EQ(o.sasl_password, kPassword);
}

TEST(SecurityConfig, PyflussSpellings) {
  auto o = MustParse({{"security.protocol", "SASL"},
                      {"security.sasl.mechanism", "PLAIN"},
                      {"security.sasl.username", "admin"},
                      {"security.sasl.password", " with spaces "}});
  EXPECT_EQ(o.security_protocol, SecurityProtocol::kSasl);
  EXPECT_EQ(o.sasl_username, "admin");
  EXPECT_EQ(o.sasl_password, " with spaces ");  // credentials are not trimmed
}

TEST(SecurityConfig, JaasLine) {
  auto o = MustParse({{"client.security.protocol", "SASL"},
                      {"client.security.sasl.jaas.config",
                       kModule + " required username=\"alice\" password=\"" + kPassword + "\";"}});
  EXPECT_EQ(o.sasl_username, "alice");
  EXPECT_EQ(o.sasl_password, kPassword);
}

TEST(SecurityConfig, JaasLineTokenizedAsJava) {
  using fluss::client::ParsePlainJaasConfig;
  const std::string key = "client.security.sasl.jaas.config";
  // Any control flag in any case, comments, single quotes, escapes, bare words, other options.
  auto c = ParsePlainJaasConfig(key, "/* the user */ " + kModule +
                                         "  OPTIONAL\n  debug=true // a comment\n username='a\\'b' "
                                         "password=\"p\\\\q\\\"r\\tz\\101\"\n;  ");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->username, "a'b");
  EXPECT_EQ(c->password, "p\\q\"r\tzA");
  auto bare = ParsePlainJaasConfig(key, kModule + " requisite username=alice password=al-ice_$x;");
  ASSERT_TRUE(bare.ok()) << bare.status().ToString();
  EXPECT_EQ(bare->username, "alice");
  EXPECT_EQ(bare->password, "al-ice_$x");
}

TEST(SecurityConfig, BadJaasLinesNameTheKeyNotTheText) {
  const std::string key = "client.security.sasl.jaas.config";
  const std::string p = std::string("password=\"") + kPassword + "\"";
  const std::vector<std::string> bad = {
      "",                                                               // no module
      "com.example.OtherLoginModule required username=\"u\" " + p + ";",  // another module
      kModule + " username=\"u\" " + p + ";",                           // no control flag
      kModule + " mandatory username=\"u\" " + p + ";",                 // unknown control flag
      kModule + " required username=\"u\" " + p,                        // no ';'
      kModule + " required username=\"u\";",                            // no password
      kModule + " required " + p + ";",                                 // no username
      kModule + " required username=\"u\" password=\"" + kPassword + ";",  // quote not closed
      kModule + " required username=\"u\" password=" + kPassword + " x\";",  // quoting mistake
      kModule + " required username=\"u\" password=1234;",             // a number has no text
      kModule + " required username \"u\" " + p + ";",                  // no '='
      kModule + " required username=\"u\" " + p + "; " + kModule + " required username=\"v\" " + p + ";",
      kModule + " required /* not closed " + p + ";",
  };
  for (const auto& text : bad) {
    SCOPED_TRACE(text);
    ExpectRefused({{"client.security.protocol", "SASL"}, {key, text}}, {key});
  }
}

TEST(SecurityConfig, BadCombinationsNameTheKeys) {
  // Unknown protocol or mechanism.
  ExpectRefused({{"client.security.protocol", "SSL"}}, {"client.security.protocol", "PLAINTEXT or SASL"});
  ExpectRefused({{"security.sasl.mechanism", "SCRAM-SHA-256"}}, {"security.sasl.mechanism", "only PLAIN"});
  // SASL without credentials.
  ExpectRefused({{"client.security.protocol", "SASL"}},
                {"client.security.protocol", "client.security.sasl.username", "client.security.sasl.password"});
  ExpectRefused({{"security.protocol", "sasl"}}, {"security.protocol"});
  // One credential without the other: both keys named, in the spelling given.
  ExpectRefused({{"client.security.protocol", "SASL"}, {"client.security.sasl.username", "alice"}},
                {"client.security.sasl.username", "client.security.sasl.password", "together"});
  ExpectRefused({{"security.protocol", "SASL"}, {"security.sasl.password", kPassword}},
                {"security.sasl.password", "security.sasl.username", "together"});
  // Credentials without SASL: they would be ignored, and the server would refuse every request.
  ExpectRefused({{"client.security.sasl.username", "alice"}, {"client.security.sasl.password", kPassword}},
                {"client.security.sasl.username", "client.security.protocol", "PLAINTEXT"});
  ExpectRefused({{"client.security.protocol", "PLAINTEXT"},
                 {"client.security.sasl.jaas.config", kModule + " required username=\"u\" password=\"p\";"}},
                {"client.security.sasl.jaas.config", "PLAINTEXT"});
  // The JAAS line and the two keys are alternatives.
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"client.security.sasl.username", "alice"},
                 {"client.security.sasl.password", kPassword},
                 {"client.security.sasl.jaas.config", kModule + " required username=\"u\" password=\"p\";"}},
                {"client.security.sasl.jaas.config", "client.security.sasl.username"});
  // Empty or NUL-holding credentials (the SASL/PLAIN token separates its parts by NUL).
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"client.security.sasl.username", ""},
                 {"client.security.sasl.password", kPassword}},
                {"client.security.sasl.username", "empty"});
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"client.security.sasl.username", "alice"},
                 {"client.security.sasl.password", ""}},
                {"client.security.sasl.password", "empty"});
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"client.security.sasl.username", "alice"},
                 {"client.security.sasl.password", std::string(kPassword) + std::string(1, '\0') + "x"}},
                {"client.security.sasl.password", "NUL"});
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"client.security.sasl.jaas.config", kModule + " required username=\"u\" password=\"\";"}},
                {"client.security.sasl.jaas.config", "empty"});
  // Two spellings of one option.
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"security.protocol", "SASL"},
                 {"client.security.sasl.username", "alice"},
                 {"client.security.sasl.password", kPassword}},
                {"client.security.protocol", "security.protocol", "give one"});
  ExpectRefused({{"client.security.protocol", "SASL"},
                 {"client.security.sasl.username", "alice"},
                 {"client.security.sasl.password", kPassword},
                 {"security.sasl.password", kPassword}},
                {"client.security.sasl.password", "security.sasl.password"});
}

}  // namespace
