// fluss::Admin: database, table and partition administration, offsets.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "fluss/callbacks.h"
#include "fluss/types.h"

namespace fluss {

class Connection;
namespace client { class ConnectionImpl; }

/// Offset kinds of ListOffsets.
enum class OffsetType : int32_t { kEarliest = 0, kLatest = 1, kTimestamp = 2 };

/// Database and table administration. Mutating calls go to the coordinator.
class Admin {
 public:
  /// CreateDatabase. Fails with DATABASE_ALREADY_EXIST (6) unless ignore_if_exists.
  void CreateDatabaseAsync(const std::string& name, const DatabaseDescriptor& descriptor,
                           bool ignore_if_exists, StatusCallback done);
  /// DropDatabase. Fails with DATABASE_NOT_EXIST (4) unless ignore_if_not_exists, and with
  /// DATABASE_NOT_EMPTY (5) when it holds tables and cascade is false.
  void DropDatabaseAsync(const std::string& name, bool ignore_if_not_exists, bool cascade,
                         StatusCallback done);
  /// ListDatabases: every database name.
  void ListDatabasesAsync(Callback<std::vector<std::string>> done);
  /// DatabaseExists.
  void DatabaseExistsAsync(const std::string& name, Callback<bool> done);
  /// GetDatabaseInfo. Fails with DATABASE_NOT_EXIST (4).
  void GetDatabaseInfoAsync(const std::string& name, Callback<DatabaseInfo> done);

  /// CreateTable. The descriptor is validated first (kInvalidArgument naming the column);
  /// fails with TABLE_ALREADY_EXIST (8) unless ignore_if_exists, DATABASE_NOT_EXIST (4).
  void CreateTableAsync(const TablePath& path, const TableDescriptor& descriptor,
                        bool ignore_if_exists, StatusCallback done);
  /// DropTable. Fails with TABLE_NOT_EXIST (7) unless ignore_if_not_exists.
  void DropTableAsync(const TablePath& path, bool ignore_if_not_exists, StatusCallback done);
  /// AlterTable: sets and resets properties and adds columns at the end, in one request. Each
  /// added column gets the next schema id's new column id; rows written before read it as
  /// null. Fails before sending with kInvalidArgument naming the column for a NOT NULL or
  /// unsupported column type, or when `changes` is empty; the server fails with
  /// TABLE_NOT_EXIST (7) unless ignore_if_not_exists, INVALID_ALTER_TABLE_EXCEPTION (56) or
  /// INVALID_CONFIG_EXCEPTION (39) for a property it does not allow to change, and rejects a column
  /// name that exists with another type.
  void AlterTableAsync(const TablePath& path, const TableChanges& changes, bool ignore_if_not_exists,
                       StatusCallback done);
  /// GetTableInfo, server defaults included. Fails with TABLE_NOT_EXIST (7).
  void GetTableInfoAsync(const TablePath& path, Callback<TableInfo> done);
  /// ListTables. Fails with DATABASE_NOT_EXIST (4).
  void ListTablesAsync(const std::string& database, Callback<std::vector<std::string>> done);
  /// TableExists.
  void TableExistsAsync(const TablePath& path, Callback<bool> done);
  /// Offsets of `bucket_ids` from their leaders: earliest (log start), latest (high watermark)
  /// or the first offset whose commit timestamp is >= `timestamp_ms` (kTimestamp).
  /// Returns bucket id -> offset.
  void ListOffsetsAsync(const TablePath& path, std::vector<int32_t> bucket_ids, OffsetType type,
                        std::optional<int64_t> timestamp_ms, Callback<std::map<int32_t, int64_t>> done);
  /// ListOffsets for the buckets of one partition, named by its value(s) as in PartitionInfo
  /// ("US"). Fails with PARTITION_NOT_EXISTS (36) for an unknown partition.
  void ListPartitionOffsetsAsync(const TablePath& path, const std::string& partition_name,
                                 std::vector<int32_t> bucket_ids, OffsetType type,
                                 std::optional<int64_t> timestamp_ms, Callback<std::map<int32_t, int64_t>> done);
  /// CreatePartition with `spec` naming every partition key once. Fails with
  /// PARTITION_ALREADY_EXISTS (42) unless ignore_if_exists, PARTITION_SPEC_INVALID_EXCEPTION (43),
  /// TABLE_NOT_PARTITIONED_EXCEPTION (37).
  void CreatePartitionAsync(const TablePath& path, const std::map<std::string, std::string>& spec,
                            bool ignore_if_exists, StatusCallback done);
  /// DropPartition. Fails with PARTITION_NOT_EXISTS (36) unless ignore_if_not_exists.
  void DropPartitionAsync(const TablePath& path, const std::map<std::string, std::string>& spec,
                          bool ignore_if_not_exists, StatusCallback done);
  /// The live servers: the coordinator first, then the tablet servers by id, from a metadata
  /// refresh at the coordinator.
  void GetServerNodesAsync(Callback<std::vector<ServerNode>> done);
  /// The tablet server leading each bucket of a non-partitioned table (bucket id -> tablet
  /// server id), from a metadata refresh at the coordinator. Buckets without a live leader
  /// are absent. Fails with TABLE_NOT_EXIST (7).
  void ListBucketLeadersAsync(const TablePath& path, Callback<std::map<int32_t, int32_t>> done);
  /// The same for the buckets of partition `partition_name` (its name as list_partition_infos
  /// gives it) of a partitioned table. Fails with PARTITION_NOT_EXISTS (36).
  void ListPartitionBucketLeadersAsync(const TablePath& path, const std::string& partition_name,
                                       Callback<std::map<int32_t, int32_t>> done);
  /// Partitions of a partitioned table, in the server's order. Fails with
  /// TABLE_NOT_PARTITIONED_EXCEPTION (37) for a table without partition keys.
  void ListPartitionInfosAsync(const TablePath& path, Callback<std::vector<PartitionInfo>> done);
  /// The partitions whose values match `partial_spec` ({partition key: value} for some of the
  /// partition keys; empty = every partition). Fails with kInvalidArgument naming the key for
  /// a key that is not a partition key of the table, before asking for the partitions.
  void ListPartitionInfosAsync(const TablePath& path, const std::map<std::string, std::string>& partial_spec,
                               Callback<std::vector<PartitionInfo>> done);

 private:
  friend class Connection;  // makes it (GetAdmin)
  explicit Admin(std::shared_ptr<client::ConnectionImpl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<client::ConnectionImpl> impl_;
};

}  // namespace fluss
