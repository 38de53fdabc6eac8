#include "arrow_rows.h"

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

namespace fluss::py {

ArrowRows::ArrowRows(const arrow::Schema& schema) {
  for (const auto& f : schema.fields()) {
    Column c;
    c.name = PyUnicode_InternFromString(f->name().c_str());
    switch (f->type()->id()) {
      case arrow::Type::BOOL: c.kind = Kind::kBool; break;
      case arrow::Type::INT8: c.kind = Kind::kInt8; break;
      case arrow::Type::INT16: c.kind = Kind::kInt16; break;
      case arrow::Type::INT32: c.kind = Kind::kInt32; break;
      case arrow::Type::INT64: c.kind = Kind::kInt64; break;
      case arrow::Type::FLOAT: c.kind = Kind::kFloat; break;
      case arrow::Type::DOUBLE: c.kind = Kind::kDouble; break;
      case arrow::Type::STRING: c.kind = Kind::kString; break;
      case arrow::Type::LARGE_STRING: c.kind = Kind::kLargeString; break;
      case arrow::Type::BINARY: c.kind = Kind::kBinary; break;
      case arrow::Type::LARGE_BINARY: c.kind = Kind::kLargeBinary; break;
      case arrow::Type::FIXED_SIZE_BINARY: c.kind = Kind::kFixedBinary; break;
      default:
        c.kind = Kind::kFallback;
        c.fallback = static_cast<int>(fallback_.size());
        fallback_.push_back(static_cast<int>(columns_.size()));
        break;
    }
    columns_.push_back(c);
  }
}

ArrowRows::~ArrowRows() {
  for (auto& c : columns_) Py_XDECREF(c.name);
}

PyObject* ArrowRows::CellValue(const Column& c, const arrow::Array& a, int64_t row) {
  if (a.IsNull(row)) Py_RETURN_NONE;
  switch (c.kind) {
    case Kind::kBool: return PyBool_FromLong(static_cast<const arrow::BooleanArray&>(a).Value(row));
    case Kind::kInt8: return PyLong_FromLong(static_cast<const arrow::Int8Array&>(a).Value(row));
    case Kind::kInt16: return PyLong_FromLong(static_cast<const arrow::Int16Array&>(a).Value(row));
    case Kind::kInt32: return PyLong_FromLong(static_cast<const arrow::Int32Array&>(a).Value(row));
    case Kind::kInt64: return PyLong_FromLongLong(static_cast<const arrow::Int64Array&>(a).Value(row));
    case Kind::kFloat: return PyFloat_FromDouble(static_cast<const arrow::FloatArray&>(a).Value(row));
    case Kind::kDouble: return PyFloat_FromDouble(static_cast<const arrow::DoubleArray&>(a).Value(row));
    case Kind::kString: {
      auto v = static_cast<const arrow::StringArray&>(a).GetView(row);
      return PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "strict");
    }
    case Kind::kLargeString: {
      auto v = static_cast<const arrow::LargeStringArray&>(a).GetView(row);
      return PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "strict");
    }
    case Kind::kBinary: {
      auto v = static_cast<const arrow::BinaryArray&>(a).GetView(row);
      return PyBytes_FromStringAndSize(v.data(), static_cast<Py_ssize_t>(v.size()));
    }
    case Kind::kLargeBinary: {
      auto v = static_cast<const arrow::LargeBinaryArray&>(a).GetView(row);
      return PyBytes_FromStringAndSize(v.data(), static_cast<Py_ssize_t>(v.size()));
    }
    case Kind::kFixedBinary: {
      auto v = static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(row);
      return PyBytes_FromStringAndSize(v.data(), static_cast<Py_ssize_t>(v.size()));
    }
    case Kind::kFallback: break;
  }
  PyErr_SetString(PyExc_SystemError, "ArrowRows: fallback column converted natively");
  return nullptr;
}

std::vector<PyObject*> ArrowRows::FallbackLists(nanobind::handle lists, int64_t num_rows) const {
  namespace nb = nanobind;
  std::vector<PyObject*> out;
  if (!PyList_Check(lists.ptr()) || PyList_GET_SIZE(lists.ptr()) != static_cast<Py_ssize_t>(fallback_.size()))
    throw nb::value_error("fallback values: one list per fallback column expected");
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lists.ptr()); ++k) {
    PyObject* l = PyList_GET_ITEM(lists.ptr(), k);
    if (!PyList_Check(l) || PyList_GET_SIZE(l) != num_rows) throw nb::value_error("fallback values: one per row expected");
    out.push_back(l);
  }
  return out;
}

ArrowRows::BatchRows::BatchRows(const ArrowRows& rows, const arrow::RecordBatch& batch, nanobind::object lists)
    : rows_(rows), arrays_(batch.columns()), lists_(std::move(lists)) {
  if (lists_.is_valid()) fallback_ = rows_.FallbackLists(lists_, batch.num_rows());
}

PyObject* ArrowRows::Row(const std::vector<std::shared_ptr<arrow::Array>>& arrays, int64_t row,
                         const std::vector<PyObject*>& fallback) const {
  // Presized: a dict grows past 5 keys otherwise, and every row of a batch has the same keys.
  PyObject* d = _PyDict_NewPresized(static_cast<Py_ssize_t>(columns_.size()));
  if (!d) return nullptr;
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column& c = columns_[i];
    PyObject* v;
    if (c.kind == Kind::kFallback) {
      v = PyList_GET_ITEM(fallback[c.fallback], row);
      Py_INCREF(v);
    } else {
      v = CellValue(c, *arrays[i], row);
    }
    if (!v || PyDict_SetItem(d, c.name, v) < 0) {
      Py_XDECREF(v);
      Py_DECREF(d);
      return nullptr;
    }
    Py_DECREF(v);
  }
  return d;
}

}  // namespace fluss::py
