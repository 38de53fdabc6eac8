#include "row_converter.h"

#include <Python.h>
#include <datetime.h>

#include <climits>
#include <cmath>
#include <cstring>

#include <arrow/type.h>

#include "bridge.h"
#include "fluss/row/data_type.h"

namespace fluss::py {

namespace {

std::string TypeName(PyObject* v) { return Py_TYPE(v)->tp_name; }

bool IsNumpyNumber(PyObject* v) {
  return std::strncmp(Py_TYPE(v)->tp_name, "numpy.", 6) == 0 && Py_TYPE(v)->tp_as_number &&
         Py_TYPE(v)->tp_as_number->nb_float;
}

bool IsNumpyBool(PyObject* v) {
  const char* n = Py_TYPE(v)->tp_name;
  return std::strcmp(n, "numpy.bool") == 0 || std::strcmp(n, "numpy.bool_") == 0;
}

// pandas.NaT: a datetime.datetime subclass whose fields read 0001-01-01; it means "missing".
// Its type is a heap type whose tp_name is just "NaTType" (module pandas._libs.tslibs.nattype).
bool IsPandasNaT(PyObject* v) {
  const char* n = Py_TYPE(v)->tp_name;
  const size_t len = std::strlen(n);
  if (len < 7 || std::strcmp(n + len - 7, "NaTType") != 0) return false;
  nb::object module = nb::getattr(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(v))), "__module__", nb::none());
  return nb::isinstance<nb::str>(module) && std::strncmp(nb::cast<std::string>(module).c_str(), "pandas.", 7) == 0;
}

bool IsNumpyDatetime64(PyObject* v) { return std::strcmp(Py_TYPE(v)->tp_name, "numpy.datetime64") == 0; }

// The int64 count of a numpy.datetime64 (INT64_MIN for NaT) and its unit as
// (seconds numerator, denominator): 'D' -> 86400/1, 'ms' -> 1/1000. Units without a fixed
// length in seconds (years, months, generic) and below nanoseconds give den == 0.
void Datetime64Parts(PyObject* v, int64_t* count, int64_t* num, int64_t* den, std::string* unit_name) {
  nb::handle h(v);
  *count = nb::cast<int64_t>(h.attr("astype")("int64").attr("item")());
  nb::tuple unit = nb::cast<nb::tuple>(nb::module_::import_("numpy").attr("datetime_data")(h.attr("dtype")));
  const std::string u = nb::cast<std::string>(unit[0]);
  const int64_t step = nb::cast<int64_t>(unit[1]);
  *unit_name = step == 1 ? u : std::to_string(step) + u;
  *num = 0;
  *den = 0;
  if (u == "W") *num = 7 * 86400, *den = 1;
  else if (u == "D") *num = 86400, *den = 1;
  else if (u == "h") *num = 3600, *den = 1;
  else if (u == "m") *num = 60, *den = 1;
  else if (u == "s") *num = 1, *den = 1;
  else if (u == "ms") *num = 1, *den = 1000;
  else if (u == "us") *num = 1, *den = 1000000;
  else if (u == "ns") *num = 1, *den = 1000000000;
  *num *= step;
  if (step < 1 || *num > 1000000000) *num = 0, *den = 0;  // exotic multiples: keep the product below 2^127
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

int64_t UnitsPerSecond(arrow::TimeUnit::type u) {
  switch (u) {
    case arrow::TimeUnit::SECOND: return 1;
    case arrow::TimeUnit::MILLI: return 1000;
    case arrow::TimeUnit::MICRO: return 1000000;
    case arrow::TimeUnit::NANO: return 1000000000;
  }
  return 1;
}

// Python's datetime holds years 1..9999: a timestamp outside them (a numpy.datetime64, or an
// aware datetime shifted to UTC) could be stored but never read back as a Python value.
constexpr const char* kOutsidePythonYears =
    "datetime is outside the years 1..9999 (in UTC), which Python cannot read back";

bool InPythonYears(__int128 value, int64_t units_per_second) {
  static const __int128 kMinSeconds = static_cast<__int128>(DaysFromCivil(1, 1, 1)) * 86400;
  static const __int128 kEndSeconds = static_cast<__int128>(DaysFromCivil(10000, 1, 1)) * 86400;
  return value >= kMinSeconds * units_per_second && value < kEndSeconds * units_per_second;
}

// Scalar Values are written field by field: `*out = Value::Int(x)` in a function this size made
// GCC build a zeroed stack temporary and copy it (rep stos + rep movs, 72 bytes), which cost
// more than the rest of the conversion of a value.
[[gnu::always_inline]] inline void SetScalar(Value* out, Value::Kind kind, bool b, int64_t i, double d,
                                             std::string_view s, bool utf8 = false) {
  out->kind = kind;
  out->b = b;
  out->utf8 = utf8;
  out->i = i;
  out->d = d;
  out->s = s;
  out->dec_hi = 0;
  out->dec_lo = 0;
  out->items = nullptr;
  out->count = 0;
}
// The value of an exact int of at most two 30-bit digits (3.11) or a compact one (3.12+),
// read from the object: PyLong_AsLongLongAndOverflow is an out-of-line call per value, a
// tenth of the cost of a narrow row. Larger ints return false and take that call.
[[gnu::always_inline]] inline bool SmallIntValue(PyObject* v, long long* out) {
#if PY_VERSION_HEX >= 0x030C0000
  auto* l = reinterpret_cast<PyLongObject*>(v);
  if (!PyUnstable_Long_IsCompact(l)) return false;
  *out = static_cast<long long>(PyUnstable_Long_CompactValue(l));
  return true;
#else
  static_assert(PyLong_SHIFT == 30, "two digits fit a long long");
  const digit* d = reinterpret_cast<PyLongObject*>(v)->ob_digit;
  switch (Py_SIZE(v)) {
    case 0: *out = 0; return true;
    case 1: *out = static_cast<long long>(d[0]); return true;
    case -1: *out = -static_cast<long long>(d[0]); return true;
    case 2: *out = (static_cast<long long>(d[1]) << PyLong_SHIFT) | d[0]; return true;
    case -2: *out = -((static_cast<long long>(d[1]) << PyLong_SHIFT) | d[0]); return true;
    default: return false;
  }
#endif
}

[[gnu::always_inline]] inline void SetNull(Value* out) { SetScalar(out, Value::Kind::kNull, false, 0, 0, {}); }
[[gnu::always_inline]] inline void SetBool(Value* out, bool b) { SetScalar(out, Value::Kind::kBool, b, 0, 0, {}); }
[[gnu::always_inline]] inline void SetInt(Value* out, int64_t i) { SetScalar(out, Value::Kind::kInt64, false, i, 0, {}); }
[[gnu::always_inline]] inline void SetDouble(Value* out, double d) { SetScalar(out, Value::Kind::kDouble, false, 0, d, {}); }
[[gnu::always_inline]] inline void SetBytes(Value* out, std::string_view s) {
  SetScalar(out, Value::Kind::kBytes, false, 0, 0, s);
}
// From a str: CPython's UTF-8 of a str is valid UTF-8 (lone surrogates are refused before).
[[gnu::always_inline]] inline void SetUtf8(Value* out, std::string_view s) {
  SetScalar(out, Value::Kind::kBytes, false, 0, 0, s, true);
}

}  // namespace

RowConverter::Column RowConverter::ColumnOf(const std::string& name, const row::DataType& type) {
  Column c;
  c.name = name;
  c.py_name = PyUnicode_InternFromString(name.c_str());
  switch (type.root) {
    case row::TypeRoot::kBoolean: c.kind = Kind::kBool; break;
    case row::TypeRoot::kTinyInt:
    case row::TypeRoot::kSmallInt:
    case row::TypeRoot::kInt:
    case row::TypeRoot::kBigInt: c.kind = Kind::kInt; break;
    case row::TypeRoot::kFloat:
    case row::TypeRoot::kDouble:
      c.kind = Kind::kFloat;
      c.single = type.root == row::TypeRoot::kFloat;
      break;
    case row::TypeRoot::kChar:
    case row::TypeRoot::kString: c.kind = Kind::kString; break;
    case row::TypeRoot::kBytes:
    case row::TypeRoot::kBinary: c.kind = Kind::kBinary; break;
    case row::TypeRoot::kDate: c.kind = Kind::kDate; break;
    case row::TypeRoot::kTime:
      c.kind = Kind::kTime;
      c.units_per_second = UnitsPerSecond(static_cast<arrow::TimeUnit::type>(type.unit));
      break;
    case row::TypeRoot::kTimestamp:
    case row::TypeRoot::kTimestampLtz:
      c.kind = type.root == row::TypeRoot::kTimestamp ? Kind::kTimestampNtz : Kind::kTimestampLtz;
      c.units_per_second = UnitsPerSecond(static_cast<arrow::TimeUnit::type>(type.unit));
      break;
    case row::TypeRoot::kDecimal:
      c.kind = Kind::kDecimal;
      c.scale = type.scale;
      break;
    case row::TypeRoot::kArray: c.kind = Kind::kArray; break;
    case row::TypeRoot::kMap: c.kind = Kind::kMap; break;
    case row::TypeRoot::kRow: c.kind = Kind::kRow; break;
  }
  for (const auto& child : type.children) c.children.push_back(ColumnOf(child.name, child.type));
  return c;
}

RowConverter::RowConverter(std::shared_ptr<arrow::Schema> schema, RowShape shape)
    : schema_(std::move(schema)), shape_(std::move(shape)) {
  if (!PyDateTimeAPI) PyDateTime_IMPORT;
  for (const auto& f : schema_->fields()) {
    // The column's Fluss type (the one Arrow -> Fluss map); a type without one was rejected
    // earlier by the table schema mapping.
    auto type = row::DataTypeOf(*f);
    columns_.push_back(type.ok() ? ColumnOf(f->name(), *type) : ColumnOf(f->name(), row::DataType{row::TypeRoot::kBytes}));
  }
}

Status RowConverter::Convert(PyObject* row, std::vector<Value>* out) {
  nested_.Clear();
  keep_.clear();
  const size_t n = columns_.size();
  // Every Value is written below (ConvertValue writes its Value whenever it succeeds), so the
  // vector is only sized, not refilled per row.
  if (out->size() != n) out->assign(n, Value::Null());
  if (PyDict_Check(row)) {
    // Most dicts hold exactly the columns, in column order, keyed by the interned names (a
    // dict literal's keys are): walking the entries in order then finds every value without
    // hashing. Any other dict takes the lookups below, which give the same result.
    if (PyDict_CheckExact(row) && PyDict_GET_SIZE(row) == static_cast<Py_ssize_t>(n)) {
      Py_ssize_t pos = 0;
      PyObject *key, *v;
      size_t i = 0;
      while (i < n && PyDict_Next(row, &pos, &key, &v) && key == columns_[i].py_name) {
        FLUSS_RETURN_NOT_OK(ConvertValue(columns_[i], v, &(*out)[i], Path{nullptr, &columns_[i].name}));
        ++i;
      }
      if (i == n) return Status::OK();
    }
    Py_ssize_t found = 0;
    const Column* missing = nullptr;  // the first column without a key
    for (size_t i = 0; i < n; ++i) {
      PyObject* v = PyDict_GetItemWithError(row, columns_[i].py_name);
      if (!v) {
        if (PyErr_Occurred()) throw nb::python_error();
        if (!missing) missing = &columns_[i];
        SetNull(&(*out)[i]);
        continue;
      }
      ++found;
      FLUSS_RETURN_NOT_OK(ConvertValue(columns_[i], v, &(*out)[i], Path{nullptr, &columns_[i].name}));
    }
    if (found != PyDict_Size(row)) {
      // Name the first key that is not a column.
      PyObject *key, *value;
      Py_ssize_t pos = 0;
      while (PyDict_Next(row, &pos, &key, &value)) {
        bool known = false;
        if (PyUnicode_Check(key))
          for (const auto& c : columns_)
            if (PyUnicode_Compare(key, c.py_name) == 0) { known = true; break; }
        if (!known) {
          PyObject* r = PyObject_Repr(key);
          std::string name = r ? PyUnicode_AsUTF8(r) : "?";
          Py_XDECREF(r);
          PyErr_Clear();
          return Status::InvalidArgument(shape_.noun + ": " + name + " is not a column of " + shape_.columns);
        }
      }
    }
    if (missing && shape_.every_column)
      return Status::InvalidArgument(shape_.noun + " has no value for column '" + missing->name + "' of " +
                                     shape_.columns);
    return Status::OK();
  }
  if (PyList_Check(row) || PyTuple_Check(row)) {
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
    if (static_cast<size_t>(len) != n)
      return Status::InvalidArgument(shape_.noun + " has " + std::to_string(len) + (len == 1 ? " value" : " values") +
                                     " but " + shape_.columns + " has " + std::to_string(n) +
                                     (n == 1 ? " column" : " columns"));
    PyObject** items = PySequence_Fast_ITEMS(row);
    for (size_t i = 0; i < n; ++i)
      FLUSS_RETURN_NOT_OK(ConvertValue(columns_[i], items[i], &(*out)[i], Path{nullptr, &columns_[i].name}));
    return Status::OK();
  }
  return Status::InvalidArgument("a " + shape_.noun + " must be a dict, list or tuple, got " + TypeName(row));
}

namespace {

std::shared_ptr<arrow::Schema> SubSchema(const arrow::Schema& schema, const std::vector<int32_t>& positions) {
  arrow::FieldVector fields;
  for (int32_t p : positions) fields.push_back(schema.field(p));
  return arrow::schema(std::move(fields));
}

}  // namespace

ColumnsConverter::ColumnsConverter(const std::shared_ptr<arrow::Schema>& table_schema, std::vector<int32_t> positions,
                                   RowShape shape)
    : positions_(std::move(positions)),
      width_(static_cast<size_t>(table_schema->num_fields())),
      converter_(SubSchema(*table_schema, positions_), std::move(shape)) {}

Status ColumnsConverter::Convert(PyObject* row, std::vector<Value>* out) {
  FLUSS_RETURN_NOT_OK(converter_.Convert(row, &scratch_));
  out->assign(width_, Value::Null());
  for (size_t i = 0; i < positions_.size(); ++i) (*out)[static_cast<size_t>(positions_[i])] = scratch_[i];
  return Status::OK();
}

std::string ColumnsConverter::Names(const arrow::Schema& table_schema, const std::vector<int32_t>& positions) {
  std::string out = "(";
  for (size_t i = 0; i < positions.size(); ++i) {
    if (i) out += ", ";
    out += table_schema.field(positions[i])->name();
  }
  return out + ")";
}

Status RowConverter::ConvertValue(const Column& col, PyObject* v, Value* out, const Path& at) {
  const Column& c = col;
  // Messages name the path: a top-level column, or an element inside a nested one.
  auto Fail = [&](const std::string& what) { return Status::InvalidArgument("column '" + at.str() + "': " + what); };
  if (v == Py_None) {
    SetNull(out);
    return Status::OK();
  }
  // The exact built-in types first, without the numpy / pandas checks below (type-name
  // compares that cost more than the conversion itself).
  if (c.kind == Kind::kInt && PyLong_CheckExact(v)) {
    long long x;
    if (!SmallIntValue(v, &x)) {
      int overflow = 0;
      x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow) return Fail("integer value is out of range");
    }
    SetInt(out, x);
    return Status::OK();
  }
  if (c.kind == Kind::kFloat && !c.single && PyFloat_CheckExact(v)) {
    SetDouble(out, PyFloat_AS_DOUBLE(v));
    return Status::OK();
  }
  const bool temporal = c.kind == Kind::kDate || c.kind == Kind::kTime || c.kind == Kind::kTimestampNtz ||
                        c.kind == Kind::kTimestampLtz;
  // pandas.NaT and numpy.datetime64('NaT') mean "missing" in a temporal column, as in
  // write_pandas: null (a NOT NULL column then rejects the row, naming the column).
  if (temporal && IsPandasNaT(v)) {
    SetNull(out);
    return Status::OK();
  }
  if (temporal && IsNumpyDatetime64(v)) {
    int64_t count, num, den;
    std::string unit;
    Datetime64Parts(v, &count, &num, &den, &unit);
    if (count == INT64_MIN) {
      SetNull(out);
      return Status::OK();
    }
    if (c.kind != Kind::kTimestampNtz && c.kind != Kind::kTimestampLtz)
      return Fail("expected " + std::string(c.kind == Kind::kDate ? "datetime.date" : "datetime.time") +
                                     ", got numpy.datetime64");
    if (den == 0)
      return Fail("numpy.datetime64 of unit '" + unit + "'" +
                                     " cannot be converted exactly (use s, ms, us, ns or D..W)");
    // count * num / den seconds, in the column's units (naive: UTC for timestamp_ltz).
    // |count| <= 2^63, num <= 1e9 and units per second <= 1e9: the product fits 128 bits.
    const __int128 scaled = static_cast<__int128>(count) * num * c.units_per_second;
    if (scaled % den != 0) return Fail("datetime has more precision than the column keeps");
    const __int128 value = scaled / den;
    if (!InPythonYears(value, c.units_per_second)) return Fail(kOutsidePythonYears);
    if (value > INT64_MAX || value < INT64_MIN) return Fail("datetime is out of range");
    SetInt(out, static_cast<int64_t>(value));
    return Status::OK();
  }
  switch (c.kind) {
    case Kind::kBool:
      if (PyBool_Check(v)) {
        SetBool(out, v == Py_True);
        return Status::OK();
      }
      if (IsNumpyBool(v)) {  // numpy.bool_
        SetBool(out, PyObject_IsTrue(v) == 1);
        return Status::OK();
      }
      return Fail("expected bool, got " + TypeName(v));
    case Kind::kInt: {
      if (PyBool_Check(v) || IsNumpyBool(v) || PyFloat_Check(v))
        return Fail("expected int, got " + TypeName(v));
      nb::object index;
      if (!PyLong_Check(v)) {
        // Integer-like objects (numpy integers) convert through __index__.
        if (!PyIndex_Check(v)) return Fail("expected int, got " + TypeName(v));
        index = nb::steal(PyNumber_Index(v));
        if (!index.is_valid()) {
          PyErr_Clear();
          return Fail("expected int, got " + TypeName(v));
        }
        v = index.ptr();
      }
      int overflow = 0;
      long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow) return Fail("integer value is out of range");
      SetInt(out, x);
      return Status::OK();
    }
    case Kind::kFloat: {
      if (PyBool_Check(v) || IsNumpyBool(v)) return Fail("expected float, got " + TypeName(v));
      const bool integer = PyLong_Check(v) || (IsNumpyNumber(v) && PyIndex_Check(v));
      if (!PyFloat_Check(v) && !integer && !IsNumpyNumber(v)) return Fail("expected float, got " + TypeName(v));
      // float and numpy floats through __float__; ints (numpy ones through __index__) only when
      // the column's type holds them exactly, as pyarrow: 2**53 + 1 would read back as 2**53.
      nb::object index;
      if (integer && !PyLong_Check(v)) {
        index = nb::steal(PyNumber_Index(v));
        if (!index.is_valid()) throw nb::python_error();
        v = index.ptr();
      }
      const double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return Fail(integer ? "integer value is out of range for a float" : "expected float, got " + TypeName(v));
      }
      // FLOAT keeps the nearest float32; a finite value beyond its range would become inf.
      const double kept = c.single ? static_cast<double>(static_cast<float>(d)) : d;
      if (std::isinf(kept) && !std::isinf(d))
        return Fail("value " + std::string(nb::repr(nb::handle(v)).c_str()) + " is beyond the range of FLOAT");
      if (integer) {
        nb::object back = nb::steal(PyFloat_FromDouble(kept));
        const int same = back.is_valid() ? PyObject_RichCompareBool(back.ptr(), v, Py_EQ) : -1;
        if (same < 0) throw nb::python_error();
        if (!same)
          return Fail("integer " + std::string(nb::repr(nb::handle(v)).c_str()) + " is not exactly representable as " +
                      (c.single ? "FLOAT" : "DOUBLE"));
      }
      SetDouble(out, d);
      return Status::OK();
    }
    case Kind::kString: {
      if (!PyUnicode_Check(v)) return Fail("expected str, got " + TypeName(v));
      Py_ssize_t size;
      const char* s = PyUnicode_AsUTF8AndSize(v, &size);
      if (!s) {
        PyErr_Clear();
        return Fail("string is not valid UTF-8 (lone surrogate)");
      }
      SetUtf8(out, std::string_view(s, static_cast<size_t>(size)));
      return Status::OK();
    }
    case Kind::kBinary: {
      char* s;
      Py_ssize_t size;
      if (PyBytes_Check(v)) {
        PyBytes_AsStringAndSize(v, &s, &size);
      } else if (PyByteArray_Check(v)) {
        s = PyByteArray_AS_STRING(v);
        size = PyByteArray_GET_SIZE(v);
      } else {
        return Fail("expected bytes, got " + TypeName(v));
      }
      SetBytes(out, std::string_view(s, static_cast<size_t>(size)));
      return Status::OK();
    }
    case Kind::kDate:
      if (!PyDate_Check(v) || PyDateTime_Check(v)) return Fail("expected datetime.date, got " + TypeName(v));
      SetInt(out, DaysFromCivil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v), PyDateTime_GET_DAY(v)));
      return Status::OK();
    case Kind::kTime: {
      if (!PyTime_Check(v)) return Fail("expected datetime.time, got " + TypeName(v));
      // TIME has no time zone: an aware time would silently lose its offset.
      if (PyDateTime_TIME_GET_TZINFO(v) != Py_None)
        return Fail("a timezone-aware datetime.time cannot go into a TIME column (TIME has no time zone)");
      const int64_t secs = PyDateTime_TIME_GET_HOUR(v) * 3600LL + PyDateTime_TIME_GET_MINUTE(v) * 60LL +
                           PyDateTime_TIME_GET_SECOND(v);
      const int64_t us = PyDateTime_TIME_GET_MICROSECOND(v);
      const int64_t per = c.units_per_second;
      if (per < 1000000 && us % (1000000 / per) != 0)
        return Fail("time " + std::string(nb::str(nb::handle(v)).c_str()) +
                                       " has more precision than the column keeps");
      SetInt(out, secs * per + (per >= 1000000 ? us * (per / 1000000) : us / (1000000 / per)));
      return Status::OK();
    }
    case Kind::kTimestampNtz:
    case Kind::kTimestampLtz: {
      if (!PyDateTime_Check(v)) return Fail("expected datetime.datetime, got " + TypeName(v));
      // The UTC offset in microseconds: Python allows offsets with seconds and microseconds.
      int64_t offset_us = 0;
      PyObject* tz = PyDateTime_DATE_GET_TZINFO(v);
      if (tz != Py_None) {
        if (c.kind == Kind::kTimestampNtz)
          return Fail("a timezone-aware datetime cannot go into a timestamp column without time zone");
        nb::object off = nb::borrow(v).attr("utcoffset")();
        if (!off.is_none())
          offset_us = (nb::cast<int64_t>(off.attr("days")) * 86400 + nb::cast<int64_t>(off.attr("seconds"))) * 1000000 +
                      nb::cast<int64_t>(off.attr("microseconds"));
      }
      const int64_t days = DaysFromCivil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v), PyDateTime_GET_DAY(v));
      const int64_t local_us = (days * 86400 + PyDateTime_DATE_GET_HOUR(v) * 3600LL +
                                PyDateTime_DATE_GET_MINUTE(v) * 60LL + PyDateTime_DATE_GET_SECOND(v)) * 1000000 +
                               PyDateTime_DATE_GET_MICROSECOND(v);
      int64_t ns_extra = 0;
      if (PyObject_HasAttrString(v, "nanosecond"))
        ns_extra = nb::cast<int64_t>(nb::borrow(v).attr("nanosecond"));  // pandas.Timestamp
      // The instant in nanoseconds (|local_us| < 2^58: no overflow in 128 bits), then in the
      // column's units, exactly: a finer value is refused, not cut.
      const __int128 ns = static_cast<__int128>(local_us - offset_us) * 1000 + ns_extra;
      const int64_t ns_per_unit = 1000000000 / c.units_per_second;
      if (ns % ns_per_unit != 0) return Fail("datetime has more precision than the column keeps");
      const __int128 value = ns / ns_per_unit;
      if (!InPythonYears(value, c.units_per_second)) return Fail(kOutsidePythonYears);
      if (value > INT64_MAX || value < INT64_MIN) return Fail("datetime is out of range");
      SetInt(out, static_cast<int64_t>(value));
      return Status::OK();
    }
    case Kind::kDecimal: {
      // Exact conversion: digits of Decimal.as_tuple() at the column's scale; a value needing
      // more fractional digits than the scale is rejected rather than rounded.
      nb::handle h(v);
      static PyObject* decimal_type = [] {
        PyObject* mod = PyImport_ImportModule("decimal");
        PyObject* t = mod ? PyObject_GetAttrString(mod, "Decimal") : nullptr;
        Py_XDECREF(mod);
        return t;
      }();
      if (PyLong_Check(v) && !PyBool_Check(v)) {
        h = nb::borrow(decimal_type)(h).release();
        nb::object owned = nb::steal(h);
        return ConvertValue(c, owned.ptr(), out, at);  // owned stays alive: decimals hold no views
      }
      if (!decimal_type || !PyObject_IsInstance(v, decimal_type))
        return Fail("expected decimal.Decimal, got " + TypeName(v));
      nb::tuple t = nb::cast<nb::tuple>(h.attr("as_tuple")());
      nb::object exp_obj = t[2];
      if (!PyLong_Check(exp_obj.ptr())) return Fail("NaN or infinite decimal");
      const int sign = nb::cast<int>(t[0]);
      std::vector<int> ds;
      bool zero = true;
      for (auto d : nb::cast<nb::tuple>(t[1])) {
        ds.push_back(nb::cast<int>(d));
        zero = zero && ds.back() == 0;
      }
      if (zero) {  // 0, 0E-50, 0E+999999999: zero at any exponent
        *out = Value::Decimal(0, 0);
        return Status::OK();
      }
      // The exponent may be any Python int (Decimal('1E+999999999999')): decide the far ones
      // without a digit per power of ten. A nonzero digit times 10^(exp + scale) has more than
      // 38 digits once exp > 80; once exp + scale <= -len(digits), a nonzero digit lies
      // beyond the scale.
      auto text = [&] { return std::string(nb::str(h).c_str()); };
      int overflow = 0;
      long long exp = PyLong_AsLongLongAndOverflow(exp_obj.ptr(), &overflow);
      if (overflow > 0 || (!overflow && exp > 80)) return Fail("decimal value " + text() + " has more than 38 digits");
      if (overflow < 0 || exp + c.scale <= -static_cast<long long>(ds.size()))
        return Fail("value " + text() + " has more than " + std::to_string(c.scale) + " fractional digits");
      // Drop digits beyond the scale only when they are zeros.
      for (; exp < -c.scale; ++exp) {
        if (ds.empty() || ds.back() != 0)
          return Fail("value " + text() + " has more than " + std::to_string(c.scale) + " fractional digits");
        ds.pop_back();
      }
      for (; exp > -c.scale; --exp) ds.push_back(0);
      size_t first = 0;
      while (first < ds.size() && ds[first] == 0) ++first;
      // At most 38 digits (the largest DECIMAL precision) fit 128 bits; the core checks p.
      if (ds.size() - first > 38) return Fail("decimal value " + text() + " has more than 38 digits");
      __int128 acc = 0;
      for (size_t k = first; k < ds.size(); ++k) acc = acc * 10 + ds[k];
      if (sign) acc = -acc;
      *out = Value::Decimal(static_cast<int64_t>(acc >> 64), static_cast<uint64_t>(acc));
      return Status::OK();
    }
    case Kind::kArray: return ConvertArray(c, v, out, at);
    case Kind::kMap: return ConvertMap(c, v, out, at);
    case Kind::kRow: return ConvertRow(c, v, out, at);
  }
  return Status::Internal("unhandled column kind");
}

namespace {

/// str, bytes, bytearray, dict and set are iterable but are not an ARRAY's elements or a ROW's
/// fields by position.
bool IsPositional(PyObject* v) {
  if (PyList_Check(v) || PyTuple_Check(v)) return true;
  if (PyUnicode_Check(v) || PyBytes_Check(v) || PyByteArray_Check(v) || PyDict_Check(v) || PyAnySet_Check(v))
    return false;
  return PySequence_Check(v);  // e.g. a numpy array
}

}  // namespace

Status RowConverter::ConvertArray(const Column& c, PyObject* v, Value* out, const Path& at) {
  if (!IsPositional(v))
    return Status::InvalidArgument("column '" + at.str() + "': expected a list for an array, got " + TypeName(v));
  nb::object seq = nb::steal(PySequence_Fast(v, "an array"));
  if (!seq.is_valid()) {
    PyErr_Clear();
    return Status::InvalidArgument("column '" + at.str() + "': expected a list for an array, got " + TypeName(v));
  }
  const size_t n = static_cast<size_t>(PySequence_Fast_GET_SIZE(seq.ptr()));
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  Value* values = nested_.Allocate(n);
  for (size_t k = 0; k < n; ++k)
    FLUSS_RETURN_NOT_OK(ConvertValue(c.children[0], items[k], &values[k], Path{&at, nullptr, static_cast<int64_t>(k)}));
  if (seq.ptr() != v) keep_.push_back(std::move(seq));  // a copy the element Values may point into
  *out = Value::Array(values, n);
  return Status::OK();
}

Status RowConverter::ConvertMap(const Column& c, PyObject* v, Value* out, const Path& at) {
  // A dict (or another mapping) gives its items; otherwise a sequence of (key, value) pairs.
  nb::object pairs;
  if (PyDict_Check(v) || (PyMapping_Check(v) && PyObject_HasAttrString(v, "items"))) {
    pairs = nb::steal(PyMapping_Items(v));
    if (!pairs.is_valid()) throw nb::python_error();
  } else if (IsPositional(v)) {
    pairs = nb::steal(PySequence_Fast(v, "a map"));
    if (!pairs.is_valid()) throw nb::python_error();
  } else {
    return Status::InvalidArgument("column '" + at.str() + "': expected a dict or a list of (key, value) pairs for a map, got " +
                                   TypeName(v));
  }
  const size_t n = static_cast<size_t>(PySequence_Fast_GET_SIZE(pairs.ptr()));
  PyObject** items = PySequence_Fast_ITEMS(pairs.ptr());
  Value* values = nested_.Allocate(2 * n);
  for (size_t k = 0; k < n; ++k) {
    PyObject* pair = items[k];
    const auto entry = static_cast<int64_t>(k);
    if (!(PyTuple_Check(pair) || PyList_Check(pair)) || PySequence_Fast_GET_SIZE(pair) != 2)
      return Status::InvalidArgument("column '" + Path{&at, nullptr, entry}.str() +
                                     "': expected a (key, value) pair, got " + TypeName(pair));
    PyObject** kv = PySequence_Fast_ITEMS(pair);
    if (kv[0] == Py_None)
      return Status::InvalidArgument("column '" + Path{&at, nullptr, entry, ".key"}.str() + "': a map key must not be None");
    FLUSS_RETURN_NOT_OK(ConvertValue(c.children[0], kv[0], &values[2 * k], Path{&at, nullptr, entry, ".key"}));
    FLUSS_RETURN_NOT_OK(ConvertValue(c.children[1], kv[1], &values[2 * k + 1], Path{&at, nullptr, entry, ".value"}));
  }
  keep_.push_back(std::move(pairs));  // PyMapping_Items makes new tuples the Values may point into
  *out = Value::Map(values, n);
  return Status::OK();
}

Status RowConverter::ConvertRow(const Column& c, PyObject* v, Value* out, const Path& at) {
  const size_t n = c.children.size();
  Value* values = nested_.Allocate(n);
  if (PyDict_Check(v)) {
    Py_ssize_t found = 0;
    for (size_t k = 0; k < n; ++k) {
      PyObject* f = PyDict_GetItemWithError(v, c.children[k].py_name);
      if (!f) {
        if (PyErr_Occurred()) throw nb::python_error();
        continue;  // a missing field is null (a NOT NULL field then fails in the core check)
      }
      ++found;
      FLUSS_RETURN_NOT_OK(ConvertValue(c.children[k], f, &values[k], Path{&at, &c.children[k].name}));
    }
    if (found != PyDict_Size(v)) {
      PyObject *key, *value;
      Py_ssize_t pos = 0;
      while (PyDict_Next(v, &pos, &key, &value)) {
        bool known = false;
        if (PyUnicode_Check(key))
          for (const auto& f : c.children)
            if (PyUnicode_Compare(key, f.py_name) == 0) { known = true; break; }
        if (!known) {
          nb::str r = nb::repr(nb::handle(key));
          return Status::InvalidArgument("column '" + at.str() + "': " + std::string(r.c_str()) +
                                         " is not a field of the row");
        }
      }
    }
  } else if (PyList_Check(v) || PyTuple_Check(v)) {
    const size_t len = static_cast<size_t>(PySequence_Fast_GET_SIZE(v));
    if (len != n)
      return Status::InvalidArgument("column '" + at.str() + "': a row of " + std::to_string(len) + " value(s) for " +
                                     std::to_string(n) + " field(s)");
    PyObject** items = PySequence_Fast_ITEMS(v);
    for (size_t k = 0; k < n; ++k)
      FLUSS_RETURN_NOT_OK(ConvertValue(c.children[k], items[k], &values[k], Path{&at, &c.children[k].name}));
  } else {
    return Status::InvalidArgument("column '" + at.str() + "': expected a dict or a list/tuple for a row, got " +
                                   TypeName(v));
  }
  *out = Value::Row(values, n);
  return Status::OK();
}

}  // namespace fluss::py
