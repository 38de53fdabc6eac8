#include "fluss/protocol/prefix_lookup.h"

namespace fluss::protocol {

proto::PrefixLookupRequest MakePrefixLookupRequest(int64_t table_id, const std::vector<PrefixLookupBucketKeys>& buckets) {
  proto::PrefixLookupRequest req;
  req.set_table_id(table_id);
  AddKeyedBuckets(buckets, [&] { return req.add_buckets_req(); });
  return req;
}

Result<std::vector<PrefixLookupBucketResult>> MatchPrefixLookupResponse(
    int64_t table_id, const std::vector<PrefixLookupBucketKeys>& buckets, const proto::PrefixLookupResponse& response) {
  return MatchKeyedResponse<proto::PbPrefixLookupRespForBucket, PrefixLookupBucketResult>(
      "prefix lookup", table_id, buckets, response.buckets_resp(),
      [](const proto::PbPrefixLookupRespForBucket& r) -> const auto& { return r.value_lists(); },
      [](PrefixLookupBucketResult& out, const auto& lists) {
        for (const auto& list : lists) out.values.emplace_back(list.values().begin(), list.values().end());
      });
}

}  // namespace fluss::protocol
