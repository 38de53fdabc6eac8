// Fluss server error codes: names and retry classification (protocol-rpc.md section 4).
#pragma once

#include <cstdint>
#include <string>

#include "fluss/status.h"

namespace fluss::protocol {

enum ErrorCode : int32_t {
  UNKNOWN_SERVER_ERROR = -1,
  NONE = 0,
  NETWORK_EXCEPTION = 1,
  UNSUPPORTED_VERSION = 2,
  CORRUPT_MESSAGE = 3,
  DATABASE_NOT_EXIST = 4,
  DATABASE_NOT_EMPTY = 5,
  DATABASE_ALREADY_EXIST = 6,
  TABLE_NOT_EXIST = 7,
  TABLE_ALREADY_EXIST = 8,
  SCHEMA_NOT_EXIST = 9,
  LOG_STORAGE_EXCEPTION = 10,
  KV_STORAGE_EXCEPTION = 11,
  NOT_LEADER_OR_FOLLOWER = 12,
  RECORD_TOO_LARGE_EXCEPTION = 13,
  CORRUPT_RECORD_EXCEPTION = 14,
  INVALID_TABLE_EXCEPTION = 15,
  INVALID_DATABASE_EXCEPTION = 16,
  INVALID_REPLICATION_FACTOR = 17,
  INVALID_REQUIRED_ACKS = 18,
  LOG_OFFSET_OUT_OF_RANGE_EXCEPTION = 19,
  UNKNOWN_TABLE_OR_BUCKET_EXCEPTION = 21,
  FENCED_LEADER_EPOCH_EXCEPTION = 24,
  REQUEST_TIME_OUT = 25,
  STORAGE_EXCEPTION = 26,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION = 28,
  NOT_ENOUGH_REPLICAS_EXCEPTION = 29,
  OUT_OF_ORDER_SEQUENCE_EXCEPTION = 31,
  DUPLICATE_SEQUENCE_EXCEPTION = 32,
  UNKNOWN_WRITER_ID_EXCEPTION = 33,
  PARTITION_NOT_EXISTS = 36,
  LEADER_NOT_AVAILABLE_EXCEPTION = 44,
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
const char* ErrorCodeName(int32_t code);
/// The Java exception extends RetriableException.
bool IsRetriableError(int32_t code);
/// The Java exception extends InvalidMetadataException: refresh metadata before retrying.
bool IsInvalidMetadataError(int32_t code);

}  // namespace fluss::protocol
