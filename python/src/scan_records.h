// The ScanRecords of a record scanner's poll, made natively: one fluss.ScanRecord (the Python
// class of _records.py) per row, its row dict built by ArrowRows (arrow_rows.h).
//
// Thread affinity: the calling thread, GIL held.
#pragma once

#include <nanobind/nanobind.h>

#include <vector>

#include "arrow_rows.h"
#include "fluss/log_scanner.h"

namespace fluss::py {

namespace nb = nanobind;

/// One ScanRecord per row of `batches`, in order, as a list. `record_type` is fluss.ScanRecord
/// (its __slots__ are filled directly, without running __init__); `bucket_of(partition_id or
/// None, bucket)` gives the TableBucket of a batch; `change_types[b]` is the ChangeType of the
/// change-type byte b (a batch without change types is all `change_types[0]`, +A);
/// `fallback_of(i)` gives, for batch i, the list of `Array.to_pylist()` values of each of
/// `rows.fallback_columns()` (called only when there are such columns). Raises what those
/// callables raise, or a Python error from a value that does not convert (e.g. bad UTF-8).
nb::list MakeScanRecords(const std::vector<ScanBatch>& batches, const ArrowRows& rows, nb::handle record_type,
                         nb::handle bucket_of, nb::handle change_types, nb::handle fallback_of);

}  // namespace fluss::py
