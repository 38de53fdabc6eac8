// ARROW log format (protocol-data.md section 2): a batch is the 48-byte header followed by one
// bare Arrow IPC RecordBatch message (continuation, metadata length, flatbuffer, body); no
// schema message, no end-of-stream marker. Body buffers use the table's compression codec.
#pragma once

#include <memory>

#include <arrow/ipc/options.h>
#include <arrow/type_fwd.h>

#include "fluss/record/log_batch.h"
#include "fluss/status.h"

namespace fluss::record {

/// Write options for a table's "table.log.arrow.compression.type" (NONE, ZSTD, LZ4_FRAME) and
/// "table.log.arrow.compression.zstd.level". Fails on an unknown codec name.
Result<arrow::ipc::IpcWriteOptions> ArrowWriteOptions(const std::string& compression_type,
                                                       int zstd_level);

/// Encodes `batch` as a complete append-only log batch (header + IPC message), CRC included,
/// with no writer id. The returned buffer is mutable so the writer id and sequence can be set
/// later with SetWriterAndSequence.
Result<std::shared_ptr<arrow::Buffer>> EncodeArrowLogBatch(const arrow::RecordBatch& batch,
                                                           int16_t schema_id,
                                                           const arrow::ipc::IpcWriteOptions& options);

/// Decodes the records of one ARROW log batch. `batch` is a slice of a fetched buffer holding
/// exactly one batch with `header`; `schema` is the reader's Arrow schema (projected columns in
/// ascending table order when projection was pushed down). Buffers are views into `batch`
/// except where they are misaligned or compressed. Returns nullptr for a header-only batch.
Result<std::shared_ptr<arrow::RecordBatch>> DecodeArrowLogBatch(
    const std::shared_ptr<arrow::Buffer>& batch, const LogBatchHeader& header,
    const std::shared_ptr<arrow::Schema>& schema);

}  // namespace fluss::record
