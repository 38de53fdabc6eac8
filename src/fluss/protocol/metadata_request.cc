#include "fluss/protocol/metadata_request.h"

namespace fluss::protocol {

proto::MetadataRequest MakeMetadataRequest(const std::vector<TablePath>& tables,
                                           const std::vector<PartitionPath>& partitions) {
  proto::MetadataRequest req;
  for (const auto& t : tables) SetTablePath(t, req.add_table_path());
  for (const auto& p : partitions) SetPhysicalTablePath(p, req.add_partitions_path());
  return req;
}

}  // namespace fluss::protocol
