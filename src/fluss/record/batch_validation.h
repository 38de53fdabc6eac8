// Full validation of a decoded Arrow record batch (what arrow::RecordBatch::ValidateFull
// checks), with the UTF-8 check of top-level string columns taken at memory speed when their
// bytes are all ASCII.
//
// Thread affinity: none (a pure function of the batch).
#pragma once

#include <arrow/record_batch.h>

namespace fluss::record {

/// The checks of arrow::RecordBatch::ValidateFull, giving the same verdict: column lengths and
/// types against the schema, offsets inside their data, UTF-8 of strings, decimal precision and
/// so on, recursively. A top-level STRING or LARGE_STRING column is checked as binary (offsets)
/// and then for UTF-8 by a scan for non-ASCII bytes over the bytes its values span, falling back
/// to Arrow's per-value UTF-8 check only when that scan finds one: profiled on a 1M-row scan,
/// Arrow's UTF-8 check was a quarter of the client's CPU.
arrow::Status ValidateBatchFull(const arrow::RecordBatch& batch);

}  // namespace fluss::record
