// Arrow C Data Interface between pyarrow and the core's Arrow objects (one Arrow in the process:
// the libarrow of the pyarrow wheel), without copying buffers.
//
// Thread affinity: the calling thread, GIL held. Failures throw StatusError (bridge.h).
#pragma once

#include <nanobind/nanobind.h>

#include <memory>

#include <arrow/type_fwd.h>

#include "fluss/callbacks.h"

namespace fluss::py {

namespace nb = nanobind;

/// Schema from an object with __arrow_c_schema__ (pa.Schema, pa.Field...).
std::shared_ptr<arrow::Schema> ImportSchema(nb::handle obj);
/// Record batch from an object with __arrow_c_array__ (pa.RecordBatch).
std::shared_ptr<arrow::RecordBatch> ImportRecordBatch(nb::handle obj);
/// PyCapsule "arrow_schema" holding an exported schema.
nb::object ExportSchemaCapsule(const arrow::Schema& schema);
/// (PyCapsule "arrow_schema", PyCapsule "arrow_array") of one record batch.
nb::object ExportBatchCapsules(const arrow::RecordBatch& batch);
/// A callback of the core that hands a record batch to the Python `done(error, value)` (bridge.h)
/// as ExportBatchCapsules of it, or None when the core delivers no batch.
Callback<std::shared_ptr<arrow::RecordBatch>> BatchCapsulesCallback(nb::object done);
/// PyCapsule "arrow_array_stream" over the batches of `table`.
nb::object ExportTableCapsule(const std::shared_ptr<arrow::Table>& table);

}  // namespace fluss::py
