// Writers: _AppendWriter (rows, converted per column without a Python frame per value, and
// Arrow batches to a log table) and WriteResultHandle (the acknowledgement of one write).
// What writers share (buffer waits, flush) is in writers.h.
//
// Thread affinity: the calling thread, GIL held; a wait for writer-buffer space and a blocking
// flush release the GIL. Completions arrive on the I/O thread through the bridge (bridge.h).
#include <memory>
#include <string>
#include <vector>

#include "arrow_capsules.h"
#include "bindings.h"
#include "bridge.h"
#include "row_converter.h"
#include "writers.h"

namespace fluss::py {

using namespace nb::literals;

bool InRunningEventLoop() {
  static PyObject* get_running_loop = [] {
    nb::object f = nb::module_::import_("asyncio").attr("_get_running_loop");
    return f.release().ptr();  // leaked on purpose, like the other helpers
  }();
  nb::object loop = nb::steal(PyObject_CallNoArgs(get_running_loop));
  if (!loop.is_valid()) throw nb::python_error();
  return !loop.is_none();
}

namespace {

struct PyAppendWriter : PyWriterBase<AppendWriter> {
  RowConverter converter;
  std::vector<Value> values;
  // The handle object of the batch the previous row went to: rows of one batch share one
  // outcome, so they share one WriteResultHandle instead of a new Python object per row.
  nb::object last_handle;
  WriteResult last_result;

  PyAppendWriter(std::shared_ptr<AppendWriter> w, std::string path, const ClientOptions& o)
      : PyWriterBase(std::move(w), std::move(path), o), converter(writer->schema()) {}

  // The append hot path: blocks only when the writer buffer is full (GIL released then).
  nb::object Append(nb::handle row) {
    WriteResult r = ValueOrThrow(WriteWhenRoom(
        "append", [&] { return converter.Convert(row.ptr(), &values); },
        [&] { return writer->AppendNoWait(values.data(), values.size()); }));
    if (!last_handle.is_valid() || !r.SameOutcomeAs(last_result)) {
      last_handle = nb::cast(PyWriteResult{r});
      last_result = std::move(r);
    }
    return last_handle;
  }

  PyWriteResult WriteArrowBatch(nb::handle batch) {
    auto rb = ImportRecordBatch(batch);
    return PyWriteResult{ValueOrThrow(writer->WriteArrowBatch(rb))};
  }
};

// `_AppendWriter.append(row)` as a plain CPython METH_FASTCALL method: nanobind's dispatch of
// a method that takes None (needed so append(None) raises FlussError, not TypeError) costs
// about as much as the whole conversion of a narrow row.
PyObject* AppendMethod(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "append() takes exactly one argument (row), %zd given", nargs);
    return nullptr;
  }
  try {
    return nb::inst_ptr<PyAppendWriter>(self)->Append(args[0]).release().ptr();
  } catch (const StatusError& e) {
    SetPythonError(e.status);
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyMethodDef kAppendMethod = {
    "append", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(AppendMethod)), METH_FASTCALL,
    "append(row) -> WriteResultHandle: queues one row (dict, list or tuple); see fluss.AppendWriter.append."};

}  // namespace

nb::object NewPyAppendWriter(std::shared_ptr<AppendWriter> writer, std::string table_path,
                             const ClientOptions& options) {
  return nb::cast(PyAppendWriter(std::move(writer), std::move(table_path), options));
}

void BindWriters(nb::module_& m) {
  nb::class_<PyWriteResult>(m, "WriteResultHandle",
                            "Acknowledgement of one write. `await handle.wait()` resolves when the server has "
                            "acknowledged the batch holding the write (raises FlussError if it failed).")
      .def("wait", &PyWriteResult::Wait,
           "Returns an awaitable that resolves to None once the write is acknowledged; raises FlussError "
           "with the server's error code if the write failed. May be awaited any number of times.")
      .def_prop_ro("done", &PyWriteResult::Done, "True once the outcome of the write is known.")
      .def(
          "_same_outcome", [](const PyWriteResult& a, const PyWriteResult& b) { return a.result.SameOutcomeAs(b.result); },
          "other"_a, "True when both handles stand for one outcome (writes of one batch).");

  nb::class_<PyAppendWriter> cls(m, "_AppendWriter");
  cls.def("write_arrow_batch", &PyAppendWriter::WriteArrowBatch, "batch"_a);
  DefWriterBase(cls);
  nb::object append = nb::steal(PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &kAppendMethod));
  if (!append.is_valid() || PyObject_SetAttrString(cls.ptr(), "append", append.ptr()) < 0) throw nb::python_error();
}

}  // namespace fluss::py
