#include "scan_records.h"

#include <Python.h>
#include <structmember.h>

#include <array>

#include <arrow/record_batch.h>

namespace fluss::py {

namespace {

// Makes ScanRecords by filling the instance's __slots__ (member descriptors at fixed offsets)
// after a plain allocation: calling the class would run its Python __init__, ~0.3 µs a record.
// The record is then untracked by the cyclic GC (see ScanRecord in _records.py).
// When the class does not have the expected slots it is called instead.
class RecordMaker {
 public:
  explicit RecordMaker(nb::handle type) : type_(reinterpret_cast<PyTypeObject*>(type.ptr())) {
    static constexpr std::array<const char*, 5> kSlots = {"bucket", "offset", "timestamp", "change_type", "row"};
    for (size_t i = 0; i < kSlots.size(); ++i) {
      nb::object d = nb::steal(PyObject_GetAttrString(type.ptr(), kSlots[i]));
      if (!d.is_valid()) throw nb::python_error();
      if (!Py_IS_TYPE(d.ptr(), &PyMemberDescr_Type)) return;
      const PyMemberDef* m = reinterpret_cast<PyMemberDescrObject*>(d.ptr())->d_member;
      if (m->type != T_OBJECT_EX || (m->flags & READONLY)) return;
      offsets_[i] = m->offset;
    }
    direct_ = PyType_Check(type.ptr()) != 0;
  }

  /// A new ScanRecord (new reference) or null with a Python error set; borrows its arguments.
  PyObject* Make(PyObject* bucket, PyObject* offset, PyObject* timestamp, PyObject* change_type, PyObject* row) const {
    std::array<PyObject*, 5> values = {bucket, offset, timestamp, change_type, row};
    if (!direct_) return PyObject_Vectorcall(reinterpret_cast<PyObject*>(type_), values.data(), values.size(), nullptr);
    PyObject* r = type_->tp_alloc(type_, 0);
    if (!r) return nullptr;
    for (size_t i = 0; i < values.size(); ++i) {
      Py_INCREF(values[i]);
      *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(r) + offsets_[i]) = values[i];
    }
    // Not tracked by the cyclic GC: its attributes are read-only (_records.py says why).
    if (PyObject_GC_IsTracked(r)) PyObject_GC_UnTrack(r);
    return r;
  }

 private:
  PyTypeObject* type_;
  std::array<Py_ssize_t, 5> offsets_{};
  bool direct_ = false;
};

}  // namespace

nb::list MakeScanRecords(const std::vector<ScanBatch>& batches, const ArrowRows& rows, nb::handle record_type,
                         nb::handle bucket_of, nb::handle change_types, nb::handle fallback_of) {
  const RecordMaker maker(record_type);
  nb::tuple kinds = nb::tuple(change_types);
  nb::list out;
  for (size_t bi = 0; bi < batches.size(); ++bi) {
    const ScanBatch& b = batches[bi];
    const arrow::RecordBatch& batch = *b.batch;
    nb::object partition = b.partition_id ? nb::object(nb::int_(*b.partition_id)) : nb::none();
    nb::object bucket = bucket_of(partition, b.bucket);
    nb::object timestamp = nb::int_(b.commit_timestamp);
    const auto batch_rows = rows.Rows(batch, [&] { return fallback_of(bi); });
    const bool all_append = b.change_types.empty();
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      int8_t ct = all_append ? 0 : b.change_types[static_cast<size_t>(r)];
      if (ct < 0 || static_cast<size_t>(ct) >= kinds.size()) throw nb::value_error("unknown change type byte");
      nb::object row = nb::steal(batch_rows.Row(r));
      if (!row.is_valid()) throw nb::python_error();
      nb::object offset = nb::steal(PyLong_FromLongLong(b.base_offset + r));
      if (!offset.is_valid()) throw nb::python_error();
      nb::object record = nb::steal(maker.Make(bucket.ptr(), offset.ptr(), timestamp.ptr(), PyTuple_GET_ITEM(kinds.ptr(), ct), row.ptr()));
      if (!record.is_valid() || PyList_Append(out.ptr(), record.ptr()) < 0) throw nb::python_error();
    }
  }
  return out;
}

}  // namespace fluss::py
