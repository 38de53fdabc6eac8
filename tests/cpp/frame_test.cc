// RPC framing (protocol-rpc.md section 1) and error codes (section 4).
//
// Request:  int32 frame_length | int16 api_key | int16 api_version | int32 request_id | body
// Response: int32 frame_length | int8 type | int32 request_id (types 0, 1 only) | body
// Header integers are big-endian; frame_length counts the bytes after itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/frame.h"
#include "fluss/status.h"

namespace {

using fluss::StatusCode;
using fluss::protocol::ApiKey;
using fluss::protocol::DecodeResponse;
using fluss::protocol::EncodeRequestPrefix;
using fluss::protocol::ResponseType;
using Bytes = std::vector<uint8_t>;

Bytes Prefix(ApiKey key, int16_t version, int32_t request_id, size_t body_size) {
  Bytes out(fluss::protocol::kRequestPrefixSize, 0xEE);  // 0xEE: catches unwritten bytes
  EncodeRequestPrefix(out.data(), key, version, request_id, body_size);
  return out;
}

// ---- request prefix ----

TEST(RequestFrame, PrefixIsTwelveBytes) {
  // 4 (frame_length) + 8 (REQUEST_HEADER_LENGTH: api key, version, request id).
  EXPECT_EQ(fluss::protocol::kRequestPrefixSize, 12u);
}

TEST(RequestFrame, ProduceLogPrefix) {
  // PRODUCE_LOG = 1014 = 0x03F6, version 0, request id 0x01020304, 100 body bytes:
  // frame_length = 8 + 100 = 108 = 0x0000006C.
  EXPECT_EQ(Prefix(ApiKey::PRODUCE_LOG, 0, 0x01020304, 100),
            (Bytes{0x00, 0x00, 0x00, 0x6C,    // frame_length 108
                   0x03, 0xF6,                // api_key 1014
                   0x00, 0x00,                // api_version 0
                   0x01, 0x02, 0x03, 0x04}));  // request_id
}

TEST(RequestFrame, ApiVersionsFirstRequest) {
  // The first request on a connection: API_VERSIONS = 1000 = 0x03E8, request id 0. An
  // ApiVersionsRequest with client_software_name "a" and version "1" is the 6-byte body
  // 0a 01 61 12 01 31, so frame_length = 8 + 6 = 14.
  fluss::proto::ApiVersionsRequest req;
  req.set_client_software_name("a");
  req.set_client_software_version("1");
  EXPECT_EQ(req.SerializeAsString(), std::string("\x0a\x01\x61\x12\x01\x31", 6));
  EXPECT_EQ(Prefix(ApiKey::API_VERSIONS, 0, 0, req.ByteSizeLong()),
            (Bytes{0x00, 0x00, 0x00, 0x0E, 0x03, 0xE8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}));
}

TEST(RequestFrame, EveryByteOfEveryFieldIsBigEndian) {
  // Distinct bytes in every position of every field: FETCH_LOG = 1015 = 0x03F7, version
  // 0x0102, request id 0x7FFFFFFE, body 0x01020300 bytes -> frame_length 0x01020308.
  EXPECT_EQ(Prefix(ApiKey::FETCH_LOG, 0x0102, 0x7FFFFFFE, 0x01020300),
            (Bytes{0x01, 0x02, 0x03, 0x08, 0x03, 0xF7, 0x01, 0x02, 0x7F, 0xFF, 0xFF, 0xFE}));
}

TEST(RequestFrame, EmptyBody) {
  // GET_METADATA = 1012 = 0x03F4 with an empty MetadataRequest: frame_length is just the 8
  // header bytes.
  EXPECT_EQ(Prefix(ApiKey::GET_METADATA, 0, 7, 0),
            (Bytes{0x00, 0x00, 0x00, 0x08, 0x03, 0xF4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07}));
}

TEST(RequestFrame, ApiKeyNumbersAndNames) {
  // protocol-rpc.md section 2.1.
  EXPECT_EQ(static_cast<int16_t>(ApiKey::API_VERSIONS), 1000);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::CREATE_TABLE), 1005);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::GET_METADATA), 1012);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::PRODUCE_LOG), 1014);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::FETCH_LOG), 1015);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::LIST_OFFSETS), 1021);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::INIT_WRITER), 1026);
  EXPECT_EQ(static_cast<int16_t>(ApiKey::GET_DATABASE_INFO), 1035);
  EXPECT_STREQ(fluss::protocol::ApiKeyName(ApiKey::PRODUCE_LOG), "PRODUCE_LOG");
  EXPECT_STREQ(fluss::protocol::ApiKeyName(ApiKey::GET_DATABASE_INFO), "GET_DATABASE_INFO");
}

// ---- response frames (the bytes after frame_length) ----

std::string_view AsView(const Bytes& b, size_t from) {
  return std::string_view(reinterpret_cast<const char*>(b.data()) + from, b.size() - from);
}

TEST(ResponseFrame, Success) {
  // A whole SUCCESS frame as read from the socket: frame_length = 1 + 4 + 2 = 7, type 0,
  // request id 42, then a 2-byte protobuf body (field 1 varint 1 = 08 01).
  const Bytes frame{0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x2A, 0x08, 0x01};
  auto r = DecodeResponse(frame.data() + 4, frame.size() - 4);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->type, ResponseType::kSuccess);
  EXPECT_EQ(r->request_id, 42);
  EXPECT_EQ(r->body, AsView(frame, 9));
  // The body is a view into the given buffer, not a copy.
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(r->body.data()), frame.data() + 9);
}

TEST(ResponseFrame, SuccessWithEmptyBody) {
  // An empty XxxResponse (e.g. CreateDatabase) is legal: exactly the 5 header bytes.
  const Bytes body{0x00, 0x00, 0x00, 0x01, 0x00};
  auto r = DecodeResponse(body.data(), body.size());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->type, ResponseType::kSuccess);
  EXPECT_EQ(r->request_id, 256);
  EXPECT_TRUE(r->body.empty());
}

TEST(ResponseFrame, ErrorResponse) {
  // ERROR_RESPONSE (type 1) for request 0x01020304 carrying ErrorResponse{error_code = 7
  // (TABLE_NOT_EXIST), error_message = "no table"}:
  //   field 1 varint: tag (1<<3)|0 = 08, value 07
  //   field 2 bytes:  tag (2<<3)|2 = 12, length 08, "no table"
  const Bytes body{0x01, 0x01, 0x02, 0x03, 0x04, 0x08, 0x07, 0x12, 0x08,
                   'n',  'o',  ' ',  't',  'a',  'b',  'l',  'e'};
  auto r = DecodeResponse(body.data(), body.size());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->type, ResponseType::kError);
  EXPECT_EQ(r->request_id, 0x01020304);
  ASSERT_EQ(r->body.size(), 12u);
  fluss::proto::ErrorResponse err;
  ASSERT_TRUE(err.ParseFromArray(r->body.data(), static_cast<int>(r->body.size())));
  EXPECT_EQ(err.error_code(), 7);
  EXPECT_EQ(err.error_message(), "no table");
}

TEST(ResponseFrame, ServerFailureHasNoRequestId) {
  // SERVER_FAILURE (type 2): no request id; the body follows the type byte directly.
  // ErrorResponse{error_code = -1}: int32 -1 is sign-extended to a 10-byte varint
  // (ff ff ff ff ff ff ff ff ff 01), so the body is 08 + those 10 bytes.
  const Bytes body{0x02, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  auto r = DecodeResponse(body.data(), body.size());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->type, ResponseType::kServerFailure);
  EXPECT_EQ(r->request_id, -1);
  EXPECT_EQ(r->body, AsView(body, 1));
  fluss::proto::ErrorResponse err;
  ASSERT_TRUE(err.ParseFromArray(r->body.data(), static_cast<int>(r->body.size())));
  EXPECT_EQ(err.error_code(), -1);
  EXPECT_FALSE(err.has_error_message());
}

TEST(ResponseFrame, ServerFailureWithOnlyTheTypeByte) {
  // Shorter than 5 bytes is fine for type 2, whose header is 1 byte.
  const Bytes body{0x02};
  auto r = DecodeResponse(body.data(), body.size());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->type, ResponseType::kServerFailure);
  EXPECT_TRUE(r->body.empty());
}

TEST(ResponseFrame, RequestIdUsesAllFourBytes) {
  const Bytes body{0x00, 0x7F, 0x00, 0x00, 0x01};
  auto r = DecodeResponse(body.data(), body.size());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->request_id, 0x7F000001);
}

TEST(ResponseFrame, MalformedFramesAreProtocolErrors) {
  struct Case {
    const char* what;
    Bytes bytes;
  };
  const std::vector<Case> cases = {
      {"empty frame", {}},
      {"success without request id", {0x00}},
      {"success with a 3-byte request id", {0x00, 0x00, 0x00, 0x01}},
      {"error with a 2-byte request id", {0x01, 0x00, 0x01}},
      {"unknown type 3", {0x03, 0x00, 0x00, 0x00, 0x01}},
      {"unknown type 0x80 (negative int8)", {0x80, 0x00, 0x00, 0x00, 0x01}},
      {"unknown type 0xFF (-1)", {0xFF, 0x00, 0x00, 0x00, 0x01}},
  };
  for (const auto& c : cases) {
    auto r = DecodeResponse(c.bytes.data(), c.bytes.size());
    ASSERT_FALSE(r.ok()) << c.what;
    EXPECT_EQ(r.status().code(), StatusCode::kProtocol) << c.what;
  }
  // The message says which type was seen.
  const Bytes type3{0x03, 0x00, 0x00, 0x00, 0x01};
  EXPECT_NE(DecodeResponse(type3.data(), type3.size()).status().message().find("3"), std::string::npos);
}

// ---- error codes (protocol-rpc.md section 4) ----

TEST(ErrorCodes, NamesFollowTheJavaEnum) {
  // The full table of section 4, in code order -1..63 (typos "SEVER_" are Java's).
  const char* const kExpected[] = {
      "UNKNOWN_SERVER_ERROR", "NONE", "NETWORK_EXCEPTION", "UNSUPPORTED_VERSION", "CORRUPT_MESSAGE",
      "DATABASE_NOT_EXIST", "DATABASE_NOT_EMPTY", "DATABASE_ALREADY_EXIST", "TABLE_NOT_EXIST",
      "TABLE_ALREADY_EXIST", "SCHEMA_NOT_EXIST", "LOG_STORAGE_EXCEPTION", "KV_STORAGE_EXCEPTION",
      "NOT_LEADER_OR_FOLLOWER", "RECORD_TOO_LARGE_EXCEPTION", "CORRUPT_RECORD_EXCEPTION",
      "INVALID_TABLE_EXCEPTION", "INVALID_DATABASE_EXCEPTION", "INVALID_REPLICATION_FACTOR",
      "INVALID_REQUIRED_ACKS", "LOG_OFFSET_OUT_OF_RANGE_EXCEPTION", "NON_PRIMARY_KEY_TABLE_EXCEPTION",
      "UNKNOWN_TABLE_OR_BUCKET_EXCEPTION", "INVALID_UPDATE_VERSION_EXCEPTION",
      "INVALID_COORDINATOR_EXCEPTION", "FENCED_LEADER_EPOCH_EXCEPTION", "REQUEST_TIME_OUT",
      "STORAGE_EXCEPTION", "OPERATION_NOT_ATTEMPTED_EXCEPTION",
      "NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION", "NOT_ENOUGH_REPLICAS_EXCEPTION",
      "SECURITY_TOKEN_EXCEPTION", "OUT_OF_ORDER_SEQUENCE_EXCEPTION", "DUPLICATE_SEQUENCE_EXCEPTION",
      "UNKNOWN_WRITER_ID_EXCEPTION", "INVALID_COLUMN_PROJECTION", "INVALID_TARGET_COLUMN",
      "PARTITION_NOT_EXISTS", "TABLE_NOT_PARTITIONED_EXCEPTION", "INVALID_TIMESTAMP_EXCEPTION",
      "INVALID_CONFIG_EXCEPTION", "LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION", "KV_SNAPSHOT_NOT_EXIST",
      "PARTITION_ALREADY_EXISTS", "PARTITION_SPEC_INVALID_EXCEPTION", "LEADER_NOT_AVAILABLE_EXCEPTION",
      "PARTITION_MAX_NUM_EXCEPTION", "AUTHENTICATE_EXCEPTION", "SECURITY_DISABLED_EXCEPTION",
      "AUTHORIZATION_EXCEPTION", "BUCKET_MAX_NUM_EXCEPTION", "FENCED_TIERING_EPOCH_EXCEPTION",
      "RETRIABLE_AUTHENTICATE_EXCEPTION", "INVALID_SERVER_RACK_INFO_EXCEPTION",
      "LAKE_SNAPSHOT_NOT_EXIST", "LAKE_TABLE_ALREADY_EXIST", "INELIGIBLE_REPLICA_EXCEPTION",
      "INVALID_ALTER_TABLE_EXCEPTION", "DELETION_DISABLED_EXCEPTION", "SERVER_NOT_EXIST_EXCEPTION",
      "SEVER_TAG_ALREADY_EXIST_EXCEPTION", "SEVER_TAG_NOT_EXIST_EXCEPTION",
      "REBALANCE_FAILURE_EXCEPTION", "NO_REBALANCE_IN_PROGRESS_EXCEPTION",
      "INVALID_PRODUCER_ID_EXCEPTION",
      // Fluss HEAD (apache/fluss Errors.java), after 0.9.1:
      "CONFIG_EXCEPTION", "NOT_COORDINATOR_LEADER_EXCEPTION", "SCANNER_EXPIRED", "UNKNOWN_SCANNER_ID",
      "INVALID_SCAN_REQUEST", "TOO_MANY_SCANNERS", "HISTORICAL_PARTITION_THROTTLED"};
  static_assert(sizeof(kExpected) / sizeof(kExpected[0]) == 72, "codes -1..70");
  for (int32_t code = -1; code <= 70; ++code)
    EXPECT_STREQ(fluss::protocol::ErrorCodeName(code), kExpected[code + 1]) << "code " << code;
  EXPECT_STREQ(fluss::protocol::ErrorCodeName(-2), "UNKNOWN");
  EXPECT_STREQ(fluss::protocol::ErrorCodeName(71), "UNKNOWN");
  // (found by the responses fuzzer: the index computation overflowed for the largest codes)
  EXPECT_STREQ(fluss::protocol::ErrorCodeName(std::numeric_limits<int32_t>::max()), "UNKNOWN");
  EXPECT_STREQ(fluss::protocol::ErrorCodeName(std::numeric_limits<int32_t>::min()), "UNKNOWN");

  // The public enumeration (include/fluss/error_codes.h) is the same table, in code order.
  const auto& all = fluss::AllErrorCodes();
  ASSERT_EQ(all.size(), 72u);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].first, static_cast<int32_t>(i) - 1);
    EXPECT_STREQ(all[i].second, kExpected[i]);
  }
  EXPECT_EQ(static_cast<int32_t>(fluss::ErrorCode::TABLE_NOT_EXIST), 7);
  EXPECT_EQ(static_cast<int32_t>(fluss::ErrorCode::HISTORICAL_PARTITION_THROTTLED), 70);
  EXPECT_STREQ(fluss::ErrorCodeName(fluss::ErrorCode::NOT_LEADER_OR_FOLLOWER), "NOT_LEADER_OR_FOLLOWER");
  EXPECT_EQ(fluss::protocol::NOT_LEADER_OR_FOLLOWER, 12);
  EXPECT_STREQ(fluss::ErrorName(-2), "CLIENT_ERROR");
}

TEST(ErrorCodes, RetriableAndInvalidMetadataSets) {
  // Section 4, columns "retriable" and "meta" (51 is retried by the auth handshake only).
  const std::set<int32_t> retriable = {1, 3, 9, 10, 11, 12, 14, 21, 25, 26, 28, 29, 44};
  const std::set<int32_t> meta = {1, 12, 21, 44};
  for (int32_t code = -1; code <= 73; ++code) {
    EXPECT_EQ(fluss::protocol::IsRetriableError(code), retriable.count(code) == 1) << "code " << code;
    EXPECT_EQ(fluss::protocol::IsInvalidMetadataError(code), meta.count(code) == 1) << "code " << code;
    EXPECT_EQ(fluss::IsRetriableErrorCode(code), retriable.count(code) == 1) << "code " << code;
  }
}

TEST(ErrorCodes, StatusCarriesTheCodeAndItsName) {
  auto st = fluss::Status::Server(7, "table fluss.t does not exist");
  EXPECT_EQ(st.code(), StatusCode::kServer);
  EXPECT_EQ(st.error_code(), 7);
  EXPECT_EQ(st.ToString(), "TABLE_NOT_EXIST (7): table fluss.t does not exist");
  EXPECT_FALSE(st.IsRetriable());
  EXPECT_TRUE(fluss::Status::Server(12, "x").IsRetriable());  // NOT_LEADER_OR_FOLLOWER
  // Transport failures and timeouts are retriable whatever their code; bad input is not.
  EXPECT_TRUE(fluss::Status::Network("reset").IsRetriable());
  EXPECT_TRUE(fluss::Status::Timeout("late").IsRetriable());
  EXPECT_FALSE(fluss::Status::InvalidArgument("bad").IsRetriable());
  EXPECT_EQ(fluss::Status::InvalidArgument("bad").ToString(), "CLIENT_ERROR (-2): bad");
  EXPECT_EQ(st.WithContext("GetTableInfo").message(), "GetTableInfo: table fluss.t does not exist");
}

// 0.9.1 servers report some well-defined states as UNKNOWN_SERVER_ERROR (-1) with a Java stack
// trace (seen on a real cluster): a produce to a dropped table, and any call to a coordinator
// that is still starting.
TEST(ErrorCodes, UnknownServerErrorsAreRefinedFromTheJavaException) {
  auto dropped = fluss::protocol::ServerError(
      -1, "org.apache.fluss.exception.FlussRuntimeException: Failed to get tables '[db.t]'.\n\tat org.apache.fluss.X",
      "table db.t");
  EXPECT_EQ(dropped.error_code(), 7);
  EXPECT_FALSE(dropped.IsRetriable());
  EXPECT_EQ(dropped.message(),
            "table db.t: org.apache.fluss.exception.FlussRuntimeException: Failed to get tables '[db.t]'. (server stack "
            "trace omitted)");

  auto starting = fluss::protocol::ServerError(
      -1, "java.lang.IllegalStateException: CoordinatorEventProcessor is not initialized yet.\n\tat org.apache.fluss.Y");
  EXPECT_EQ(starting.error_code(), -1);
  EXPECT_TRUE(starting.IsRetriable());
  EXPECT_TRUE(starting.WithContext("list tables").IsRetriable());  // context keeps the verdict

  auto other = fluss::protocol::ServerError(-1, "java.lang.NullPointerException\n\tat a.b");
  EXPECT_EQ(other.error_code(), -1);
  EXPECT_FALSE(other.IsRetriable());
  // Known codes pass through; an empty message gets the code's name.
  EXPECT_EQ(fluss::protocol::ServerError(12, "").message(), "NOT_LEADER_OR_FOLLOWER");
  EXPECT_TRUE(fluss::protocol::ServerError(12, "").IsRetriable());
}

}  // namespace
