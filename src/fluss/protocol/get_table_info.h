// GetTableInfoRequest (api key 1007; protocol-rpc.md section 6), asked of the coordinator:
//   GetTableInfoRequest: 1 table_path PbTablePath
// The response's table_json is parsed by metadata/table_json.h.
//
// Thread affinity: none; pure functions.
#pragma once

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::protocol {

/// The GetTableInfoRequest for `path`.
proto::GetTableInfoRequest MakeGetTableInfoRequest(const TablePath& path);

}  // namespace fluss::protocol
