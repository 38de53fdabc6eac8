#include "fluss/protocol/metadata_request.h"

namespace fluss::protocol {

proto::MetadataRequest MakeMetadataRequest(const std::vector<TablePath>& tables,
                                           const std::vector<PartitionPath>& partitions) {
  proto::MetadataRequest req;
  for (const auto& t : tables) SetTablePath(t, req.add_table_path());
  for (const auto& p : partitions) SetPhysicalTablePath(p, req.add_partitions_path());
  return req;
}

proto::MetadataRequest MakePartitionIdsMetadataRequest(const TablePath& table, const std::vector<int64_t>& partition_ids) {
  proto::MetadataRequest req;
  SetTablePath(table, req.add_table_path());
  for (int64_t id : partition_ids) req.add_partitions_id(id);
  return req;
}

}  // namespace fluss::protocol
