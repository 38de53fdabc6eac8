// One batch of writes to one table bucket: filled by a writer, closed, then sent (and
// possibly retried) by the sender. Variants hold the encoding: ARROW log (row builders or a
// caller's Arrow batch), INDEXED log, and KV (PutKv) batches.
//
// Thread affinity: an open batch is touched only under the accumulator's lock (user threads
// and the linger timer); once closed it belongs to the I/O thread (sender).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <arrow/buffer.h>
#include <arrow/ipc/options.h>

#include "fluss/client.h"
#include "fluss/metadata/table_bucket.h"
#include "fluss/net/io_thread.h"
#include "fluss/row/kv_value.h"
#include "fluss/write/write_result_state.h"

namespace fluss::write {

class WriteTracker;

/// The request a batch travels in.
enum class RequestKind : uint8_t { kProduceLog, kPutKv };

/// One record handed to a batch: a row (log append, upsert) and, for KV batches, the encoded
/// primary key (a delete has a key and no row).
struct WriteRecord {
  const Value* row = nullptr;  ///< one Value per table column; null for a delete
  std::string_view key;        ///< KV only: primary-key bytes (protocol-data.md section 6)
};

/// A bucket as writers address it: the table bucket and, for a partitioned table, the name of
/// its partition. A writer knows the name (from the row's partition columns) but not always the
/// partition id: the sender resolves it before the batch is queued (Java: PhysicalTablePath).
struct PhysicalBucket {
  metadata::TableBucket bucket;  ///< partition_id unset until the sender resolves it
  std::string partition_name;    ///< empty for a non-partitioned table

  friend bool operator<(const PhysicalBucket& a, const PhysicalBucket& b) {
    return std::tie(a.bucket, a.partition_name) < std::tie(b.bucket, b.partition_name);
  }
  friend bool operator==(const PhysicalBucket& a, const PhysicalBucket& b) = default;
};

/// The table a batch belongs to, shared by every batch of one writer.
struct WriteTable {
  TablePath path;
  std::vector<std::string> partition_keys;  ///< partitioned tables: to turn names into specs
  int64_t table_id = -1;
  int16_t schema_id = 0;
  std::shared_ptr<arrow::Schema> schema;
  arrow::ipc::IpcWriteOptions arrow_options;  ///< ARROW log batches: compression
  std::vector<int32_t> target_columns;        ///< KV partial updates; empty = every column
  std::shared_ptr<const row::KvRowCodec> kv_codec;  ///< KV batches: the value row format
};

class WriteBatch {
 public:
  WriteBatch(std::shared_ptr<const WriteTable> table, PhysicalBucket where)
      : table_(std::move(table)), where_(std::move(where)), created_(net::Clock::now()) {}
  virtual ~WriteBatch() = default;

  virtual RequestKind kind() const = 0;
  /// Appends one record (open batch, under the accumulator lock). Returns the bytes it adds to
  /// the batch's size; on failure the batch is unchanged. Records were validated before.
  virtual Result<int64_t> Append(const WriteRecord& record) = 0;
  /// Bytes the batch will take on the wire (an estimate for ARROW row batches before encoding).
  virtual int64_t size_in_bytes() const = 0;
  /// Ends appends (under the accumulator lock): cheap work only, e.g. finishing Arrow builders.
  virtual Status Close() = 0;
  /// Produces the wire bytes (I/O thread; compression happens here). Called once per batch
  /// before its first send; afterwards `encoded()` is set.
  virtual Status Encode() = 0;
  /// Rewrites the writer id and batch sequence in the encoded bytes (CRC recomputed).
  virtual void SetWriterAndSequence(int64_t writer_id, int32_t batch_sequence) = 0;

  const std::shared_ptr<const WriteTable>& table() const { return table_; }
  /// The table bucket; for a partitioned table its partition id is set once resolved.
  const metadata::TableBucket& bucket() const { return where_.bucket; }
  const PhysicalBucket& physical_bucket() const { return where_; }
  /// Empty for a non-partitioned table.
  const std::string& partition_name() const { return where_.partition_name; }
  /// True for a batch of a partition whose id is not resolved yet.
  bool unresolved() const { return !where_.partition_name.empty() && !where_.bucket.partition_id; }
  /// Sets the id of partition_name() (I/O thread, before the batch is queued).
  void ResolvePartition(int64_t partition_id) { where_.bucket.partition_id = partition_id; }
  const std::shared_ptr<arrow::Buffer>& encoded() const { return encoded_; }
  net::Clock::time_point created() const { return created_; }

  // ---- bookkeeping, set by the accumulator (under its lock) ----
  uint64_t id = 0;                           ///< the writer's batch number (flush ordering)
  std::shared_ptr<WriteTracker> tracker;     ///< the writer that owns the batch
  std::shared_ptr<WriteResult::State> result;
  int64_t bytes = 0;  ///< buffer memory accounted to the batch
  int64_t rows = 0;

  // ---- send state (I/O thread) ----
  int32_t attempts = 0;
  bool sent = false;        ///< sent at least once: on failure, the server may have stored it
  bool maybe_stored = false;  ///< a send ended without an answer, or the leader stored it and
                              ///< only the wait for the replicas failed
  Status last_error;          ///< why the last send failed (for the final error)
  int64_t writer_id = -1;   ///< idempotence: the writer id and sequence the bytes carry
  int32_t sequence = -1;

 protected:
  std::shared_ptr<arrow::Buffer> encoded_;

 private:
  std::shared_ptr<const WriteTable> table_;
  PhysicalBucket where_;
  net::Clock::time_point created_;  ///< the delivery timeout counts from here
};

/// A batch whose records are encoded as they are appended into `Builder` (INDEXED log, KV):
/// Close writes the header (Builder::Finish(schema id)), and `Stamp` rewrites the writer id and
/// sequence of the finished bytes (record::SetWriterAndSequence or SetKvWriterAndSequence).
template <typename Builder, void (*Stamp)(uint8_t*, size_t, int64_t, int32_t)>
class EncodedOnAppendBatch : public WriteBatch {
 public:
  /// `args` construct the builder.
  template <typename... Args>
  EncodedOnAppendBatch(std::shared_ptr<const WriteTable> table, PhysicalBucket where, Args&&... args)
      : WriteBatch(std::move(table), std::move(where)), builder_(std::forward<Args>(args)...) {}
  int64_t size_in_bytes() const override { return builder_.size_in_bytes(); }
  Status Close() override {
    if (encoded_) return Status::OK();
    FLUSS_ASSIGN_OR_RETURN(encoded_, builder_.Finish(table()->schema_id));
    return Status::OK();
  }
  Status Encode() override { return Status::OK(); }  // Close produced the bytes
  void SetWriterAndSequence(int64_t writer_id, int32_t batch_sequence) override {
    Stamp(encoded_->mutable_data(), static_cast<size_t>(encoded_->size()), writer_id, batch_sequence);
  }

 protected:
  Builder builder_;
};

}  // namespace fluss::write
