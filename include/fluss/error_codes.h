// The Fluss server error codes (the Java enum org.apache.fluss.rpc.protocol.Errors): the one
// table of names, numbers and retry classification of the client. Status::error_code() holds one
// of these when the server answered (or a client_error code of status.h when it did not).
//
// Codes -1 .. 63 are those of Fluss 0.9.1; 64 .. 70 are those Fluss HEAD added since (a 0.9.1
// server never sends them). Names keep the Java spelling, typos included ("SEVER_TAG_...").
//
// Thread affinity: none; constants and pure functions.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace fluss {

/// The table itself: X(NAME, code, retriable) per code, in code order. `retriable` is true when
/// the Java exception of the code extends RetriableException (kept as 0.9.1 classifies them).
/// Expand it with a macro of your own to derive anything from the table; do not copy it.
#define FLUSS_ERROR_CODES(X)                              \
  X(UNKNOWN_SERVER_ERROR, -1, false)                      \
  X(NONE, 0, false)                                       \
  X(NETWORK_EXCEPTION, 1, true)                           \
  X(UNSUPPORTED_VERSION, 2, false)                        \
  X(CORRUPT_MESSAGE, 3, true)                             \
  X(DATABASE_NOT_EXIST, 4, false)                         \
  X(DATABASE_NOT_EMPTY, 5, false)                         \
  X(DATABASE_ALREADY_EXIST, 6, false)                     \
  X(TABLE_NOT_EXIST, 7, false)                            \
  X(TABLE_ALREADY_EXIST, 8, false)                        \
  X(SCHEMA_NOT_EXIST, 9, true)                            \
  X(LOG_STORAGE_EXCEPTION, 10, true)                      \
  X(KV_STORAGE_EXCEPTION, 11, true)                       \
  X(NOT_LEADER_OR_FOLLOWER, 12, true)                     \
  X(RECORD_TOO_LARGE_EXCEPTION, 13, false)                \
  X(CORRUPT_RECORD_EXCEPTION, 14, true)                   \
  X(INVALID_TABLE_EXCEPTION, 15, false)                   \
  X(INVALID_DATABASE_EXCEPTION, 16, false)                \
  X(INVALID_REPLICATION_FACTOR, 17, false)                \
  X(INVALID_REQUIRED_ACKS, 18, false)                     \
  X(LOG_OFFSET_OUT_OF_RANGE_EXCEPTION, 19, false)         \
  X(NON_PRIMARY_KEY_TABLE_EXCEPTION, 20, false)           \
  X(UNKNOWN_TABLE_OR_BUCKET_EXCEPTION, 21, true)          \
  X(INVALID_UPDATE_VERSION_EXCEPTION, 22, false)          \
  X(INVALID_COORDINATOR_EXCEPTION, 23, false)             \
  X(FENCED_LEADER_EPOCH_EXCEPTION, 24, false)             \
  X(REQUEST_TIME_OUT, 25, true)                           \
  X(STORAGE_EXCEPTION, 26, true)                          \
  X(OPERATION_NOT_ATTEMPTED_EXCEPTION, 27, false)         \
  X(NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION, 28, true) \
  X(NOT_ENOUGH_REPLICAS_EXCEPTION, 29, true)              \
  X(SECURITY_TOKEN_EXCEPTION, 30, false)                  \
  X(OUT_OF_ORDER_SEQUENCE_EXCEPTION, 31, false)           \
  X(DUPLICATE_SEQUENCE_EXCEPTION, 32, false)              \
  X(UNKNOWN_WRITER_ID_EXCEPTION, 33, false)               \
  X(INVALID_COLUMN_PROJECTION, 34, false)                 \
  X(INVALID_TARGET_COLUMN, 35, false)                     \
  X(PARTITION_NOT_EXISTS, 36, false)                      \
  X(TABLE_NOT_PARTITIONED_EXCEPTION, 37, false)           \
  X(INVALID_TIMESTAMP_EXCEPTION, 38, false)               \
  X(INVALID_CONFIG_EXCEPTION, 39, false)                  \
  X(LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION, 40, false)     \
  X(KV_SNAPSHOT_NOT_EXIST, 41, false)                     \
  X(PARTITION_ALREADY_EXISTS, 42, false)                  \
  X(PARTITION_SPEC_INVALID_EXCEPTION, 43, false)          \
  X(LEADER_NOT_AVAILABLE_EXCEPTION, 44, true)             \
  X(PARTITION_MAX_NUM_EXCEPTION, 45, false)               \
  X(AUTHENTICATE_EXCEPTION, 46, false)                    \
  X(SECURITY_DISABLED_EXCEPTION, 47, false)               \
  X(AUTHORIZATION_EXCEPTION, 48, false)                   \
  X(BUCKET_MAX_NUM_EXCEPTION, 49, false)                  \
  X(FENCED_TIERING_EPOCH_EXCEPTION, 50, false)            \
  X(RETRIABLE_AUTHENTICATE_EXCEPTION, 51, false)          \
  X(INVALID_SERVER_RACK_INFO_EXCEPTION, 52, false)        \
  X(LAKE_SNAPSHOT_NOT_EXIST, 53, false)                   \
  X(LAKE_TABLE_ALREADY_EXIST, 54, false)                  \
  X(INELIGIBLE_REPLICA_EXCEPTION, 55, false)              \
  X(INVALID_ALTER_TABLE_EXCEPTION, 56, false)             \
  X(DELETION_DISABLED_EXCEPTION, 57, false)               \
  X(SERVER_NOT_EXIST_EXCEPTION, 58, false)                \
  X(SEVER_TAG_ALREADY_EXIST_EXCEPTION, 59, false)         \
  X(SEVER_TAG_NOT_EXIST_EXCEPTION, 60, false)             \
  X(REBALANCE_FAILURE_EXCEPTION, 61, false)               \
  X(NO_REBALANCE_IN_PROGRESS_EXCEPTION, 62, false)        \
  X(INVALID_PRODUCER_ID_EXCEPTION, 63, false)             \
  X(CONFIG_EXCEPTION, 64, false)                          \
  X(NOT_COORDINATOR_LEADER_EXCEPTION, 65, false)          \
  X(SCANNER_EXPIRED, 66, false)                           \
  X(UNKNOWN_SCANNER_ID, 67, false)                        \
  X(INVALID_SCAN_REQUEST, 68, false)                      \
  X(TOO_MANY_SCANNERS, 69, false)                         \
  X(HISTORICAL_PARTITION_THROTTLED, 70, false)

/// A Fluss server error code, e.g. `ErrorCode::TABLE_NOT_EXIST` (7). Compare with
/// Status::error_code() through static_cast<int32_t>.
enum class ErrorCode : int32_t {
#define FLUSS_ERROR_CODE_ENUMERATOR(name, code, retriable) name = code,
  FLUSS_ERROR_CODES(FLUSS_ERROR_CODE_ENUMERATOR)
#undef FLUSS_ERROR_CODE_ENUMERATOR
};

/// The name of a server error code as in the Java `Errors` enum ("TABLE_NOT_EXIST"), or
/// "UNKNOWN" for a number that is not a Fluss server code (fluss::ErrorName of status.h also
/// names the client's own -2, CLIENT_ERROR).
const char* ErrorCodeName(int32_t code);
inline const char* ErrorCodeName(ErrorCode code) { return ErrorCodeName(static_cast<int32_t>(code)); }

/// Every Fluss server error code with its name, in code order (UNKNOWN_SERVER_ERROR -1 first).
const std::vector<std::pair<int32_t, const char*>>& AllErrorCodes();

/// True when the server's exception for `code` is retriable (extends RetriableException in Java):
/// the same request may succeed later. False for unknown codes.
bool IsRetriableErrorCode(int32_t code);

}  // namespace fluss
