#include "fluss/protocol/limit_scan.h"

namespace fluss::protocol {

proto::LimitScanRequest MakeLimitScanRequest(int64_t table_id, const BucketRef& bucket, int32_t limit) {
  proto::LimitScanRequest req;
  req.set_table_id(table_id);
  if (bucket.partition_id) req.set_partition_id(*bucket.partition_id);
  req.set_bucket_id(bucket.bucket_id);
  req.set_limit(limit);
  return req;
}

Result<LimitScanResult> ParseLimitScanResponse(int64_t table_id, const BucketRef& bucket,
                                               const proto::LimitScanResponse& response,
                                               std::optional<bool> expect_log_table) {
  const std::string context = "limit scan of table " + std::to_string(table_id) + " " + bucket.ToString();
  FLUSS_RETURN_NOT_OK(BucketStatus(&response, context));
  LimitScanResult r;
  r.is_log_table = response.is_log_table();
  if (expect_log_table && response.has_is_log_table() && r.is_log_table != *expect_log_table)
    return Status::Protocol(context + ": the server answered for a " +
                            (r.is_log_table ? "log table" : "primary-key table"));
  if (response.has_records()) r.records = response.records();
  return r;
}

}  // namespace fluss::protocol
