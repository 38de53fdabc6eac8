// Upserts: _UpsertWriter (upserts and deletes of a primary-key table, full rows or the target
// columns of a partial update), over fluss::UpsertWriter. Buffer waits and flush as the append
// writer (writers.h).
//
// Thread affinity: the calling thread, GIL held; a wait for writer-buffer space releases the
// GIL. Completions arrive on the I/O thread through the bridge (bridge.h).
#include <memory>
#include <string>
#include <vector>

#include <arrow/type.h>

#include "bindings.h"
#include "bridge.h"
#include "row_converter.h"
#include "writers.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

std::vector<int32_t> AllColumns(const arrow::Schema& schema) {
  std::vector<int32_t> out(static_cast<size_t>(schema.num_fields()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int32_t>(i);
  return out;
}

struct PyUpsertWriter : PyWriterBase<UpsertWriter> {
  bool partial;                      // a partial update: rows hold only row_columns
  std::vector<int32_t> row_columns;  // the columns an upsert row holds, in list/tuple order
  ColumnsConverter row_converter;    // upsert rows
  ColumnsConverter key_converter;    // delete keys: the primary-key columns
  std::vector<Value> values;         // one per table column

  PyUpsertWriter(std::shared_ptr<UpsertWriter> w, std::string path, const ClientOptions& o,
                 std::vector<int32_t> columns, const std::vector<int32_t>& pk)
      : PyWriterBase(std::move(w), std::move(path), o),
        partial(!columns.empty()),
        row_columns(partial ? std::move(columns) : AllColumns(*writer->schema())),
        row_converter(writer->schema(), row_columns, RowShape{"row", RowColumns(*writer->schema(), row_columns, partial)}),
        key_converter(writer->schema(), pk, RowShape{"key", "the primary key " + ColumnsConverter::Names(*writer->schema(), pk)}) {}

  static std::string RowColumns(const arrow::Schema& schema, const std::vector<int32_t>& columns, bool partial) {
    if (!partial) return "the table";
    return "the partial update's columns " + ColumnsConverter::Names(schema, columns);
  }

  PyWriteResult Upsert(nb::handle row) {
    return PyWriteResult{ValueOrThrow(WriteWhenRoom(
        "upsert", [&] { return row_converter.Convert(row.ptr(), &values); },
        [&] { return writer->UpsertNoWait(values.data(), values.size()); }))};
  }

  PyWriteResult Delete(nb::handle key) {
    return PyWriteResult{ValueOrThrow(WriteWhenRoom(
        "delete", [&] { return key_converter.Convert(key.ptr(), &values); },
        [&] { return writer->DeleteNoWait(values.data(), values.size()); }))};
  }

  std::vector<int32_t> TargetColumns() const { return writer->target_columns(); }
};

}  // namespace

nb::object NewPyUpsertWriter(std::shared_ptr<UpsertWriter> writer, std::string table_path, const ClientOptions& options,
                             std::vector<int32_t> columns, const std::vector<int32_t>& primary_key) {
  return nb::cast(PyUpsertWriter(std::move(writer), std::move(table_path), options, std::move(columns), primary_key));
}

void BindUpsert(nb::module_& m) {
  nb::class_<PyUpsertWriter> cls(m, "_UpsertWriter");
  cls.def("upsert", &PyUpsertWriter::Upsert, "row"_a.none())
      .def("delete", &PyUpsertWriter::Delete, "pk"_a.none())
      .def_prop_ro("target_columns", &PyUpsertWriter::TargetColumns);
  DefWriterBase(cls);
}

}  // namespace fluss::py
