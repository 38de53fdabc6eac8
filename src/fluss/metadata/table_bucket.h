// The address of one bucket: table id, partition id (partitioned tables) and bucket id, the
// key of every per-bucket map of the client (leaders, write queues, sequences, positions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

namespace fluss::metadata {

struct TableBucket {
  int64_t table_id = -1;
  std::optional<int64_t> partition_id;  ///< absent for a non-partitioned table
  int32_t bucket = 0;

  friend bool operator<(const TableBucket& a, const TableBucket& b) {
    return std::tie(a.table_id, a.partition_id, a.bucket) < std::tie(b.table_id, b.partition_id, b.bucket);
  }
  friend bool operator==(const TableBucket& a, const TableBucket& b) = default;
  /// "bucket 3" or "partition 12 bucket 3", for error messages.
  std::string ToString() const {
    std::string s = partition_id ? "partition " + std::to_string(*partition_id) + " " : "";
    return s + "bucket " + std::to_string(bucket);
  }
};

}  // namespace fluss::metadata
