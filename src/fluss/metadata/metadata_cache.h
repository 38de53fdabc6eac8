// Cluster metadata as last seen: coordinator, tablet servers, table ids by path, and bucket
// leaders keyed by table bucket (table id, partition id, bucket), so tables, partitions and
// leader moves have one home.
//
// Thread affinity: I/O thread only (owned by metadata::Cluster), no locking.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fluss/metadata/table_bucket.h"
#include "fluss/net/server_connection.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::metadata {

class MetadataCache {
 public:
  /// Takes the servers (when the response lists any) and the tables and partitions present
  /// in `resp`; each table or partition listed replaces what was known of it.
  void Update(const proto::MetadataResponse& resp);
  /// Forgets `path` (its id and every bucket leader, partitions included) so the next lookup
  /// refreshes it.
  void InvalidateTable(const TablePath& path);
  /// Forgets partition `partition_name` of table `table_id` (its id and bucket leaders), so the
  /// next lookup asks the coordinator.
  void InvalidatePartition(int64_t table_id, const std::string& partition_name);

  const std::optional<net::ServerEndpoint>& coordinator() const { return coordinator_; }
  const std::map<int32_t, net::ServerEndpoint>& tablet_servers() const { return tablet_servers_; }

  /// Leader node id of the bucket, if known and the node is alive in the server list.
  std::optional<int32_t> Leader(const TableBucket& bucket) const;
  /// Leader of `bucket` of the non-partitioned table `path`.
  std::optional<int32_t> Leader(const TablePath& path, int32_t bucket) const;
  /// Every known live bucket leader of the non-partitioned table `path` (bucket -> node id).
  std::map<int32_t, int32_t> Leaders(const TablePath& path) const;
  /// Every known live bucket leader of one partition (bucket -> node id).
  std::map<int32_t, int32_t> PartitionLeaders(int64_t table_id, int64_t partition_id) const;

  bool HasTable(const TablePath& path) const { return table_ids_.count(path.ToString()) > 0; }
  /// The table id the last refresh gave for `path`, if cached.
  std::optional<int64_t> TableId(const TablePath& path) const;
  /// The id of partition `partition_name` of table `table_id`, if cached.
  std::optional<int64_t> PartitionId(int64_t table_id, const std::string& partition_name) const;

 private:
  std::optional<int32_t> LiveNode(std::optional<int32_t> node) const;
  /// Takes the leaders of `buckets` (of table `table_id`, partition `partition_id` if set),
  /// logging each that moved since last seen; `table` names them in the log.
  template <typename BucketList>
  void AddLeaders(int64_t table_id, std::optional<int64_t> partition_id, const BucketList& buckets,
                  const std::string& table);

  std::optional<net::ServerEndpoint> coordinator_;
  std::map<int32_t, net::ServerEndpoint> tablet_servers_;
  std::map<std::string, int64_t> table_ids_;                          // "db.table" -> table id
  std::map<std::pair<int64_t, std::string>, int64_t> partition_ids_;  // (table id, name) -> id
  std::map<TableBucket, int32_t> leaders_;                            // absent: no leader
  std::map<TableBucket, int32_t> last_leaders_;  // every leader last seen (invalidation keeps it)
};

}  // namespace fluss::metadata
