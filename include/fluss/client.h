// The public C++ API of libfluss: connection, admin, tables, append writer, log scanner.
//
// Threading: every object here is thread-safe. Methods ending in `Async` never block; they
// call their callback exactly once, on the connection's I/O thread, so callbacks must be quick
// and must not call blocking methods of this API. Blocking helpers (`Wait`, `Await`) must not
// be called from a callback.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/config.h"
#include "fluss/status.h"
#include "fluss/types.h"

namespace fluss {

template <typename T>
using Callback = std::function<void(Result<T>)>;
using StatusCallback = std::function<void(Status)>;

/// Runs `start(callback)` and blocks the calling thread until the callback delivers a result.
template <typename T, typename Start>
Result<T> Await(Start&& start);
/// Same for operations that deliver only a Status.
template <typename Start>
Status AwaitStatus(Start&& start);

class Admin;
class Table;
class AppendWriter;
class LogScanner;
namespace client { class ConnectionImpl; }

/// A connection to a Fluss cluster: owns the I/O thread, the server connections and the
/// metadata cache. Create it with Connect; end it with Close.
class Connection {
 public:
  /// Parses `properties` (see ClientOptions), starts the I/O thread and reads the cluster
  /// metadata from the first answering server of "bootstrap.servers". Fails with kNetwork
  /// (error code 1) when no bootstrap server answers, kInvalidArgument for bad properties.
  static void ConnectAsync(const std::map<std::string, std::string>& properties,
                           Callback<std::shared_ptr<Connection>> done);
  static Result<std::shared_ptr<Connection>> Connect(const std::map<std::string, std::string>& properties);

  ~Connection();

  /// The admin client of this connection (shares its I/O thread).
  std::shared_ptr<Admin> GetAdmin();

  /// Looks up the table (GetTableInfo) and its bucket leaders. Fails with TABLE_NOT_EXIST (7).
  void GetTableAsync(const TablePath& path, Callback<std::shared_ptr<Table>> done);

  /// Flushes every append writer of this connection (waiting at most client.request-timeout),
  /// closes the server connections and stops the I/O thread. Idempotent. Returns the first
  /// flush error, if any; pending writes that could not be acknowledged fail with kClosed.
  Status Close();

  /// The parsed client options this connection runs with.
  const ClientOptions& options() const;

  /// Internal: made by Connect.
  explicit Connection(std::shared_ptr<client::ConnectionImpl> impl);

 private:
  std::shared_ptr<client::ConnectionImpl> impl_;
};

/// Offset kinds of ListOffsets.
enum class OffsetType : int32_t { kEarliest = 0, kLatest = 1, kTimestamp = 2 };

/// Database and table administration. Mutating calls go to the coordinator.
class Admin {
 public:
  /// Internal: made by Connection::GetAdmin.
  explicit Admin(std::shared_ptr<client::ConnectionImpl> impl) : impl_(std::move(impl)) {}

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
  /// The tablet server leading each bucket of a non-partitioned table (bucket id -> tablet
  /// server id), from a metadata refresh at the coordinator. Buckets without a live leader
  /// are absent. Fails with TABLE_NOT_EXIST (7).
  void ListBucketLeadersAsync(const TablePath& path, Callback<std::map<int32_t, int32_t>> done);
  /// Partitions of a partitioned table, in the server's order.
  void ListPartitionInfosAsync(const TablePath& path, Callback<std::vector<PartitionInfo>> done);

 private:
  std::shared_ptr<client::ConnectionImpl> impl_;
};

/// One value of a row being appended, already in the column's physical unit:
/// kInt64 holds integers, DATE (days since epoch), TIME and TIMESTAMP (in the column's Arrow
/// unit); kBytes holds STRING (UTF-8) and BYTES/BINARY; kDecimal holds the unscaled value at
/// the column's scale as a 128-bit two's complement (hi, lo).
struct Value {
  enum class Kind : uint8_t { kNull, kBool, kInt64, kDouble, kBytes, kDecimal };
  Kind kind = Kind::kNull;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string_view s;
  int64_t dec_hi = 0;
  uint64_t dec_lo = 0;

  static Value Null() { return Value{}; }
  static Value Bool(bool v) { Value x; x.kind = Kind::kBool; x.b = v; return x; }
  static Value Int(int64_t v) { Value x; x.kind = Kind::kInt64; x.i = v; return x; }
  static Value Double(double v) { Value x; x.kind = Kind::kDouble; x.d = v; return x; }
  static Value Bytes(std::string_view v) { Value x; x.kind = Kind::kBytes; x.s = v; return x; }
  static Value Decimal(int64_t hi, uint64_t lo) {
    Value x; x.kind = Kind::kDecimal; x.dec_hi = hi; x.dec_lo = lo; return x;
  }
};

/// Completion of one write: resolves when the server acknowledged the batch holding it (OK:
/// stored on the replicas writer.acks asks for), or when the batch failed: a non-retriable
/// server error, writer.retries exhausted, client.writer.delivery-timeout passed (kTimeout; the
/// message says when the batch had been sent and so may be stored), or the connection closed.
class WriteResult {
 public:
  struct State;
  WriteResult() = default;
  explicit WriteResult(std::shared_ptr<State> state) : state_(std::move(state)) {}
  /// Calls `done` once with the outcome, immediately (on the calling thread) if already known,
  /// otherwise on the I/O thread.
  void OnComplete(StatusCallback done) const;
  /// Blocks until the outcome is known.
  Status Wait() const;
  /// True when the outcome is known.
  bool done() const;

 private:
  std::shared_ptr<State> state_;
};

/// Writes to a log table. Rows go into per-bucket Arrow batches that close at
/// writer.batch.size bytes, after client.writer.batch-timeout, or on Flush, and are sent to the
/// bucket leader with writer.acks. Failed sends are retried (after a metadata refresh when the
/// error or a timeout suggests the leader moved) until client.writer.delivery-timeout; with
/// idempotence (the default) a retried batch is stored once, in order.
class AppendWriter {
 public:
  virtual ~AppendWriter() = default;
  /// Appends one row given as one Value per column, in table column order. Every value is
  /// checked against its column before anything is queued: a wrong kind, an out-of-range
  /// integer, too many decimal digits or a null in a NOT NULL column fails with kInvalidArgument
  /// naming the column, and nothing else queued is affected. Waits while the writer's buffer
  /// memory (client.writer.buffer.memory-size) is full, failing with kTimeout after
  /// client.writer.buffer.wait-timeout.
  virtual Result<WriteResult> Append(const Value* values, size_t count) = 0;
  /// Append without waiting for buffer memory: for callers that wait themselves (with
  /// WaitForBufferSpace) in a way that suits them, e.g. without a language lock held.
  virtual Result<WriteResult> AppendNoWait(const Value* values, size_t count) = 0;
  /// True while buffered bytes are at or above client.writer.buffer.memory-size.
  virtual bool BufferFull() = 0;
  /// Blocks until buffer memory is free; kTimeout after client.writer.buffer.wait-timeout.
  virtual Status WaitForBufferSpace() = 0;
  /// Appends an Arrow record batch whose fields match the table's columns by name and type
  /// (kInvalidArgument naming the field otherwise). The batch is sent as is, no per-row work.
  virtual Result<WriteResult> WriteArrowBatch(const std::shared_ptr<arrow::RecordBatch>& batch) = 0;
  /// Closes every open batch and calls `done` when all writes appended before this call are
  /// complete. `done` gets OK only when no write failed since the previous flush (including
  /// writes whose handles nobody looked at); otherwise an error with the first failure's code
  /// that says how many rows and batches failed and why. Each failure is reported by one
  /// flush (every flush waiting when it happens, else the next one).
  virtual void FlushAsync(StatusCallback done) = 0;
  /// The Arrow schema rows must follow (the table's columns).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
};

/// Records of one log batch handed to the user: the rows at offsets
/// [base_offset, last_offset] of `bucket`, all committed at `commit_timestamp`.
struct ScanBatch {
  int32_t bucket = 0;
  int64_t base_offset = 0;       ///< offset of the first row of `batch`
  int64_t last_offset = 0;       ///< offset of the last row of `batch`
  int64_t commit_timestamp = 0;  ///< epoch ms, the timestamp of every record of the batch
  std::shared_ptr<arrow::RecordBatch> batch;  ///< the scanner's projected schema
  std::vector<int8_t> change_types;           ///< one per row; empty means all +A (append-only)
};

/// Reads a log table's buckets. Positions start where Subscribe says and advance as batches
/// are returned; each record is returned once, in offset order within its bucket.
class LogScanner {
 public:
  virtual ~LogScanner() = default;
  /// Subscribes `bucket` from `start_offset`: an offset, kEarliestOffset (log start) or
  /// kLatestOffset (the high watermark when the next read starts). Re-subscribing moves the
  /// position. Fails with kInvalidArgument for a bucket outside the table or a bad offset.
  virtual Status Subscribe(int32_t bucket, int64_t start_offset) = 0;
  /// Stops reading `bucket`; batches of it not yet returned are dropped.
  virtual Status Unsubscribe(int32_t bucket) = 0;
  /// Returns the next batches of the subscribed buckets: as soon as any are fetched, or an empty
  /// list once `timeout_ms` passes. The server waits for client.scanner.log.fetch.min-bytes up
  /// to client.scanner.log.fetch.wait-max-time per fetch. A poll returns by its own timeout
  /// even when a fetch is still outstanding (e.g. at a frozen leader): that fetch continues and
  /// the next poll or read returns what it brings. Retriable errors (leader changes, servers
  /// starting) are retried inside polls and reported only once they last 2 x
  /// client.request-timeout. Polls and reads of one scanner run one at a time, in call order;
  /// the next starts after `done` returns (so `done` may Requeue).
  virtual void PollAsync(int64_t timeout_ms, Callback<std::vector<ScanBatch>> done) = 0;
  /// PollAsync returning at most `max_records` records (0: no limit); the rest stay buffered
  /// for the next poll, in order.
  virtual void PollAsync(int64_t timeout_ms, int64_t max_records, Callback<std::vector<ScanBatch>> done) = 0;
  /// Makes a poll in progress return early, with what it has fetched (possibly nothing), within
  /// about client.scanner.log.fetch.wait-max-time. For callers that abandon a poll.
  virtual void Wakeup() = 0;
  /// Puts batches returned by a poll that the caller could not deliver back in front, so the
  /// next poll returns them first (e.g. the poll was cancelled after its fetch completed).
  virtual void Requeue(std::vector<ScanBatch> batches) = 0;
  /// Reads every subscribed bucket from its position up to the high watermark of its current
  /// leader when the call starts (leaders are refreshed at the coordinator first, so a stale
  /// replica never shortens the read), and returns the records as one table (the scanner's
  /// projected schema; an empty table at once when there is nothing to read). Advances the
  /// positions. Leader changes are retried; fails with a retriable kTimeout when no bucket
  /// progressed for 2 x client.request-timeout. On failure nothing read is lost: the records
  /// go back to the scanner for the next read.
  virtual void ToArrowAsync(Callback<std::shared_ptr<arrow::Table>> done) = 0;
  /// The bounded read of ToArrowAsync, as the batches it read (bucket and offsets kept), so a
  /// caller that cannot deliver them can Requeue them. On failure, nothing read is lost: the
  /// positions are left where the undelivered records start.
  virtual void ReadBatchesAsync(Callback<std::vector<ScanBatch>> done) = 0;
  /// The schema of what this scanner returns (after projection).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
};

/// A table handle: metadata plus factories for writers and scanners.
class Table {
 public:
  /// Internal: made by Connection::GetTableAsync.
  Table(std::shared_ptr<client::ConnectionImpl> impl, TableInfo info)
      : impl_(std::move(impl)), info_(std::move(info)) {}
  /// The table's metadata as of GetTableAsync.
  const TableInfo& info() const { return info_; }
  /// A writer for this log table. Fails with kInvalidArgument for a primary-key table.
  Result<std::shared_ptr<AppendWriter>> NewAppendWriter();
  /// A scanner returning the columns `projection` (table column indexes, in the order wanted;
  /// empty = all columns). Fails with kInvalidArgument for a bad index.
  Result<std::shared_ptr<LogScanner>> NewLogScanner(const std::vector<int32_t>& projection = {});

 private:
  std::shared_ptr<client::ConnectionImpl> impl_;
  TableInfo info_;
};

}  // namespace fluss

#include "fluss/await.h"
