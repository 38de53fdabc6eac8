#include "fluss/client/metadata.h"

namespace fluss::client {

namespace {
net::ServerEndpoint ToEndpoint(const proto::PbServerNode& n) {
  return net::ServerEndpoint{n.host(), n.port(), n.node_id()};
}
}  // namespace

void MetadataCache::Update(const proto::MetadataResponse& resp) {
  if (resp.has_coordinator_server()) coordinator_ = ToEndpoint(resp.coordinator_server());
  if (resp.tablet_servers_size() > 0) {
    tablet_servers_.clear();
    for (const auto& ts : resp.tablet_servers()) tablet_servers_[ts.node_id()] = ToEndpoint(ts);
  }
  for (const auto& t : resp.table_metadata()) {
    TablePath path{t.table_path().database_name(), t.table_path().table_name()};
    TableBuckets tb;
    tb.table_id = t.table_id();
    for (const auto& b : t.bucket_metadata())
      if (b.has_leader_id() && b.leader_id() >= 0) tb.leaders[b.bucket_id()] = b.leader_id();
    tables_[path.ToString()] = std::move(tb);
  }
}

std::optional<int32_t> MetadataCache::Leader(const TablePath& path, int32_t bucket) const {
  auto it = tables_.find(path.ToString());
  if (it == tables_.end()) return std::nullopt;
  auto b = it->second.leaders.find(bucket);
  if (b == it->second.leaders.end()) return std::nullopt;
  if (!tablet_servers_.count(b->second)) return std::nullopt;
  return b->second;
}

std::map<int32_t, int32_t> MetadataCache::Leaders(const TablePath& path) const {
  std::map<int32_t, int32_t> out;
  auto it = tables_.find(path.ToString());
  if (it == tables_.end()) return out;
  for (const auto& [bucket, node] : it->second.leaders)
    if (tablet_servers_.count(node)) out[bucket] = node;
  return out;
}

}  // namespace fluss::client
