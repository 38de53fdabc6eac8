// Arrow record batch -> one Python dict per row ({column name: value}), built straight from the
// Arrow buffers for the flat types whose Python value pyarrow's to_pylist gives without a
// conversion rule of its own (BOOLEAN, TINYINT..BIGINT, FLOAT, DOUBLE, STRING, BYTES, BINARY).
// Other columns (DATE, TIME, TIMESTAMP, DECIMAL, ARRAY, MAP, ROW) keep pyarrow's conversion:
// the caller passes their values, converted by `Array.to_pylist()`, so every type reads back
// exactly as before. Why: a pyarrow Scalar per value cost ~3 µs per record of the narrow
// benchmark row; the dicts built here cost ~0.3 µs (issue 11).
//
// Thread affinity: the calling thread, GIL held.
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>

#include <memory>
#include <vector>

#include <arrow/type_fwd.h>

namespace fluss::py {

class ArrowRows {
 public:
  /// For batches of `schema` (the scanner's, projection applied).
  explicit ArrowRows(const arrow::Schema& schema);
  ~ArrowRows();
  ArrowRows(const ArrowRows&) = delete;
  ArrowRows& operator=(const ArrowRows&) = delete;

  /// Indexes of the columns this does not convert: the caller converts them with pyarrow.
  const std::vector<int>& fallback_columns() const { return fallback_; }

  /// Checks `lists` (what a caller's pyarrow conversion gave for a batch of `num_rows` rows:
  /// one list per fallback column, one value per row) and returns them as the `fallback` of
  /// Row (borrowed from `lists`, which must stay alive). Throws ValueError otherwise.
  std::vector<PyObject*> FallbackLists(nanobind::handle lists, int64_t num_rows) const;

  /// The dict of row `row` of a batch whose columns are `arrays` (RecordBatch::columns(), taken
  /// once per batch): a new reference, or null with a Python error set. `fallback[k]` is the
  /// Python list of the values of column fallback_columns()[k] of that batch (borrowed).
  PyObject* Row(const std::vector<std::shared_ptr<arrow::Array>>& arrays, int64_t row,
                const std::vector<PyObject*>& fallback) const;

 private:
  enum class Kind : uint8_t { kBool, kInt8, kInt16, kInt32, kInt64, kFloat, kDouble, kString, kLargeString,
                              kBinary, kLargeBinary, kFixedBinary, kFallback };
  struct Column {
    PyObject* name = nullptr;  // interned, owned
    Kind kind = Kind::kFallback;
    int fallback = -1;         // index into the fallback lists
  };
  static PyObject* Value(const Column& c, const arrow::Array& a, int64_t row);

  std::vector<Column> columns_;
  std::vector<int> fallback_;
};

}  // namespace fluss::py
