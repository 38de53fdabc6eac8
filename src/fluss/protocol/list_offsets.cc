#include "fluss/protocol/list_offsets.h"

#include "fluss/protocol/errors.h"

namespace fluss::protocol {

proto::ListOffsetsRequest MakeListOffsetsRequest(int64_t table_id, std::optional<int64_t> partition_id,
                                                 const std::vector<int32_t>& buckets, int32_t offset_type,
                                                 std::optional<int64_t> timestamp_ms) {
  proto::ListOffsetsRequest req;
  req.set_follower_server_id(-1);
  req.set_offset_type(offset_type);
  req.set_table_id(table_id);
  if (partition_id) req.set_partition_id(*partition_id);
  for (int32_t b : buckets) req.add_bucket_id(b);
  if (timestamp_ms) req.set_starttimestamp(*timestamp_ms);
  return req;
}

std::vector<ListOffsetsBucketResult> ParseListOffsetsResponse(const proto::ListOffsetsResponse& response,
                                                              const std::string& context) {
  std::vector<ListOffsetsBucketResult> out;
  out.reserve(static_cast<size_t>(response.buckets_resp_size()));
  for (const auto& r : response.buckets_resp()) {
    ListOffsetsBucketResult b;
    b.bucket_id = r.bucket_id();
    if (r.has_error_code())
      b.status = ServerError(r.error_code(), r.error_message(), context + " bucket " + std::to_string(r.bucket_id()));
    else
      b.offset = r.offset();
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace fluss::protocol
