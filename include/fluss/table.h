// fluss::Table: a table handle, the factory of its writers and scanners.
#pragma once

#include <memory>
#include <vector>
#include "fluss/append_writer.h"
#include "fluss/log_scanner.h"
#include "fluss/types.h"

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

 private:
  friend class Connection;  // makes it (GetTableAsync)
  Table(std::shared_ptr<client::ConnectionImpl> impl, TableInfo info)
      : impl_(std::move(impl)), info_(std::move(info)) {}
  std::shared_ptr<client::ConnectionImpl> impl_;
  TableInfo info_;
};

}  // namespace fluss
