// Metadata types of the public API: table paths, schemas, descriptors, table and database info.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/status.h"

namespace fluss {

/// Start offset meaning "the log start offset of the bucket" (Fluss EARLIEST, -2 on the wire).
inline constexpr int64_t kEarliestOffset = -2;
/// Start offset meaning "the high watermark at subscribe time": only records written afterwards.
inline constexpr int64_t kLatestOffset = -1;

/// A table's identity: database name and table name.
struct TablePath {
  std::string database_name;
  std::string table_name;
  /// "database.table"
  std::string ToString() const { return database_name + "." + table_name; }
  bool operator==(const TablePath&) const = default;
};

/// A table schema: Arrow fields (names, types, nullability; a field metadata key "comment"
/// becomes the column comment) plus the primary-key column names (empty for a log table).
///
/// Supported Arrow types and the Fluss types they map to: bool BOOLEAN; int8/16/32/64
/// TINYINT/SMALLINT/INT/BIGINT; float32/64 FLOAT/DOUBLE; string/large_string STRING (CHAR(n)
/// with field metadata "fluss.char_length" = "n"); binary/large_binary BYTES;
/// fixed_size_binary(n) BINARY(n); decimal128(p,s) DECIMAL(p,s); date32 DATE; time32(s|ms)/
/// time64(us|ns) TIME(0|3|6|9); timestamp(unit) TIMESTAMP(0|3|6|9); timestamp(unit, tz)
/// TIMESTAMP_LTZ(0|3|6|9) (field metadata "fluss.precision" = "p" gives a time or timestamp
/// any precision p its unit holds); list<T> ARRAY<T>; map<K, V> MAP<K NOT NULL, V>;
/// struct<...> ROW<...>, nested in each other, nullability kept at every level
/// (src/fluss/row/data_type.h has the whole map).
struct Schema {
  std::shared_ptr<arrow::Schema> arrow_schema;
  std::vector<std::string> primary_keys;
  /// The server's column id of each field (table JSON "id"), filled for schemas read from the
  /// server; rows written under another schema id are matched to these columns by id. Empty in
  /// a schema built for CreateTable (the server then assigns 0..n-1).
  std::vector<int32_t> column_ids;
};

/// The largest TableDescriptor::bucket_count CreateTable sends: the server's default
/// `max.bucket.num` (Fluss 0.9.1). Its coordinator builds a table's bucket assignment before it
/// checks that limit, so a count in the millions exhausts the coordinator's heap and stops it
/// (seen with 2^31 - 1); the client refuses a larger count before anything is sent.
inline constexpr int32_t kMaxBucketCount = 128000;

/// Everything needed to create a table. `log_format` and `kv_format` of the Python API are the
/// properties "table.log.format" and "table.kv.format".
struct TableDescriptor {
  Schema schema;
  std::vector<std::string> partition_keys;
  std::optional<int32_t> bucket_count;  ///< 1 .. kMaxBucketCount; unset: the server's default
  std::vector<std::string> bucket_keys;
  std::optional<std::string> comment;
  std::map<std::string, std::string> properties;         ///< "table.*" options, validated by the server
  std::map<std::string, std::string> custom_properties;  ///< free-form, stored as given
};

/// What Admin::AlterTableAsync changes (AlterTable, Fluss 0.9). Properties are "table.*"
/// options the server allows to change (e.g. "table.datalake.enabled") or custom properties.
struct TableChanges {
  std::map<std::string, std::string> set_properties;  ///< key -> new value
  std::vector<std::string> reset_properties;           ///< keys set back to their default
  /// Columns added after the last one, in order; each must be nullable (the server adds
  /// nothing else). A field metadata key "comment" becomes the column comment.
  std::vector<std::shared_ptr<arrow::Field>> add_columns;
};

/// A table as the server describes it (GetTableInfo), server defaults included.
struct TableInfo {
  TablePath table_path;
  int64_t table_id = -1;
  int32_t schema_id = -1;
  int64_t created_time = 0;   ///< epoch milliseconds
  int64_t modified_time = 0;  ///< epoch milliseconds
  int32_t num_buckets = 1;    ///< buckets per table (per partition for partitioned tables)
  TableDescriptor descriptor;
  /// Property value, or `fallback` when the server did not materialise it.
  std::string Property(const std::string& key, const std::string& fallback) const;
  /// "ARROW", "INDEXED" or "COMPACTED" (server default ARROW when absent).
  std::string LogFormat() const { return Property("table.log.format", "ARROW"); }
  bool HasPrimaryKey() const { return !descriptor.schema.primary_keys.empty(); }
  bool IsPartitioned() const { return !descriptor.partition_keys.empty(); }
};

/// A partition of a partitioned table: its id and its name (the partition values joined with
/// '$' in partition-key order, e.g. "US" or "20240101$eu").
struct PartitionInfo {
  int64_t partition_id = -1;
  std::string partition_name;
  std::map<std::string, std::string> spec;  ///< partition key -> value
};

/// A database's description: comment and custom properties.
struct DatabaseDescriptor {
  std::optional<std::string> comment;
  std::map<std::string, std::string> custom_properties;
};

/// A database as the server describes it (GetDatabaseInfo).
/// A live server of the cluster, as the coordinator's metadata lists it.
struct ServerNode {
  int32_t id = 0;
  std::string host;
  int32_t port = 0;
  bool coordinator = false;  ///< the coordinator server; else a tablet server
};

struct DatabaseInfo {
  std::string database_name;
  DatabaseDescriptor descriptor;
  int64_t created_time = 0;   ///< epoch milliseconds
  int64_t modified_time = 0;  ///< epoch milliseconds
};

}  // namespace fluss
