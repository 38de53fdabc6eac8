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

#include <arrow/record_batch.h>

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

  class BatchRows;
  /// The rows of `batch` (which must outlive the result). `fallback_of()` is called once, and
  /// only when fallback_columns() is not empty: it returns the caller's pyarrow conversion of
  /// the batch, a list with one list per fallback column of one value per row (ValueError
  /// otherwise).
  template <typename F>
  BatchRows Rows(const arrow::RecordBatch& batch, F&& fallback_of) const;

 private:
  enum class Kind : uint8_t { kBool, kInt8, kInt16, kInt32, kInt64, kFloat, kDouble, kString, kLargeString,
                              kBinary, kLargeBinary, kFixedBinary, kFallback };
  struct Column {
    PyObject* name = nullptr;  // interned, owned
    Kind kind = Kind::kFallback;
    int fallback = -1;         // index into the fallback lists
  };
  static PyObject* CellValue(const Column& c, const arrow::Array& a, int64_t row);
  std::vector<PyObject*> FallbackLists(nanobind::handle lists, int64_t num_rows) const;
  PyObject* Row(const std::vector<std::shared_ptr<arrow::Array>>& arrays, int64_t row,
                const std::vector<PyObject*>& fallback) const;

  std::vector<Column> columns_;
  std::vector<int> fallback_;
};

/// One batch's rows: the columns and fallback values taken once, then one dict per Row call.
class ArrowRows::BatchRows {
 public:
  /// The dict of row `row` (0 <= row < num_rows): a new reference, or null with a Python error set.
  PyObject* Row(int64_t row) const { return rows_.Row(arrays_, row, fallback_); }

 private:
  friend class ArrowRows;
  BatchRows(const ArrowRows& rows, const arrow::RecordBatch& batch, nanobind::object lists);
  const ArrowRows& rows_;
  const std::vector<std::shared_ptr<arrow::Array>>& arrays_;
  nanobind::object lists_;          // owns the lists fallback_ borrows
  std::vector<PyObject*> fallback_;  // per fallback column, the list of its values
};

template <typename F>
ArrowRows::BatchRows ArrowRows::Rows(const arrow::RecordBatch& batch, F&& fallback_of) const {
  return BatchRows(*this, batch, fallback_.empty() ? nanobind::object() : nanobind::object(fallback_of()));
}

}  // namespace fluss::py
