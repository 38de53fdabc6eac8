#include "fluss/metadata/metadata_cache.h"

#include "fluss/util/log.h"

namespace fluss::metadata {

namespace {

net::ServerEndpoint ToEndpoint(const proto::PbServerNode& n) { return net::ServerEndpoint{n.host(), n.port(), n.node_id()}; }

// Removes the leaders of `table_id` (one partition of it, when given).
void EraseLeaders(std::map<TableBucket, int32_t>& leaders, int64_t table_id, std::optional<int64_t> partition_id) {
  auto it = leaders.lower_bound(TableBucket{table_id, std::nullopt, INT32_MIN});
  while (it != leaders.end() && it->first.table_id == table_id) {
    if (!partition_id || it->first.partition_id == partition_id) it = leaders.erase(it);
    else ++it;
  }
}

}  // namespace

template <typename BucketList>
void MetadataCache::AddLeaders(int64_t table_id, std::optional<int64_t> partition_id, const BucketList& buckets,
                               const std::string& table) {
  for (const auto& b : buckets) {
    if (!b.has_leader_id() || b.leader_id() < 0) continue;
    const TableBucket bucket{table_id, partition_id, b.bucket_id()};
    leaders_[bucket] = b.leader_id();
    // Leaders as last seen, kept through invalidations, so that a move is noticed.
    auto [seen, first] = last_leaders_.try_emplace(bucket, b.leader_id());
    if (first || seen->second == b.leader_id()) continue;
    FLUSS_LOG(kInfo, "table " + table + " " + bucket.ToString() + ": leader moved from tablet server " +
                         std::to_string(seen->second) + " to " + std::to_string(b.leader_id()));
    seen->second = b.leader_id();
  }
}

void MetadataCache::Update(const proto::MetadataResponse& resp) {
  if (resp.has_coordinator_server()) coordinator_ = ToEndpoint(resp.coordinator_server());
  if (resp.tablet_servers_size() > 0) {
    tablet_servers_.clear();
    for (const auto& ts : resp.tablet_servers()) tablet_servers_[ts.node_id()] = ToEndpoint(ts);
  }
  FLUSS_LOG(kDebug, "metadata refreshed: " + std::to_string(resp.table_metadata_size()) + " table(s), " +
                        std::to_string(resp.partition_metadata_size()) + " partition(s), " +
                        std::to_string(resp.tablet_servers_size()) + " tablet server(s)");
  for (const auto& t : resp.table_metadata()) {
    const TablePath path{t.table_path().database_name(), t.table_path().table_name()};
    auto old = table_ids_.find(path.ToString());
    if (old != table_ids_.end() && old->second != t.table_id()) EraseLeaders(leaders_, old->second, std::nullopt);
    table_ids_[path.ToString()] = t.table_id();
    // Partitioned tables have no table-level buckets: their partitions' leaders stay.
    auto it = leaders_.lower_bound(TableBucket{t.table_id(), std::nullopt, INT32_MIN});
    while (it != leaders_.end() && it->first.table_id == t.table_id() && !it->first.partition_id) it = leaders_.erase(it);
    AddLeaders(t.table_id(), std::nullopt, t.bucket_metadata(), path.ToString());
  }
  for (const auto& p : resp.partition_metadata()) {
    partition_ids_[{p.table_id(), p.partition_name()}] = p.partition_id();
    EraseLeaders(leaders_, p.table_id(), p.partition_id());
    AddLeaders(p.table_id(), p.partition_id(), p.bucket_metadata(), "id " + std::to_string(p.table_id()) + " partition " + p.partition_name());
  }
}

void MetadataCache::InvalidateTable(const TablePath& path) {
  auto it = table_ids_.find(path.ToString());
  if (it == table_ids_.end()) return;
  const int64_t id = it->second;
  EraseLeaders(leaders_, id, std::nullopt);
  std::erase_if(partition_ids_, [id](const auto& kv) { return kv.first.first == id; });
  table_ids_.erase(it);
}

void MetadataCache::InvalidatePartition(int64_t table_id, const std::string& partition_name) {
  auto it = partition_ids_.find({table_id, partition_name});
  if (it == partition_ids_.end()) return;
  EraseLeaders(leaders_, table_id, it->second);
  partition_ids_.erase(it);
}

std::optional<int32_t> MetadataCache::LiveNode(std::optional<int32_t> node) const {
  if (!node || !tablet_servers_.count(*node)) return std::nullopt;
  return node;
}

std::optional<int32_t> MetadataCache::Leader(const TableBucket& bucket) const {
  auto it = leaders_.find(bucket);
  if (it == leaders_.end()) return std::nullopt;
  return LiveNode(it->second);
}

std::optional<int32_t> MetadataCache::Leader(const TablePath& path, int32_t bucket) const {
  auto id = TableId(path);
  if (!id) return std::nullopt;
  return Leader(TableBucket{*id, std::nullopt, bucket});
}

std::map<int32_t, int32_t> MetadataCache::PartitionLeaders(int64_t table_id, int64_t partition_id) const {
  std::map<int32_t, int32_t> out;
  for (auto it = leaders_.lower_bound(TableBucket{table_id, partition_id, INT32_MIN});
       it != leaders_.end() && it->first.table_id == table_id && it->first.partition_id == partition_id; ++it)
    if (tablet_servers_.count(it->second)) out[it->first.bucket] = it->second;
  return out;
}

std::map<int32_t, int32_t> MetadataCache::Leaders(const TablePath& path) const {
  std::map<int32_t, int32_t> out;
  auto id = TableId(path);
  if (!id) return out;
  for (auto it = leaders_.lower_bound(TableBucket{*id, std::nullopt, INT32_MIN});
       it != leaders_.end() && it->first.table_id == *id && !it->first.partition_id; ++it)
    if (tablet_servers_.count(it->second)) out[it->first.bucket] = it->second;
  return out;
}

std::optional<int64_t> MetadataCache::TableId(const TablePath& path) const {
  auto it = table_ids_.find(path.ToString());
  if (it == table_ids_.end()) return std::nullopt;
  return it->second;
}

std::optional<int64_t> MetadataCache::PartitionId(int64_t table_id, const std::string& partition_name) const {
  auto it = partition_ids_.find({table_id, partition_name});
  if (it == partition_ids_.end()) return std::nullopt;
  return it->second;
}

}  // namespace fluss::metadata
