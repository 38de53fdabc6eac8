// Cluster metadata cache: coordinator, tablet servers, bucket leaders per table.
//
// Thread affinity: I/O thread only (owned by ConnectionImpl), no locking.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fluss/net/server_connection.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::client {

struct TableBuckets {
  int64_t table_id = -1;
  std::map<int32_t, int32_t> leaders;  // bucket id -> leader node id (absent: no leader)
};

class MetadataCache {
 public:
  /// Replaces the server lists and the tables present in `resp`.
  void Update(const proto::MetadataResponse& resp);
  /// Forgets the buckets of `path` so the next lookup refreshes them.
  void InvalidateTable(const TablePath& path) { tables_.erase(path.ToString()); }

  const std::optional<net::ServerEndpoint>& coordinator() const { return coordinator_; }
  const std::map<int32_t, net::ServerEndpoint>& tablet_servers() const { return tablet_servers_; }
  /// Leader node id of the bucket, if known and the node is alive in the server list.
  std::optional<int32_t> Leader(const TablePath& path, int32_t bucket) const;
  bool HasTable(const TablePath& path) const { return tables_.count(path.ToString()) > 0; }
  /// The table id the last refresh gave for `path`, if cached.
  std::optional<int64_t> TableId(const TablePath& path) const {
    auto it = tables_.find(path.ToString());
    if (it == tables_.end()) return std::nullopt;
    return it->second.table_id;
  }
  /// Every known bucket leader of `path` (bucket -> node id), live nodes only.
  std::map<int32_t, int32_t> Leaders(const TablePath& path) const;

 private:
  std::optional<net::ServerEndpoint> coordinator_;
  std::map<int32_t, net::ServerEndpoint> tablet_servers_;
  std::map<std::string, TableBuckets> tables_;
};

}  // namespace fluss::client
