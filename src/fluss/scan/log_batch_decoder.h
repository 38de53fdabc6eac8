// Decodes log batches (ARROW or INDEXED; record/arrow_log.h, record/indexed_log.h) written under
// any schema id of a table into rows of the table handle's schema: a batch of another schema id
// is decoded with that schema (fetched once, metadata/table_schemas.h) and its columns matched
// by column id (row/schema_mapping.h). Used by the log scanner and limit scans.
//
// Thread affinity: AddMissing on the I/O thread; Decode on any thread once AddMissing covered
// the batch's schema id.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/type_fwd.h>
#include <asio.hpp>

#include "fluss/metadata/table_schemas.h"
#include "fluss/record/log_batch.h"
#include "fluss/types.h"

namespace fluss::scan {

class LogBatchDecoder {
 public:
  /// `table`: the handle's info (schema, schema id, log format); `indexed`: INDEXED log format.
  LogBatchDecoder(std::shared_ptr<metadata::Cluster> cluster, const TableInfo& table, bool indexed);

  /// Fetches the schemas of `schema_ids` not known yet. I/O thread.
  asio::awaitable<Status> AddMissing(const std::vector<int16_t>& schema_ids);

  /// Every column of the handle's schema for the batch `slice` with header `h` (nullptr for a
  /// batch without records). `change_types` (if not null) gets the change type of each row of
  /// a non-append-only batch. Fails with kProtocol for malformed bytes or a schema id that
  /// AddMissing did not fetch, kUnsupported when a column changed type.
  Result<std::shared_ptr<arrow::RecordBatch>> Decode(const std::shared_ptr<arrow::Buffer>& slice,
                                                     const record::LogBatchHeader& h,
                                                     std::vector<int8_t>* change_types) const;

  const std::shared_ptr<arrow::Schema>& schema() const { return target_.arrow_schema; }

 private:
  std::shared_ptr<metadata::TableSchemas> schemas_;
  const Schema target_;
  const int32_t target_id_;
  const bool indexed_;
};

}  // namespace fluss::scan
