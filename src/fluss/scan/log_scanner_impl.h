// Log scanner: subscribed bucket positions, fetches from bucket leaders, Arrow decoding.
//
// Thread affinity: Subscribe/Unsubscribe/ToArrowAsync run on any thread and take `mu_`; the
// fetch loop runs on the I/O thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "fluss/client.h"
#include "fluss/client/connection_impl.h"
#include "fluss/proto/fluss_api.pb.h"

namespace fluss::scan {

class LogScannerImpl : public LogScanner, public std::enable_shared_from_this<LogScannerImpl> {
 public:
  static Result<std::shared_ptr<LogScannerImpl>> Create(std::shared_ptr<client::ConnectionImpl> conn,
                                                        TableInfo table, std::vector<int32_t> projection);

  Status Subscribe(int32_t bucket, int64_t start_offset) override;
  Status Unsubscribe(int32_t bucket) override;
  void ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) override;
  const std::shared_ptr<arrow::Schema>& schema() const override { return out_schema_; }

 private:
  LogScannerImpl(std::shared_ptr<client::ConnectionImpl> conn, TableInfo table);
  asio::awaitable<Result<std::shared_ptr<arrow::Table>>> ReadToEnd();
  /// Resolves kEarliestOffset / kLatestOffset positions with ListOffsets.
  asio::awaitable<Status> ResolvePositions(std::map<int32_t, int64_t>* positions);
  /// One FetchLog round for `buckets` (bucket -> position); appends decoded batches (rows below
  /// `end` only) to `out` and advances the positions.
  asio::awaitable<Status> FetchRound(std::map<int32_t, int64_t>* positions, const std::map<int32_t, int64_t>& end,
                                     std::vector<std::shared_ptr<arrow::RecordBatch>>* out);

  std::shared_ptr<client::ConnectionImpl> conn_;
  const TableInfo table_;
  std::vector<int32_t> projection_;         // requested order (empty: all columns)
  std::vector<int32_t> sorted_projection_;  // what the fetch asks for (ascending)
  std::vector<int> reorder_;                // output column i = decoded column reorder_[i]
  std::shared_ptr<arrow::Schema> read_schema_;  // decoded batches (ascending projection)
  std::shared_ptr<arrow::Schema> out_schema_;   // returned to the user

  std::mutex mu_;
  std::map<int32_t, int64_t> positions_;  // bucket -> next offset (or kEarliest/kLatest)
};

}  // namespace fluss::scan
