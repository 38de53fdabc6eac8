// Matching per-bucket results of a data-plane response (PutKv, Lookup, PrefixLookup, ...) to the
// buckets of the request (protocol-rpc.md section 11: per-bucket responses are matched by
// (partition_id, bucket_id); their order is not the request order).
//
// Thread affinity: none; pure functions over the caller's messages.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fluss/protocol/errors.h"
#include "fluss/status.h"

namespace fluss::protocol {

/// A bucket of one table: partition id (absent for a non-partitioned table) and bucket id.
struct BucketRef {
  std::optional<int64_t> partition_id;
  int32_t bucket_id = 0;
  bool operator<(const BucketRef& o) const {
    return std::make_pair(partition_id, bucket_id) < std::make_pair(o.partition_id, o.bucket_id);
  }
  bool operator==(const BucketRef& o) const = default;
  /// "bucket 3" or "partition 12 bucket 3", for messages.
  std::string ToString() const {
    return (partition_id ? "partition " + std::to_string(*partition_id) + " " : std::string()) + "bucket " +
           std::to_string(bucket_id);
  }
};

/// The BucketRef of each entry of `buckets` (any container of structs with a `bucket` member).
template <typename Buckets>
std::vector<BucketRef> BucketRefsOf(const Buckets& buckets) {
  std::vector<BucketRef> refs;
  refs.reserve(buckets.size());
  for (const auto& b : buckets) refs.push_back(b.bucket);
  return refs;
}

/// For each bucket of `requested`, the response entry of `responses` (a repeated per-bucket
/// message with has_partition_id / partition_id / bucket_id), or nullptr when the server sent
/// none. Fails with kProtocol for an entry of a bucket that was not requested or that appears
/// twice.
template <typename RespBucket, typename Repeated>
Result<std::vector<const RespBucket*>> MatchBuckets(const std::vector<BucketRef>& requested, const Repeated& responses) {
  std::map<BucketRef, size_t> index;
  for (size_t i = 0; i < requested.size(); ++i) index.emplace(requested[i], i);
  std::vector<const RespBucket*> out(requested.size(), nullptr);
  for (const RespBucket& r : responses) {
    BucketRef ref;
    if (r.has_partition_id()) ref.partition_id = r.partition_id();
    ref.bucket_id = r.bucket_id();
    auto it = index.find(ref);
    if (it == index.end()) return Status::Protocol("response for " + ref.ToString() + ", which was not requested");
    if (out[it->second] != nullptr) return Status::Protocol("two responses for " + ref.ToString());
    out[it->second] = &r;
  }
  return out;
}

/// The outcome of one per-bucket response entry (has_error_code / error_code / error_message):
/// OK without an error code (or code 0), else ServerError (errors.h) with `context` (e.g.
/// "lookup in table 5 bucket 2") prefixed. A missing entry (nullptr) is a kProtocol error.
template <typename RespBucket>
Status BucketStatus(const RespBucket* r, const std::string& context) {
  if (r == nullptr) return Status::Protocol(context + ": the server sent no result for this bucket");
  if (!r->has_error_code() || r->error_code() == NONE) return Status::OK();
  return ServerError(r->error_code(), r->has_error_message() ? r->error_message() : std::string(), context);
}

/// Adds one per-bucket request entry per element of `buckets` (structs with `bucket` and `keys`)
/// through `add()` (e.g. [&] { return req.add_buckets_req(); }): partition id when set, bucket
/// id, the keys in order. For the key-carrying requests (Lookup, PrefixLookup).
template <typename Buckets, typename Add>
void AddKeyedBuckets(const Buckets& buckets, Add add) {
  for (const auto& b : buckets) {
    auto* pb = add();
    if (b.bucket.partition_id) pb->set_partition_id(*b.bucket.partition_id);
    pb->set_bucket_id(b.bucket.bucket_id);
    for (const auto& k : b.keys) pb->add_keys(k);
  }
}

/// Matches a key-carrying response (one item per requested key, in request order) to `buckets`:
/// one `Out` (with a `status` member) per requested bucket. A bucket's status is its server
/// error, or kProtocol for a missing result or an item count (`items(resp)`, a repeated field)
/// other than its key count; for an OK bucket `fill(out, items)` takes the items. `what` and
/// `table_id` name the request in messages ("lookup in table 5 bucket 2"). Fails as a whole
/// only as MatchBuckets does.
template <typename RespBucket, typename Out, typename Buckets, typename Repeated, typename Items, typename Fill>
Result<std::vector<Out>> MatchKeyedResponse(const char* what, int64_t table_id, const Buckets& buckets,
                                            const Repeated& responses, Items items, Fill fill) {
  FLUSS_ASSIGN_OR_RETURN(auto matched, MatchBuckets<RespBucket>(BucketRefsOf(buckets), responses));
  std::vector<Out> out(buckets.size());
  for (size_t i = 0; i < buckets.size(); ++i) {
    const std::string context =
        std::string(what) + " in table " + std::to_string(table_id) + " " + buckets[i].bucket.ToString();
    out[i].status = BucketStatus(matched[i], context);
    if (!out[i].status.ok()) continue;
    const auto& got = items(*matched[i]);
    if (static_cast<size_t>(got.size()) != buckets[i].keys.size()) {
      out[i].status = Status::Protocol(context + ": " + std::to_string(got.size()) + " results for " +
                                       std::to_string(buckets[i].keys.size()) + " keys");
      continue;
    }
    fill(out[i], got);
  }
  return out;
}

}  // namespace fluss::protocol
