// FetchLogRequest (api key 1015; protocol-rpc.md 11.3), sent by a client (follower_server_id -1)
// to the leader of the buckets:
//   FetchLogRequest: 1 follower_server_id | 2 max_bytes | 3 tables_req rep PbFetchLogReqForTable |
//                    4 max_wait_ms opt | 5 min_bytes opt
//   PbFetchLogReqForTable: 1 table_id | 2 projection_pushdown_enabled | 3 projected_fields packed |
//                          4 buckets_req rep { 1 partition_id opt | 2 bucket_id | 3 fetch_offset |
//                          4 max_fetch_bytes }
// Without min_bytes the server answers at once; with it, it waits up to max_wait_ms for that
// many bytes. The response's records are log record batches (record/log_batch.h).
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/bucket_response.h"

namespace fluss::protocol {

/// Where to read one bucket from: `fetch_offset` (-2 = the log start offset), at most
/// `max_fetch_bytes` of it.
struct FetchLogBucket {
  BucketRef bucket;
  int64_t fetch_offset = 0;
  int32_t max_fetch_bytes = 0;
};

/// The buckets of one table to read; `projected_fields` (column indexes, strictly ascending;
/// ARROW tables only) turns projection pushdown on, empty reads every column.
struct FetchLogTable {
  int64_t table_id = 0;
  std::vector<int32_t> projected_fields;
  std::vector<FetchLogBucket> buckets;
};

/// The client's FetchLogRequest for `table`, `max_bytes` for the whole answer. `max_wait_ms` > 0
/// lets the server wait that long for `min_bytes`; 0 writes neither field (an answer at once).
proto::FetchLogRequest MakeFetchLogRequest(const FetchLogTable& table, int32_t max_bytes, int32_t max_wait_ms,
                                           int32_t min_bytes);

}  // namespace fluss::protocol
