// Lookup (api key 1017, versions 0..1; protocol-rpc.md 11.4 and 3.3): primary-key point lookups,
// sent to the bucket leader. Request building and response matching; the messages are the
// generated ones (no hot `records` field).
//
//   LookupRequest: 1 table_id | 2 buckets_req { 1 partition_id opt | 2 bucket_id | 3 keys rep } |
//                  3 insert_if_not_exists opt (0.9+) | 4 acks opt | 5 timeout_ms opt
//   LookupResponse: 1 buckets_resp { 1 partition_id opt | 2 bucket_id | 3 error_code opt |
//                  4 error_message opt | 5 values rep PbValue { 1 values bytes opt } }
// One PbValue per requested key, in request order; a PbValue without `values` = not found (an
// empty present value is a value). Keys are primary-key bytes (row/key_encoding.h); values are
// value bytes (row/kv_value.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/bucket_response.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// The keys asked of one bucket.
struct LookupBucketKeys {
  BucketRef bucket;
  std::vector<std::string> keys;  ///< encoded primary keys
};

/// Options of insert_if_not_exists (0.9+): missing keys are inserted (a put with the primary-key
/// columns as target columns) and the new rows returned. `acks` / `timeout_ms` as in PutKv.
struct LookupInsertIfNotExists {
  int32_t acks = -1;
  int32_t timeout_ms = 30000;
};

/// The LookupRequest for `buckets` of table `table_id` (one PbLookupReqForBucket per entry, keys
/// in the given order). With `insert`, sets insert_if_not_exists, acks and timeout_ms.
proto::LookupRequest MakeLookupRequest(int64_t table_id, const std::vector<LookupBucketKeys>& buckets,
                                       const std::optional<LookupInsertIfNotExists>& insert = std::nullopt);

/// The result for one requested bucket: `status` (a server error of the bucket, or kProtocol for
/// a missing result or a value count other than the key count), and when OK one entry per
/// requested key in request order: the value bytes, or nullopt when the key was not found. The
/// views point into the response message, which must outlive them.
struct LookupBucketResult {
  Status status;
  std::vector<std::optional<std::string_view>> values;
};

/// Matches `response` to the request made from `buckets` (MakeLookupRequest), one result per
/// entry of `buckets`. Fails as a whole (kProtocol) only for a result of a bucket that was not
/// requested or that appears twice; `table_id` names the table in per-bucket errors.
Result<std::vector<LookupBucketResult>> MatchLookupResponse(int64_t table_id, const std::vector<LookupBucketKeys>& buckets,
                                                            const proto::LookupResponse& response);

}  // namespace fluss::protocol
