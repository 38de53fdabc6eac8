// Table and partition paths into the shared path messages of the requests (PbTablePath,
// PbPhysicalTablePath), for the request codecs of this folder.
//
// Thread affinity: none; pure functions.
#pragma once

#include <string>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::protocol {

/// `out` = { 1 database_name | 2 table_name } of `path`.
inline void SetTablePath(const TablePath& path, proto::PbTablePath* out) {
  out->set_database_name(path.database_name);
  out->set_table_name(path.table_name);
}

/// A partition of a partitioned table: the table's path and the partition name ("2024-01-01").
struct PartitionPath {
  TablePath table;
  std::string partition_name;
};

/// `out` = { 1 database_name | 2 table_name | 3 partition_name } of `path`.
inline void SetPhysicalTablePath(const PartitionPath& path, proto::PbPhysicalTablePath* out) {
  out->set_database_name(path.table.database_name);
  out->set_table_name(path.table.table_name);
  out->set_partition_name(path.partition_name);
}

}  // namespace fluss::protocol
