// PrefixLookup (api key 1034, versions 0..1; protocol-rpc.md 11.5 and 3.3): lookups by a prefix
// of the primary key (the bucket key), sent to the bucket leader. Request building and response
// matching over the generated messages.
//
//   PrefixLookupRequest: 1 table_id | 2 buckets_req { 1 partition_id opt | 2 bucket_id |
//                        3 keys rep bytes (prefix keys, row::KeyEncoding::PrefixKeyEncoder) }
//   PrefixLookupResponse: 1 buckets_resp { 1 partition_id opt | 2 bucket_id | 3 error_code opt |
//                        4 error_message opt | 5 value_lists rep PbValueList { 1 values rep bytes } }
// One PbValueList per requested prefix, in request order, holding every matching row's value
// bytes (row/kv_value.h), possibly none.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/bucket_response.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// The prefix keys asked of one bucket.
struct PrefixLookupBucketKeys {
  BucketRef bucket;
  std::vector<std::string> keys;  ///< encoded prefix keys
};

/// The PrefixLookupRequest for `buckets` of table `table_id`, keys in the given order.
proto::PrefixLookupRequest MakePrefixLookupRequest(int64_t table_id, const std::vector<PrefixLookupBucketKeys>& buckets);

/// The result for one requested bucket: `status` (a server error of the bucket, or kProtocol for
/// a missing result or a list count other than the key count), and when OK one list per
/// requested prefix, in request order, of the matching rows' value bytes. The views point into
/// the response message, which must outlive them.
struct PrefixLookupBucketResult {
  Status status;
  std::vector<std::vector<std::string_view>> values;
};

/// Matches `response` to the request made from `buckets`, one result per entry of `buckets`.
/// Fails as a whole (kProtocol) only for a result of a bucket that was not requested or that
/// appears twice.
Result<std::vector<PrefixLookupBucketResult>> MatchPrefixLookupResponse(
    int64_t table_id, const std::vector<PrefixLookupBucketKeys>& buckets, const proto::PrefixLookupResponse& response);

}  // namespace fluss::protocol
