#include "fluss/protocol/get_table_info.h"

#include "fluss/protocol/table_path.h"

namespace fluss::protocol {

proto::GetTableInfoRequest MakeGetTableInfoRequest(const TablePath& path) {
  proto::GetTableInfoRequest req;
  SetTablePath(path, req.mutable_table_path());
  return req;
}

}  // namespace fluss::protocol
