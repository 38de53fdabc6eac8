// Batches the point or prefix lookups of one table per bucket leader and sends them (Lookup or
// PrefixLookup to the leader; protocol-rpc.md 11.4 / 11.5): a leader with no request in flight
// gets one at once with every key waiting for it; while one is in flight, keys gather and go
// in the next request (or at once when a full batch of client.lookup.max-batch-size keys is
// waiting), at most client.lookup.max-inflight-requests requests in flight. Leader changes and
// other retriable errors are retried, after a metadata refresh, until client.request-timeout.
// Keys of a partitioned table name their partition; its id is resolved at the coordinator on
// first use, and a key of a partition that does not exist is not found (as in the Java client).
//
// Thread affinity: Enqueue may be called from any thread (it takes `mu_`); everything else runs
// on the I/O thread; `waiting_`, the in-flight counts and `refreshing_` belong to it. `done`
// callbacks run on the I/O thread.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fluss/metadata/cluster.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/lookup.h"
#include "fluss/protocol/prefix_lookup.h"

namespace fluss::lookup {

/// Point lookups: one value (or not found) per key.
struct PointLookup {
  using Request = proto::LookupRequest;
  using Response = proto::LookupResponse;
  using BucketKeys = protocol::LookupBucketKeys;
  using Outcome = std::optional<std::string>;  ///< value bytes; nullopt = no row with the key
  static Outcome NotFound() { return std::nullopt; }
  static constexpr protocol::ApiKey kApi = protocol::ApiKey::LOOKUP;
  static constexpr const char* kName = "lookup";
  static Request Make(int64_t table_id, const std::vector<BucketKeys>& b) { return protocol::MakeLookupRequest(table_id, b); }
  static auto Match(int64_t table_id, const std::vector<BucketKeys>& b, const Response& r) {
    return protocol::MatchLookupResponse(table_id, b, r);
  }
  template <typename BucketResult>
  static Outcome Take(const BucketResult& r, size_t i) {
    return r.values[i] ? Outcome(std::string(*r.values[i])) : std::nullopt;
  }
};

/// Prefix lookups: every matching row's value per prefix key.
struct PrefixLookup {
  using Request = proto::PrefixLookupRequest;
  using Response = proto::PrefixLookupResponse;
  using BucketKeys = protocol::PrefixLookupBucketKeys;
  using Outcome = std::vector<std::string>;  ///< value bytes of every matching row
  static Outcome NotFound() { return {}; }
  static constexpr protocol::ApiKey kApi = protocol::ApiKey::PREFIX_LOOKUP;
  static constexpr const char* kName = "prefix lookup";
  static Request Make(int64_t table_id, const std::vector<BucketKeys>& b) {
    return protocol::MakePrefixLookupRequest(table_id, b);
  }
  static auto Match(int64_t table_id, const std::vector<BucketKeys>& b, const Response& r) {
    return protocol::MatchPrefixLookupResponse(table_id, b, r);
  }
  template <typename BucketResult>
  static Outcome Take(const BucketResult& r, size_t i) {
    return Outcome(r.values[i].begin(), r.values[i].end());
  }
};

template <typename Kind>
class LookupSender : public std::enable_shared_from_this<LookupSender<Kind>> {
 public:
  using Done = std::function<void(Result<typename Kind::Outcome>)>;

  LookupSender(std::shared_ptr<metadata::Cluster> cluster, TablePath path, int64_t table_id);

  /// Queues the encoded `key` of `bucket` of partition `partition` (its name; empty for a
  /// non-partitioned table); `done` gets the outcome once (I/O thread). After the connection
  /// closed, `done` gets kClosed at once. Any thread.
  void Enqueue(std::string partition, int32_t bucket, std::string key, Done done);

  /// Requests sent so far (for tests of the batching).
  int64_t requests_sent() const { return requests_sent_.load(); }

 private:
  struct Pending {
    std::string partition;                // name; empty for a non-partitioned table
    std::optional<int64_t> partition_id;  // resolved from the metadata cache
    int32_t bucket = 0;
    std::string key;
    Done done;
    metadata::Clock::time_point deadline;
    Status last_error;  // the last retriable failure, reported at the deadline
  };

  /// Takes new keys, fails expired ones, sends what may be sent (I/O thread).
  void Drain();
  void Send(int32_t leader, std::vector<Pending> batch);
  /// The request entries of `batch` (sorted by bucket): one per run of a bucket, keys in order.
  static std::vector<typename Kind::BucketKeys> BucketsOf(const std::vector<Pending>& batch);
  void OnResponse(int32_t leader, std::vector<Pending> batch, Result<typename Kind::Response> resp);
  /// Puts `p` back to be retried after `st`, or fails it when its deadline passed.
  void Retry(Pending p, const Status& st);
  /// Refreshes the table's metadata and that of `partitions` (names), then drains again. Fails
  /// the waiting keys of a table that no longer exists (or was recreated); keys of a partition
  /// that does not exist are not found.
  void StartRefresh(std::set<std::string> partitions);
  void DrainLater();
  std::string Where(const Pending& p) const {
    return "table " + path_.ToString() + (p.partition.empty() ? "" : " partition '" + p.partition + "'") + " bucket " +
           std::to_string(p.bucket);
  }

  const std::shared_ptr<metadata::Cluster> cluster_;
  const TablePath path_;
  const int64_t table_id_;
  std::mutex mu_;
  std::vector<Pending> incoming_;  // guarded by mu_
  bool posted_ = false;            // guarded by mu_
  std::atomic<int64_t> requests_sent_{0};

  std::deque<Pending> waiting_;
  std::map<int32_t, int> in_flight_;  // per leader
  int in_flight_total_ = 0;
  bool refreshing_ = false;
  bool drain_later_ = false;
};

extern template class LookupSender<PointLookup>;
extern template class LookupSender<PrefixLookup>;

}  // namespace fluss::lookup
