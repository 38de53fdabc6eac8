// Python row (dict, list, tuple) -> fluss::Value per column, with the conversion chosen per
// column once (from the column's Fluss type, row/data_type.h, of the table's Arrow schema).
// Nested columns take: ARRAY a list or tuple (or another sequence, not str/bytes/dict/set);
// MAP a dict (or another mapping) or a list of (key, value) pairs; ROW a dict by field name
// (missing fields are null) or a list/tuple by position.
//
// Thread affinity: the calling thread, GIL held. Values point into the Python objects of the
// row (UTF-8 of str, bytes buffers), which must stay alive while the Values are used; nested
// Values live in the converter until its next Convert.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"
#include "fluss/row/value_arena.h"
#include "fluss/row/value_path.h"

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
  /// RowShape::every_column), list or tuple. Nested Values stay valid until the next Convert.
  /// Fails with kInvalidArgument naming the column or key, and inside a nested value the path
  /// to the element ("tags[3]", "attrs[0].value", "address.zip").
  Status Convert(PyObject* row, std::vector<Value>* out);

 private:
  enum class Kind : uint8_t {
    kBool, kInt, kFloat, kString, kBinary, kDate, kTime, kTimestampNtz, kTimestampLtz, kDecimal,
    kArray, kMap, kRow
  };
  /// How one column, or one element / key / value / field inside a nested column, converts.
  struct Column {
    std::string name;
    PyObject* py_name = nullptr;   // interned str (columns and ROW fields), owned
    Kind kind = Kind::kBinary;
    int64_t units_per_second = 1;  // time and timestamp
    int32_t scale = 0;             // decimal
    bool single = false;           // FLOAT (float32), not DOUBLE
    std::vector<Column> children;  // ARRAY: the element; MAP: key, value; ROW: the fields
  };
  using Path = row::ValuePath;
  static Column ColumnOf(const std::string& name, const row::DataType& type);
  Status ConvertValue(const Column& c, PyObject* v, Value* out, const Path& at);
  Status ConvertArray(const Column& c, PyObject* v, Value* out, const Path& at);
  Status ConvertMap(const Column& c, PyObject* v, Value* out, const Path& at);
  Status ConvertRow(const Column& c, PyObject* v, Value* out, const Path& at);

  std::shared_ptr<arrow::Schema> schema_;
  RowShape shape_;
  std::vector<Column> columns_;
  row::ValueArena nested_;         // the nested Values of the row being converted
  std::vector<nanobind::object> keep_;  // objects made while converting it (sequence copies, item lists)
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
