#include "fluss/protocol/init_writer.h"

#include "fluss/protocol/table_path.h"

namespace fluss::protocol {

proto::InitWriterRequest MakeInitWriterRequest(const std::vector<TablePath>& tables) {
  proto::InitWriterRequest req;
  for (const auto& t : tables) SetTablePath(t, req.add_table_path());
  return req;
}

}  // namespace fluss::protocol
