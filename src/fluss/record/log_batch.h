// Log record batch header, magic 0 (protocol-data.md section 1.2). Little-endian, 48 bytes:
//   0 BaseOffset i64 | 8 Length i32 | 12 Magic i8 | 13 CommitTimestamp i64 | 21 CRC u32 |
//   25 SchemaId i16 | 27 Attributes i8 | 28 LastOffsetDelta i32 | 32 WriterId i64 |
//   40 BatchSequence i32 | 44 RecordCount i32 | 48 records
// The CRC-32C covers bytes [25, end of batch).
#pragma once

#include <cstddef>
#include <cstdint>

#include "fluss/status.h"

namespace fluss::record {

inline constexpr size_t kLogOverhead = 12;  // BaseOffset + Length
inline constexpr size_t kHeaderSizeV0 = 48;
inline constexpr size_t kCrcOffset = 21;
inline constexpr size_t kSchemaIdOffset = 25;
inline constexpr size_t kWriterIdOffset = 32;
inline constexpr int8_t kAppendOnlyFlag = 0x01;
inline constexpr int64_t kNoWriterId = -1;
inline constexpr int32_t kNoBatchSequence = -1;

struct LogBatchHeader {
  int64_t base_offset = 0;
  int32_t length = 0;  // bytes after the Length field
  int8_t magic = 0;
  int64_t commit_timestamp = 0;
  uint32_t crc = 0;
  int16_t schema_id = 0;
  int8_t attributes = 0;
  int32_t last_offset_delta = 0;
  int64_t writer_id = kNoWriterId;
  int32_t batch_sequence = kNoBatchSequence;
  int32_t record_count = 0;

  size_t batch_size() const { return kLogOverhead + static_cast<size_t>(length); }
  int64_t last_offset() const { return base_offset + last_offset_delta; }
  int64_t next_offset() const { return base_offset + last_offset_delta + 1; }
  bool append_only() const { return (attributes & kAppendOnlyFlag) != 0; }
  /// Size of the header for this magic (48 for magic 0).
  size_t header_size() const { return kHeaderSizeV0; }
};

/// Fills the header of a client-written batch occupying `batch[0, batch_size)` (records already
/// at offset 48) and computes its CRC. BaseOffset and CommitTimestamp are 0 (the server sets
/// them); Attributes is the append-only flag.
void WriteLogBatchHeader(uint8_t* batch, size_t batch_size, int16_t schema_id, int32_t record_count,
                         int64_t writer_id, int32_t batch_sequence);

/// Rewrites WriterId and BatchSequence of a finished batch and recomputes the CRC.
void SetWriterAndSequence(uint8_t* batch, size_t batch_size, int64_t writer_id, int32_t batch_sequence);

/// Parses a header. Fails when fewer than 48 bytes are given or the magic is not 0.
Result<LogBatchHeader> ParseLogBatchHeader(const uint8_t* data, size_t size);

/// CRC-32C of bytes [25, batch_size) of a batch.
uint32_t ComputeBatchCrc(const uint8_t* batch, size_t batch_size);

/// Walks the batches of a `records` blob (a produce or fetch payload): batches back to back,
/// each self-delimited by its Length. A truncated trailing batch (allowed in fetch responses)
/// ends the walk.
class LogBatchIterator {
 public:
  LogBatchIterator(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  /// Next complete batch: sets `header`, `batch` and returns true; false at the end.
  /// A malformed batch sets `status` and returns false.
  bool Next(LogBatchHeader* header, const uint8_t** batch, Status* status);
  /// After Next returned false without an error: the whole size in bytes of the trailing batch
  /// the data cut short (a fetch answer truncated at the bucket's byte limit), 0 if none.
  size_t truncated_batch_bytes() const { return truncated_batch_bytes_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  size_t truncated_batch_bytes_ = 0;
};

}  // namespace fluss::record
