#include "fluss/protocol/get_table_schema.h"

#include "fluss/protocol/table_path.h"

namespace fluss::protocol {

proto::GetTableSchemaRequest MakeGetTableSchemaRequest(const TablePath& path, int32_t schema_id) {
  proto::GetTableSchemaRequest req;
  SetTablePath(path, req.mutable_table_path());
  req.set_schema_id(schema_id);
  return req;
}

}  // namespace fluss::protocol
