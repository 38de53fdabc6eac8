// Fetched log batches (scan/leader_fetch.h RawBatch) decoded into what a log scanner returns:
// ScanBatches of the scanner's projected columns, in the order asked for. Holds the projection
// (checked once), whether it is pushed down to the server (ARROW tables whose schema never
// changed: the server then sends the columns in ascending order and they are reordered here) or
// applied to whole rows, and the decoder of batches written under any schema id.
//
// Thread affinity: DecodeFetched on the I/O thread (it may fetch schemas); the rest is
// immutable after Create and may be read from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/type_fwd.h>
#include <asio.hpp>

#include "fluss/log_scanner.h"
#include "fluss/metadata/cluster.h"
#include "fluss/scan/leader_fetch.h"
#include "fluss/scan/log_batch_decoder.h"
#include "fluss/types.h"

namespace fluss::scan {

class ProjectedDecoder {
 public:
  /// The decoder of `table`'s batches (`arrow_format`: ARROW, else INDEXED) into the columns
  /// `projection` (table column indexes in the order wanted; empty = all). Fails with
  /// kInvalidArgument for an index out of range or given twice.
  static Result<std::unique_ptr<ProjectedDecoder>> Create(std::shared_ptr<metadata::Cluster> cluster,
                                                          const TableInfo& table, bool arrow_format,
                                                          std::vector<int32_t> projection);

  /// The columns a fetch asks the server for (ascending table indexes), or empty when the
  /// projection is not pushed down (every column is fetched).
  const std::vector<int32_t>& pushed_down_columns() const { return pushdown_ ? sorted_projection_ : none_; }
  /// The schema of the returned batches.
  const std::shared_ptr<arrow::Schema>& schema() const { return out_schema_; }
  /// Checks CRCs and decodes `raw` (rows [from, to) of each batch), fetching the schemas of
  /// batches written under another schema id first. Fails with CORRUPT_RECORD_EXCEPTION (14)
  /// for a CRC mismatch, or the decoding error, naming the table bucket. I/O thread.
  asio::awaitable<Result<std::vector<ScanBatch>>> DecodeFetched(std::vector<RawBatch> raw);

 private:
  explicit ProjectedDecoder(const TableInfo& table) : table_(table) {}
  Result<std::vector<ScanBatch>> DecodeAll(std::vector<RawBatch> raw) const;
  /// Decoded rows of one batch in the output schema, or nullptr for a batch without records.
  Result<std::shared_ptr<arrow::RecordBatch>> Decode(const std::shared_ptr<arrow::Buffer>& slice,
                                                     const record::LogBatchHeader& header,
                                                     std::vector<int8_t>* change_types) const;

  const TableInfo table_;
  bool pushdown_ = false;
  bool check_crc_ = true;                       // client.scanner.log.check-crc
  std::shared_ptr<LogBatchDecoder> decoder_;    // whole rows under any schema id
  std::vector<int32_t> projection_;             // requested order (empty: all columns)
  std::vector<int32_t> sorted_projection_;      // what a pushed-down fetch asks for (ascending)
  const std::vector<int32_t> none_;
  std::vector<int> reorder_;                    // output column i = decoded column reorder_[i]
  std::shared_ptr<arrow::Schema> read_schema_;  // decoded batches (ascending projection)
  std::shared_ptr<arrow::Schema> out_schema_;   // returned to the user
};

}  // namespace fluss::scan
