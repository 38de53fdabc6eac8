// CreatePartitionRequest (api key 1036) and DropPartitionRequest (1037), asked of the
// coordinator (protocol-rpc.md section 6):
//   { 1 table_path PbTablePath | 2 partition_spec PbPartitionSpec (key, value pairs) |
//     3 ignore_if_not_exists bool }
// In CreatePartitionRequest field 3 is named ignore_if_not_exists but means "ignore if the
// partition already exists". Both responses are empty.
//
// Thread affinity: none; pure functions.
#pragma once

#include <map>
#include <string>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::protocol {

/// The CreatePartitionRequest for partition `spec` (partition key -> value) of `path`.
proto::CreatePartitionRequest MakeCreatePartitionRequest(const TablePath& path,
                                                         const std::map<std::string, std::string>& spec,
                                                         bool ignore_if_exists);

/// The DropPartitionRequest for partition `spec` of `path`.
proto::DropPartitionRequest MakeDropPartitionRequest(const TablePath& path,
                                                     const std::map<std::string, std::string>& spec,
                                                     bool ignore_if_not_exists);

}  // namespace fluss::protocol
