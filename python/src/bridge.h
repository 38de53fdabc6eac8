// Helpers shared by the binding: error translation, Python references owned by C++ callbacks,
// Arrow C Data Interface capsules.
//
// Thread affinity: PyRef and Deliver may be destroyed or called on the I/O thread; they take
// the GIL themselves.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>

#include <arrow/c/abi.h>
#include <arrow/type_fwd.h>

#include "fluss/client.h"

namespace fluss::py {

namespace nb = nanobind;

/// A C++ exception carrying a Status; translated into fluss.FlussError.
struct StatusError {
  Status status;
};

[[noreturn]] inline void Throw(const Status& st) { throw StatusError{st}; }
inline void ThrowIfError(const Status& st) {
  if (!st.ok()) Throw(st);
}
template <typename T>
T ValueOrThrow(Result<T> r) {
  if (!r.ok()) Throw(r.status());
  return std::move(*r);
}

/// Builds a fluss.FlussError instance for `st` (GIL held).
nb::object MakeError(const Status& st);

/// Owns a Python object from C++ code that may run without the GIL; releases it under the GIL
/// (and leaks it if the interpreter is already finalising).
class PyRef {
 public:
  explicit PyRef(nb::object o) : obj_(o.release().ptr()) {}
  ~PyRef();
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  nb::handle get() const { return obj_; }

 private:
  PyObject* obj_;
};

/// Prints an error that cannot be raised (GIL held), like an unraisable exception.
void ReportUnraisable(const char* what);

/// Calls Python `done(error_or_None, value_or_None)` under the GIL; Python exceptions raised by
/// `done` are reported as unraisable (they cannot propagate into the I/O thread).
void CallDone(const std::shared_ptr<PyRef>& done, nb::handle error, nb::handle value);

/// A C++ callback for a Result<T> that converts the value with `convert` (GIL held) and calls
/// the Python `done`.
template <typename T, typename Convert>
Callback<T> MakeCallback(nb::object done, Convert convert) {
  auto ref = std::make_shared<PyRef>(std::move(done));
  return [ref, convert](Result<T> r) {
    nb::gil_scoped_acquire gil;
    if (!r.ok()) {
      try {
        CallDone(ref, MakeError(r.status()), nb::none());
      } catch (nb::python_error& e) {
        e.discard_as_unraisable(ref->get());
      } catch (const std::exception& e) {
        ReportUnraisable(e.what());
      }
      return;
    }
    nb::object v;
    try {
      v = convert(std::move(*r));
    } catch (const StatusError& e) {
      CallDone(ref, MakeError(e.status), nb::none());
      return;
    } catch (nb::python_error& e) {
      e.discard_as_unraisable(ref->get());
      return;
    } catch (const std::exception& e) {
      ReportUnraisable(e.what());
      return;
    }
    CallDone(ref, nb::none(), v);
  };
}
StatusCallback MakeStatusCallback(nb::object done);

/// Schema from an object with __arrow_c_schema__ (pa.Schema, pa.Field...).
std::shared_ptr<arrow::Schema> ImportSchema(nb::handle obj);
/// Record batch from an object with __arrow_c_array__ (pa.RecordBatch).
std::shared_ptr<arrow::RecordBatch> ImportRecordBatch(nb::handle obj);
/// PyCapsule "arrow_schema" holding an exported schema.
nb::object ExportSchemaCapsule(const arrow::Schema& schema);
/// (PyCapsule "arrow_schema", PyCapsule "arrow_array") of one record batch.
nb::object ExportBatchCapsules(const arrow::RecordBatch& batch);
/// PyCapsule "arrow_array_stream" over the batches of `table`.
nb::object ExportTableCapsule(const std::shared_ptr<arrow::Table>& table);

}  // namespace fluss::py
