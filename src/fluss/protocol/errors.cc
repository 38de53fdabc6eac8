#include "fluss/protocol/errors.h"

namespace fluss::protocol {

namespace {
// Index = code + 1 (code -1 .. 63).
constexpr const char* kNames[] = {
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
    "PARTITION_ALREADY_EXISTS", "PARTITION_SPEC_INVALID_EXCEPTION",
    "LEADER_NOT_AVAILABLE_EXCEPTION", "PARTITION_MAX_NUM_EXCEPTION", "AUTHENTICATE_EXCEPTION",
    "SECURITY_DISABLED_EXCEPTION", "AUTHORIZATION_EXCEPTION", "BUCKET_MAX_NUM_EXCEPTION",
    "FENCED_TIERING_EPOCH_EXCEPTION", "RETRIABLE_AUTHENTICATE_EXCEPTION",
    "INVALID_SERVER_RACK_INFO_EXCEPTION", "LAKE_SNAPSHOT_NOT_EXIST", "LAKE_TABLE_ALREADY_EXIST",
    "INELIGIBLE_REPLICA_EXCEPTION", "INVALID_ALTER_TABLE_EXCEPTION", "DELETION_DISABLED_EXCEPTION",
    "SERVER_NOT_EXIST_EXCEPTION", "SEVER_TAG_ALREADY_EXIST_EXCEPTION",
    "SEVER_TAG_NOT_EXIST_EXCEPTION", "REBALANCE_FAILURE_EXCEPTION",
    "NO_REBALANCE_IN_PROGRESS_EXCEPTION", "INVALID_PRODUCER_ID_EXCEPTION",
};
constexpr int kCount = sizeof(kNames) / sizeof(kNames[0]);
}  // namespace

std::string ServerMessage(int32_t code, const std::string& message) {
  if (code != UNKNOWN_SERVER_ERROR) return message;
  const size_t nl = message.find('\n');
  if (nl == std::string::npos) return message;
  return message.substr(0, nl) + " (server stack trace omitted)";
}

namespace {
bool Contains(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }
}  // namespace

Status ServerError(int32_t code, const std::string& message, const std::string& context) {
  std::string shown = ServerMessage(code, message);
  if (shown.empty()) shown = ErrorCodeName(code);
  if (!context.empty()) shown = context + ": " + shown;
  if (code == UNKNOWN_SERVER_ERROR) {
    // The Java exception's class name or text is in the message (first line or stack trace).
    if (Contains(message, "TableNotExistException") || Contains(message, "Failed to get tables") ||
        (Contains(message, "Table ") && Contains(message, "does not exist")))
      return Status::Server(TABLE_NOT_EXIST, shown);
    if (Contains(message, "not initialized yet") || Contains(message, "NotCoordinatorLeader") ||
        Contains(message, "is not ready") || Contains(message, "ServerNotExist"))
      return Status::ServerTransient(code, shown + " (transient: the server is starting or changing roles)");
  }
  return Status::Server(code, shown);
}

const char* ErrorCodeName(int32_t code) {
  if (code < -1 || code + 1 >= kCount) return "UNKNOWN";
  return kNames[code + 1];
}

bool IsRetriableError(int32_t code) {
  switch (code) {
    case NETWORK_EXCEPTION: case CORRUPT_MESSAGE: case SCHEMA_NOT_EXIST:
    case LOG_STORAGE_EXCEPTION: case KV_STORAGE_EXCEPTION: case NOT_LEADER_OR_FOLLOWER:
    case CORRUPT_RECORD_EXCEPTION: case UNKNOWN_TABLE_OR_BUCKET_EXCEPTION:
    case REQUEST_TIME_OUT: case STORAGE_EXCEPTION: case NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION:
    case NOT_ENOUGH_REPLICAS_EXCEPTION: case LEADER_NOT_AVAILABLE_EXCEPTION:
      return true;
    default:
      return false;
  }
}

bool IsInvalidMetadataError(int32_t code) {
  return code == NETWORK_EXCEPTION || code == NOT_LEADER_OR_FOLLOWER ||
         code == UNKNOWN_TABLE_OR_BUCKET_EXCEPTION || code == LEADER_NOT_AVAILABLE_EXCEPTION;
}

}  // namespace fluss::protocol
