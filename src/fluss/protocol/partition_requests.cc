#include "fluss/protocol/partition_requests.h"

#include "fluss/protocol/table_path.h"

namespace fluss::protocol {

namespace {

void SetSpec(const std::map<std::string, std::string>& spec, proto::PbPartitionSpec* out) {
  for (const auto& [k, v] : spec) {
    auto* kv = out->add_partition_key_values();
    kv->set_key(k);
    kv->set_value(v);
  }
}

}  // namespace

proto::CreatePartitionRequest MakeCreatePartitionRequest(const TablePath& path,
                                                         const std::map<std::string, std::string>& spec,
                                                         bool ignore_if_exists) {
  proto::CreatePartitionRequest req;
  SetTablePath(path, req.mutable_table_path());
  SetSpec(spec, req.mutable_partition_spec());
  req.set_ignore_if_not_exists(ignore_if_exists);  // the field means "ignore if it exists"
  return req;
}

proto::DropPartitionRequest MakeDropPartitionRequest(const TablePath& path,
                                                     const std::map<std::string, std::string>& spec,
                                                     bool ignore_if_not_exists) {
  proto::DropPartitionRequest req;
  SetTablePath(path, req.mutable_table_path());
  SetSpec(spec, req.mutable_partition_spec());
  req.set_ignore_if_not_exists(ignore_if_not_exists);
  return req;
}

}  // namespace fluss::protocol
