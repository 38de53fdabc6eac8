// Arrow C Data Interface: schemas and batches from pyarrow objects, and native Arrow data
// exported as PyCapsules that pyarrow (or any consumer of the interface) imports without copies.
#include "arrow_capsules.h"

#include <Python.h>

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/type.h>

#include "bridge.h"

namespace fluss::py {

namespace {
template <typename T>
T* CapsulePointer(nb::handle capsule, const char* name) {
  void* p = PyCapsule_GetPointer(capsule.ptr(), name);
  if (!p) throw nb::python_error();
  return static_cast<T*>(p);
}

void ReleaseSchemaCapsule(PyObject* cap) {
  auto* s = static_cast<ArrowSchema*>(PyCapsule_GetPointer(cap, "arrow_schema"));
  if (s) {
    if (s->release) s->release(s);
    delete s;
  }
}

void ReleaseStreamCapsule(PyObject* cap) {
  auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(cap, "arrow_array_stream"));
  if (s) {
    if (s->release) s->release(s);
    delete s;
  }
}

void ReleaseArrayCapsule(PyObject* cap) {
  auto* a = static_cast<ArrowArray*>(PyCapsule_GetPointer(cap, "arrow_array"));
  if (a) {
    if (a->release) a->release(a);
    delete a;
  }
}
}  // namespace

std::shared_ptr<arrow::Schema> ImportSchema(nb::handle obj) {
  if (!nb::hasattr(obj, "__arrow_c_schema__"))
    Throw(Status::InvalidArgument("expected a pyarrow.Schema, got " + std::string(nb::str(obj.type()).c_str())));
  nb::object cap = obj.attr("__arrow_c_schema__")();
  auto* c = CapsulePointer<ArrowSchema>(cap, "arrow_schema");
  auto r = arrow::ImportSchema(c);
  if (!r.ok()) Throw(Status::InvalidArgument("importing the Arrow schema: " + r.status().ToString()));
  return *r;
}

std::shared_ptr<arrow::RecordBatch> ImportRecordBatch(nb::handle obj) {
  if (!nb::hasattr(obj, "__arrow_c_array__"))
    Throw(Status::InvalidArgument("expected a pyarrow.RecordBatch, got " + std::string(nb::str(obj.type()).c_str())));
  nb::tuple caps = nb::cast<nb::tuple>(obj.attr("__arrow_c_array__")());
  auto* s = CapsulePointer<ArrowSchema>(caps[0], "arrow_schema");
  auto* a = CapsulePointer<ArrowArray>(caps[1], "arrow_array");
  auto r = arrow::ImportRecordBatch(a, s);
  if (!r.ok()) Throw(Status::InvalidArgument("importing the Arrow record batch: " + r.status().ToString()));
  return *r;
}

nb::object ExportSchemaCapsule(const arrow::Schema& schema) {
  auto* c = new ArrowSchema();
  auto st = arrow::ExportSchema(schema, c);
  if (!st.ok()) {
    delete c;
    Throw(Status::Internal("exporting a schema: " + st.ToString()));
  }
  return nb::steal(PyCapsule_New(c, "arrow_schema", ReleaseSchemaCapsule));
}

nb::object ExportBatchCapsules(const arrow::RecordBatch& batch) {
  auto* a = new ArrowArray();
  auto* c = new ArrowSchema();
  auto st = arrow::ExportRecordBatch(batch, a, c);
  if (!st.ok()) {
    delete a;
    delete c;
    Throw(Status::Internal("exporting a record batch: " + st.ToString()));
  }
  nb::object sc = nb::steal(PyCapsule_New(c, "arrow_schema", ReleaseSchemaCapsule));
  nb::object ac = nb::steal(PyCapsule_New(a, "arrow_array", ReleaseArrayCapsule));
  return nb::make_tuple(sc, ac);
}

Callback<std::shared_ptr<arrow::RecordBatch>> BatchCapsulesCallback(nb::object done) {
  return MakeCallback<std::shared_ptr<arrow::RecordBatch>>(
      std::move(done), [](std::shared_ptr<arrow::RecordBatch> batch) -> nb::object {
        if (!batch) return nb::none();
        return ExportBatchCapsules(*batch);
      });
}

nb::object ExportTableCapsule(const std::shared_ptr<arrow::Table>& table) {
  auto reader = std::make_shared<arrow::TableBatchReader>(table);
  auto* c = new ArrowArrayStream();
  auto st = arrow::ExportRecordBatchReader(reader, c);
  if (!st.ok()) {
    delete c;
    Throw(Status::Internal("exporting a table: " + st.ToString()));
  }
  return nb::steal(PyCapsule_New(c, "arrow_array_stream", ReleaseStreamCapsule));
}

}  // namespace fluss::py
