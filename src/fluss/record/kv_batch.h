// KV record batch (DefaultKvRecordBatch, magic 0), the `records` of one PbPutKvReqForBucket
// (protocol-data.md section 5). Little-endian, 28-byte header:
//   0 Length i32 (bytes that follow) | 4 Magic i8 = 0 | 5 CRC u32 | 9 SchemaId i16 |
//   11 Attributes i8 = 0 | 12 WriterId i64 | 20 BatchSequence i32 | 24 RecordCount i32 | 28 records
// The CRC-32C (util/crc32c.h) covers bytes [9, end of batch). Each record:
//   [int32 LE Length = bytes that follow][varint32 key length K][K key bytes][value row]
// where the value row (CompactedRow or IndexedRow, the table's `table.kv.format`) is absent for a
// delete: a delete is recognised only by Length == varint size + K.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/status.h"

namespace fluss::record {

inline constexpr size_t kKvBatchHeaderSize = 28;
inline constexpr size_t kKvOverhead = 4;  // the Length field
inline constexpr size_t kKvCrcOffset = 5;
inline constexpr size_t kKvSchemaIdOffset = 9;  // the CRC covers [9, end)
inline constexpr size_t kKvWriterIdOffset = 12;
inline constexpr size_t kKvBatchSequenceOffset = 20;
inline constexpr size_t kKvRecordCountOffset = 24;
inline constexpr int8_t kKvMagic = 0;

/// Accumulates upsert and delete records and produces one KV batch.
///
/// Thread affinity: none; not thread-safe. One owner (e.g. a per-bucket KV write batch, under
/// its lock) appends and finishes.
class KvBatchBuilder {
 public:
  KvBatchBuilder();

  /// Appends an upsert: `key` = the encoded primary key (row/key_encoding.h), `value_row` = the
  /// full-width value row in the table's kv format (row/compacted_row.h, row/indexed_row.h; all
  /// columns, NULL for those a partial update does not write). Fails with kInvalidArgument for an
  /// empty key or a record over 2 GiB; the builder is then unchanged.
  Status AppendUpsert(std::string_view key, std::string_view value_row);
  /// Appends a delete of `key` (no value bytes). Same failures as AppendUpsert.
  Status AppendDelete(std::string_view key);

  /// Bytes of the batch Finish would produce now (header included).
  int64_t size_in_bytes() const { return static_cast<int64_t>(buffer_.size()); }
  int32_t num_records() const { return num_records_; }
  /// Bytes one record of `key_size` key bytes and `value_size` value bytes adds to the batch.
  static size_t RecordSize(size_t key_size, size_t value_size);

  /// Returns the finished batch in a new mutable buffer (so SetKvWriterAndSequence can re-stamp
  /// it) and resets the builder to empty. `writer_id` / `batch_sequence` are -1 without
  /// idempotence. With no records the batch is header-only (RecordCount 0).
  Result<std::shared_ptr<arrow::Buffer>> Finish(int16_t schema_id, int64_t writer_id = -1,
                                                int32_t batch_sequence = -1);

 private:
  Status Append(std::string_view key, const std::string_view* value_row);
  std::string buffer_;  // header placeholder (28 zero bytes) + records
  int32_t num_records_ = 0;
};

/// Rewrites WriterId and BatchSequence of the finished KV batch `batch[0, batch_size)` and
/// recomputes its CRC (an idempotent writer stamps a batch when it is first drained and keeps the
/// stamp on retries; a writer-id reset re-stamps it).
void SetKvWriterAndSequence(uint8_t* batch, size_t batch_size, int64_t writer_id, int32_t batch_sequence);

/// CRC-32C of bytes [9, batch_size) of a KV batch.
uint32_t ComputeKvBatchCrc(const uint8_t* batch, size_t batch_size);

/// One record of a parsed KV batch; `key` and `value` point into the parsed bytes.
struct KvRecordView {
  std::string_view key;
  std::optional<std::string_view> value;  ///< absent for a delete
};

/// A parsed KV batch.
struct KvBatchView {
  int32_t length = 0;  ///< bytes after the Length field
  int8_t magic = 0;
  uint32_t crc = 0;
  int16_t schema_id = 0;
  int8_t attributes = 0;
  int64_t writer_id = -1;
  int32_t batch_sequence = -1;
  std::vector<KvRecordView> records;
  size_t batch_size() const { return kKvOverhead + static_cast<size_t>(length); }
};

/// Parses the KV batch at the start of `data[0, size)` (trailing bytes after the batch are
/// allowed and ignored). Fails with kProtocol for a truncated batch or record, a magic other than
/// 0, a CRC mismatch (when `verify_crc`), a bad key length varint, or a record count that does
/// not match the records. For tests and fuzzing; the client never receives KV batches.
Result<KvBatchView> ParseKvBatch(const uint8_t* data, size_t size, bool verify_crc = true);

}  // namespace fluss::record
