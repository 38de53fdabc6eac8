// GetTableSchemaRequest (api key 1011; protocol-rpc.md section 6), asked of the coordinator:
//   GetTableSchemaRequest: 1 table_path PbTablePath; 2 schema_id int32 (absent = latest)
// The response's schema_json is parsed by metadata/table_json.h (SchemaFromJson); schema ids
// start at 1 and grow by one per schema change.
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::protocol {

/// The GetTableSchemaRequest for schema `schema_id` of `path`.
proto::GetTableSchemaRequest MakeGetTableSchemaRequest(const TablePath& path, int32_t schema_id);

}  // namespace fluss::protocol
