// The schemas one table has had, by schema id. Rows carry the id of the schema they were
// written under (log batch header, value bytes; protocol-data.md 2.4 and 9); after ALTER TABLE
// ADD COLUMN a bucket holds rows of several ids. Readers decode each row with its own schema,
// fetched here once with GetTableSchema (1011), and match its columns to the table handle's by
// column id (row/schema_mapping.h).
//
// Thread affinity: Get runs on the I/O thread; Find may be called from any thread (mu_).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include <asio.hpp>

#include "fluss/metadata/cluster.h"
#include "fluss/row/value_rows.h"
#include "fluss/types.h"

namespace fluss::metadata {

class TableSchemas {
 public:
  /// `table`: the table handle's info; its schema is known under its schema id without a fetch.
  TableSchemas(std::shared_ptr<Cluster> cluster, const TableInfo& table);

  /// The schema of `schema_id`, fetched from the coordinator on first use. Fails with the
  /// server's error (SCHEMA_NOT_EXIST (9) for an unknown id) or kProtocol for bad JSON. I/O thread.
  asio::awaitable<Result<std::shared_ptr<const Schema>>> Get(int32_t schema_id);

  /// Fetches the schemas of `values` (value bytes of a primary-key table) that `decoder` lacks
  /// and adds them to it, so that decoder.Decode(values) can decode every value. Fails as Get,
  /// or with kUnsupported from AddSchema. I/O thread.
  asio::awaitable<Status> AddMissing(row::ValueRowDecoder& decoder, const std::vector<std::string_view>& values);

  const std::shared_ptr<Cluster>& cluster() const { return cluster_; }

  /// The schema of `schema_id` if Get fetched it (or it is the handle's), else nullptr. Any thread.
  std::shared_ptr<const Schema> Find(int32_t schema_id) const;

 private:
  std::shared_ptr<Cluster> cluster_;
  const TablePath path_;
  mutable std::mutex mu_;
  std::map<int32_t, std::shared_ptr<const Schema>> known_;  // guarded by mu_
};

}  // namespace fluss::metadata
