// ListOffsets (api key 1021; protocol-rpc.md section 8), asked of the leader of the buckets by a
// client (follower_server_id -1):
//   ListOffsetsRequest: 1 follower_server_id | 2 offset_type | 3 table_id | 4 partition_id opt |
//                       5 bucket_id packed | 6 startTimestamp opt
//   ListOffsetsResponse: 1 buckets_resp rep { 1 bucket_id | 2 error_code opt |
//                        3 error_message opt | 4 offset opt }   (no partition id echoed)
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// offset_type values.
inline constexpr int32_t kListOffsetsEarliest = 0;   ///< the log start offset
inline constexpr int32_t kListOffsetsLatest = 1;     ///< the high watermark
inline constexpr int32_t kListOffsetsTimestamp = 2;  ///< the first offset at or after startTimestamp

/// The ListOffsetsRequest for `buckets` of table `table_id` (of partition `partition_id` when
/// set); `timestamp_ms` (epoch ms) is written when set, as kListOffsetsTimestamp needs.
proto::ListOffsetsRequest MakeListOffsetsRequest(int64_t table_id, std::optional<int64_t> partition_id,
                                                 const std::vector<int32_t>& buckets, int32_t offset_type,
                                                 std::optional<int64_t> timestamp_ms);

/// One bucket of a ListOffsetsResponse: its offset, or its server error.
struct ListOffsetsBucketResult {
  int32_t bucket_id = 0;
  Status status;
  int64_t offset = 0;
};

/// The buckets of `response` in the server's order. An entry with an error code has the
/// ServerError (errors.h) as status, `context` (e.g. "table db.t") and " bucket N" prefixed.
std::vector<ListOffsetsBucketResult> ParseListOffsetsResponse(const proto::ListOffsetsResponse& response,
                                                              const std::string& context);

}  // namespace fluss::protocol
