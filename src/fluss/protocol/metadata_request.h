// MetadataRequest (api key 1012; protocol-rpc.md section 5): the cluster's servers, and the
// bucket leaders of the tables and partitions named.
//   MetadataRequest: 1 table_path rep PbTablePath | 2 partitions_path rep PbPhysicalTablePath |
//                    3 partitions_id packed int64
// An empty request asks for the servers only. The response is parsed by
// metadata/metadata_cache.h.
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/table_path.h"
#include "fluss/types.h"

namespace fluss::protocol {

/// The MetadataRequest for `tables` and the `partitions` of partitioned tables, in the given
/// order (both may be empty).
proto::MetadataRequest MakeMetadataRequest(const std::vector<TablePath>& tables,
                                           const std::vector<PartitionPath>& partitions = {});

/// The MetadataRequest for partitions of table `table` by id: the table's path goes along, as
/// the server resolves partition ids against the table paths of the same request
/// (protocol-rpc.md 5.1).
proto::MetadataRequest MakePartitionIdsMetadataRequest(const TablePath& table, const std::vector<int64_t>& partition_ids);

}  // namespace fluss::protocol
