// Python row (dict, list, tuple) -> fluss::Value per column, with the conversion chosen per
// column once (from the column's Fluss type, row/data_type.h, of the table's Arrow schema).
//
// Thread affinity: the calling thread, GIL held. Values point into the Python objects of the
// row (UTF-8 of str, bytes buffers), which must stay alive while the Values are used.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"

namespace fluss::py {

class RowConverter {
 public:
  explicit RowConverter(std::shared_ptr<arrow::Schema> schema);
  /// Fills `out` (one Value per column) from a dict (missing keys = null), list or tuple.
  /// Fails with kInvalidArgument naming the column or key.
  Status Convert(PyObject* row, std::vector<Value>* out) const;

 private:
  enum class Kind : uint8_t { kBool, kInt, kFloat, kString, kBinary, kDate, kTime, kTimestampNtz, kTimestampLtz, kDecimal };
  struct Column {
    std::string name;
    PyObject* py_name;  // interned str, owned
    Kind kind;
    int64_t units_per_second = 1;  // time and timestamp columns
    int32_t scale = 0;             // decimal columns
  };
  Status ConvertValue(const Column& c, PyObject* v, Value* out) const;

  std::shared_ptr<arrow::Schema> schema_;
  std::vector<Column> columns_;
};

}  // namespace fluss::py
