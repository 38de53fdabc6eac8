// fluss::Table: a table handle, the factory of its writers and scanners.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/append_writer.h"
#include "fluss/callbacks.h"
#include "fluss/log_scanner.h"
#include "fluss/lookuper.h"
#include "fluss/types.h"
#include "fluss/upsert_writer.h"

namespace fluss {

class Connection;
namespace client { class ConnectionImpl; }

/// A table handle: metadata plus factories for writers and scanners.
class Table {
 public:
  /// The table's metadata as of GetTableAsync.
  const TableInfo& info() const { return info_; }
  /// A writer for this log table. Fails with kInvalidArgument for a primary-key table.
  Result<std::shared_ptr<AppendWriter>> NewAppendWriter();
  /// A scanner returning the columns `projection` (table column indexes, in the order wanted;
  /// empty = all columns). Fails with kInvalidArgument for a bad index.
  Result<std::shared_ptr<LogScanner>> NewLogScanner(const std::vector<int32_t>& projection = {});
  /// A writer for this primary-key table. `target_columns` (table column indexes, any order,
  /// no duplicates) makes a partial-update writer: it must hold every primary-key column, and
  /// every other column of the table must be nullable (the server's rule); empty = full rows.
  /// Fails with kInvalidArgument for a log table or bad target columns, naming the column.
  Result<std::shared_ptr<UpsertWriter>> NewUpsertWriter(const std::vector<int32_t>& target_columns = {});
  /// A point lookuper of this primary-key table. Fails with kInvalidArgument for a log table.
  Result<std::shared_ptr<Lookuper>> NewLookuper();
  /// A prefix lookuper by `lookup_columns` (column names: the table's bucket key, which must be
  /// a proper leading part of the physical primary key). Fails with kInvalidArgument naming
  /// the problem (log table, columns that are not the bucket key), kUnsupported for a
  /// kv-format-version-1 table with a lake format.
  Result<std::shared_ptr<PrefixLookuper>> NewPrefixLookuper(const std::vector<std::string>& lookup_columns);
  /// Reads at most `limit` rows of `bucket` (LimitScan): for a log table the last `limit`
  /// records below its high watermark, in offset order (as Java's LimitBatchScanner), for a
  /// primary-key table rows of its current state. `done` gets a record batch of
  /// the table's schema. Fails with kInvalidArgument for a bucket outside the table, a
  /// partitioned table (use LimitScanPartitionAsync) or a limit below 1; TABLE_NOT_EXIST (7)
  /// once the table was dropped.
  void LimitScanAsync(int32_t bucket, int32_t limit, Callback<std::shared_ptr<arrow::RecordBatch>> done);
  /// LimitScanAsync of `bucket` of partition `partition_id` (PartitionInfo::partition_id) of a
  /// partitioned table. Fails with kInvalidArgument for a non-partitioned table,
  /// PARTITION_NOT_EXISTS (36) for a partition the coordinator does not know.
  void LimitScanPartitionAsync(int64_t partition_id, int32_t bucket, int32_t limit,
                               Callback<std::shared_ptr<arrow::RecordBatch>> done);

 private:
  friend class Connection;  // makes it (GetTableAsync)
  Table(std::shared_ptr<client::ConnectionImpl> impl, TableInfo info)
      : impl_(std::move(impl)), info_(std::move(info)) {}
  std::shared_ptr<client::ConnectionImpl> impl_;
  TableInfo info_;
};

}  // namespace fluss
