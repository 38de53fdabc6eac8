// LimitScan (api key 1033; protocol-rpc.md 11.6): the first `limit` rows of one bucket, from
// the bucket leader. Field numbers of the request start at 2:
//   LimitScanRequest: 2 table_id | 3 partition_id opt | 4 bucket_id | 5 limit
//   LimitScanResponse: 1 error_code opt | 2 error_message opt | 3 is_log_table opt | 4 records opt
// `records` holds log record batches for a log table (record/log_batch.h) and one value record
// batch (record/value_batch.h, not a KV batch) for a primary-key table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/bucket_response.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// The LimitScanRequest for `bucket` of table `table_id`; `limit` > 0 rows.
proto::LimitScanRequest MakeLimitScanRequest(int64_t table_id, const BucketRef& bucket, int32_t limit);

/// A successful LimitScan answer. `records` points into the response message, which must outlive
/// it; empty when the bucket has no rows.
struct LimitScanResult {
  bool is_log_table = false;
  std::string_view records;
};

/// The outcome of `response`: a server error (ServerError of errors.h, naming the table and
/// bucket) or the records. Fails with kProtocol when `expect_log_table` is set and the server's
/// is_log_table says otherwise (the table was re-created with another kind).
Result<LimitScanResult> ParseLimitScanResponse(int64_t table_id, const BucketRef& bucket,
                                               const proto::LimitScanResponse& response,
                                               std::optional<bool> expect_log_table = std::nullopt);

}  // namespace fluss::protocol
