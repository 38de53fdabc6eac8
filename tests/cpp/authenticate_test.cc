// The SASL/PLAIN handshake pieces (protocol/authenticate.h, net/authentication.h): the
// AUTHENTICATE request byte-exact against hand-derived protobuf bytes (field 1 protocol
// "PLAIN", tag 0x0a; field 2 token, tag 0x12; the RFC 4616 token authzid NUL user NUL password
// with the empty authzid the Java client sends), the request prefix of api key 1038, the
// response's challenge with its presence, the retry backoff of error 51 and the failure message.
#include <gtest/gtest.h>

#include <string>

#include "fluss/net/authentication.h"
#include "fluss/protocol/authenticate.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/frame.h"
#include "hex.h"

namespace fluss {
namespace {

using fluss::testing::Hex;
using fluss::testing::Unhex;

// "alice" and "alice-secret" in ASCII.
constexpr const char* kAlice = "616c696365";
constexpr const char* kAliceSecret = "616c6963652d736563726574";

TEST(SaslPlainToken, EmptyAuthzidThenUserThenPassword) {
  EXPECT_EQ(Hex(protocol::SaslPlainToken("alice", "alice-secret")),
            Hex(Unhex(std::string("00") + kAlice + "00" + kAliceSecret)));
  // UTF-8 is passed through byte for byte (the server decodes the token as UTF-8).
  EXPECT_EQ(Hex(protocol::SaslPlainToken("\xc3\xa9", "p w")), "00c3a900702077");
}

TEST(AuthenticateRequest, BytesOfSaslPlain) {
  const auto req = protocol::MakeSaslPlainAuthenticateRequest("alice", "alice-secret");
  // 1 protocol "PLAIN" (5 bytes) | 2 token (1 + 5 + 1 + 12 = 19 = 0x13 bytes)
  EXPECT_EQ(Hex(req.SerializeAsString()),
            Hex(Unhex(std::string("0a 05 504c41494e | 12 13 00") + kAlice + "00" + kAliceSecret)));
  EXPECT_EQ(req.protocol(), "PLAIN");  // the mechanism name, not "SASL" (protocol-rpc.md trap 14)
}

TEST(AuthenticateRequest, FrameHasTheReservedPrefixThenTheRequest) {
  net::Authentication auth{true, "alice", "alice-secret"};
  std::string frame = net::SaslPlainAuthenticateFrame(auth);
  ASSERT_EQ(frame.size(), protocol::kRequestPrefixSize + 2 + 5 + 2 + 19);
  EXPECT_EQ(Hex(frame.substr(0, protocol::kRequestPrefixSize)), std::string(24, '0'));
  EXPECT_EQ(Hex(frame.substr(protocol::kRequestPrefixSize)),
            Hex(protocol::MakeSaslPlainAuthenticateRequest("alice", "alice-secret").SerializeAsString()));
  // As sent: frame length 8 + 28 = 36, api key 1038 = 0x040e, version 0, request id 1.
  protocol::EncodeRequestPrefix(reinterpret_cast<uint8_t*>(frame.data()), protocol::ApiKey::AUTHENTICATE, 0, 1,
                                frame.size() - protocol::kRequestPrefixSize);
  EXPECT_EQ(Hex(frame.substr(0, protocol::kRequestPrefixSize)), "00000024" "040e" "0000" "00000001");
  EXPECT_STREQ(protocol::ApiKeyName(protocol::ApiKey::AUTHENTICATE), "AUTHENTICATE");
}

TEST(AuthenticateResponse, ChallengePresentEmptyAbsentAndMalformed) {
  // The 0.9.1 server's answer to a good PLAIN token: challenge present, zero bytes.
  const std::string present_empty = Unhex("0a 00");
  auto r = protocol::ParseAuthenticateResponse(present_empty.data(), present_empty.size());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ(**r, "");

  auto absent = protocol::ParseAuthenticateResponse("", 0);
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());

  const std::string bytes = Unhex("0a 03 616263");
  auto three = protocol::ParseAuthenticateResponse(bytes.data(), bytes.size());
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three->value(), "abc");

  const std::string truncated = Unhex("0a 05 61");
  auto bad = protocol::ParseAuthenticateResponse(truncated.data(), truncated.size());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kProtocol);
}

TEST(AuthenticateRetryBackoff, DoublesFrom100MsUpTo5SecondsWithJitter) {
  for (int round = 0; round < 50; ++round) {
    const int64_t expected[] = {100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000};
    for (int attempt = 0; attempt < 9; ++attempt) {
      const int64_t ms = net::AuthenticateRetryBackoff(attempt).count();
      EXPECT_GE(ms, expected[attempt] * 8 / 10) << attempt;
      EXPECT_LE(ms, expected[attempt] * 12 / 10) << attempt;
    }
  }
  EXPECT_LE(net::AuthenticateRetryBackoff(1000).count(), 6000);  // no overflow for a huge attempt
}

TEST(AuthenticationFailure, KeepsTheCodeNamesUserAndServerNeverThePassword) {
  net::Authentication auth{true, "alice", "wrong-secret"};
  const Status answer = protocol::ServerError(protocol::AUTHENTICATE_EXCEPTION,
                                              "Authentication failed: Invalid username or password");
  const Status st = net::AuthenticationFailure(auth, "127.0.0.1:9424", answer);
  EXPECT_EQ(st.code(), StatusCode::kServer);
  EXPECT_EQ(st.error_code(), 46);
  EXPECT_FALSE(st.IsRetriable());
  EXPECT_EQ(st.message(),
            "SASL/PLAIN authentication of user 'alice' at 127.0.0.1:9424 failed: Authentication failed: Invalid "
            "username or password");
  EXPECT_EQ(st.ToString().find("wrong-secret"), std::string::npos);

  // The PLAINTEXT listener's answer to protocol "PLAIN" gets a hint.
  const Status plaintext = net::AuthenticationFailure(
      auth, "127.0.0.1:9523",
      protocol::ServerError(46, "Authenticate protocol not match: protocol of server is 'PLAINTEXT' while protocol "
                                "of client is 'PLAIN'"));
  EXPECT_EQ(plaintext.error_code(), 46);
  EXPECT_NE(plaintext.message().find("this listener is PLAINTEXT"), std::string::npos) << plaintext.message();
}

}  // namespace
}  // namespace fluss
