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

/// How error messages name what a converter reads: `noun` is the Python argument ("row",
/// "key", "prefix"), `columns` what its columns are ("the table", "the primary key (id, name)").
/// Messages read "row: 'x' is not a column of the table", "key has 1 value but the primary
/// key (id, name) has 2 columns". With `every_column` a dict must hold every
/// column (keys); otherwise a missing key is null.
struct RowShape {
  std::string noun = "row";
  std::string columns = "the table";
  bool every_column = false;
};

class RowConverter {
 public:
  /// A converter for rows of `schema`'s columns (the table's, or a subset of them: the target
  /// columns of a partial update, the primary key, a lookup prefix).
  explicit RowConverter(std::shared_ptr<arrow::Schema> schema, RowShape shape = {});
  /// Fills `out` (one Value per column) from a dict (missing keys = null unless
  /// RowShape::every_column), list or tuple.
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
  RowShape shape_;
  std::vector<Column> columns_;
};

/// Rows that hold only some columns of a table (the target columns of a partial update, the
/// primary key, a lookup prefix), converted to one Value per table column: the given columns
/// at their table positions, null elsewhere (what the core's writers and lookupers take).
class ColumnsConverter {
 public:
  /// `positions`: table column indexes, in the order a list/tuple row gives them.
  ColumnsConverter(const std::shared_ptr<arrow::Schema>& table_schema, std::vector<int32_t> positions,
                   RowShape shape);
  /// Fills `out` with one Value per table column. Fails with kInvalidArgument naming the
  /// column or key.
  Status Convert(PyObject* row, std::vector<Value>* out);
  /// "(id, name)": the names of the columns, for messages.
  static std::string Names(const arrow::Schema& table_schema, const std::vector<int32_t>& positions);

 private:
  std::vector<int32_t> positions_;
  size_t width_;
  RowConverter converter_;
  std::vector<Value> scratch_;
};

}  // namespace fluss::py
