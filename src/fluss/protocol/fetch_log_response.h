// FetchLogResponse (api key 1015; protocol-rpc.md 11.3) read by hand, so that the records of
// each bucket stay where they arrived, in the response frame, instead of being copied into a
// generated std::string (that copy, into fresh pages, was 16% of a scan's CPU; issue 11):
//   FetchLogResponse: 1 tables_resp rep PbFetchLogRespForTable
//   PbFetchLogRespForTable: 1 table_id (required) | 2 buckets_resp rep PbFetchLogRespForBucket
//   PbFetchLogRespForBucket: 1 partition_id opt | 2 bucket_id (required) | 3 error_code opt |
//                            4 error_message opt | 5 high_watermark opt | 6 log_start_offset opt |
//                            7 remote_log_fetch_info opt (a message) | 8 records opt (bytes)
// Read as protobuf reads it: fields in any order, unknown fields skipped, the last value of a
// field that is not repeated wins.
//
// Thread affinity: none; works on the caller's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fluss/protocol/bucket_response.h"
#include "fluss/protocol/fetch_log_placement.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// One PbFetchLogRespForBucket, with the table id of its PbFetchLogRespForTable.
struct FetchLogBucketResponse {
  int64_t table_id = 0;
  BucketRef bucket;
  int32_t error_code = 0;  ///< 0 (NONE) when absent
  std::string error_message;
  std::optional<int64_t> high_watermark;
  std::optional<int64_t> log_start_offset;
  bool has_remote_log_fetch_info = false;
  bool has_records = false;
  /// The records (log record batches, record/log_batch.h): `records_size` bytes at
  /// body + records_offset of the body given to ParseFetchLogResponse.
  size_t records_offset = 0;
  size_t records_size = 0;
};

/// The buckets of the FetchLogResponse in the `size` bytes at `body`, in their order.
/// kProtocol when the bytes are malformed or a required field (table_id, bucket_id) is absent.
///
/// Each bucket's records are moved in place by up to 7 bytes towards the start of `body`, over
/// bytes already parsed, so that they start 8-byte aligned in memory where there is room (a
/// batch's Arrow buffers are then aligned too, and Arrow reads them where they are instead of
/// copying them; record/arrow_log.cc). So `body` must be writable, and afterwards only the
/// records ranges of the result hold meaningful bytes. `placed`: the records FetchLogPlacement
/// put in place while `body` was received (fetch_log_placement.h), in body order; those are
/// not moved again. kProtocol as well when one of them is not a records field here.
Result<std::vector<FetchLogBucketResponse>> ParseFetchLogResponse(uint8_t* body, size_t size,
                                                                  const std::vector<PlacedRecords>& placed = {});

}  // namespace fluss::protocol
