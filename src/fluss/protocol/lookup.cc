#include "fluss/protocol/lookup.h"

namespace fluss::protocol {

proto::LookupRequest MakeLookupRequest(int64_t table_id, const std::vector<LookupBucketKeys>& buckets,
                                       const std::optional<LookupInsertIfNotExists>& insert) {
  proto::LookupRequest req;
  req.set_table_id(table_id);
  AddKeyedBuckets(buckets, [&] { return req.add_buckets_req(); });
  if (insert) {
    req.set_insert_if_not_exists(true);
    req.set_acks(insert->acks);
    req.set_timeout_ms(insert->timeout_ms);
  }
  return req;
}

Result<std::vector<LookupBucketResult>> MatchLookupResponse(int64_t table_id, const std::vector<LookupBucketKeys>& buckets,
                                                            const proto::LookupResponse& response) {
  return MatchKeyedResponse<proto::PbLookupRespForBucket, LookupBucketResult>(
      "lookup", table_id, buckets, response.buckets_resp(),
      [](const proto::PbLookupRespForBucket& r) -> const auto& { return r.values(); },
      [](LookupBucketResult& out, const auto& values) {
        out.values.reserve(static_cast<size_t>(values.size()));
        for (const auto& v : values)
          out.values.push_back(v.has_values() ? std::optional<std::string_view>(v.values()) : std::nullopt);
      });
}

}  // namespace fluss::protocol
