#include "fluss/row/arrow_input.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include <arrow/array.h>
#include <arrow/type.h>

#include "fluss/row/data_type.h"
#include "fluss/row/datum.h"
#include "fluss/row/temporal.h"
#include "fluss/row/value_kinds.h"

namespace fluss::row {

namespace {

bool IsNestedId(arrow::Type::type id) {
  return id == arrow::Type::LIST || id == arrow::Type::MAP || id == arrow::Type::STRUCT;
}

/// Same layout at every level; child names (but not struct field names) and child nullability
/// may differ.
bool SameLayout(const arrow::DataType& a, const arrow::DataType& b) {
  if (a.id() != b.id()) return false;
  if (!IsNestedId(a.id())) return a.Equals(b);
  if (a.num_fields() != b.num_fields()) return false;
  for (int i = 0; i < a.num_fields(); ++i) {
    if (a.id() == arrow::Type::STRUCT && a.field(i)->name() != b.field(i)->name()) return false;
    if (!SameLayout(*a.field(i)->type(), *b.field(i)->type())) return false;
  }
  return true;
}

/// The bytes key `i` of `keys` compares by; nullopt for a nested key type.
std::optional<std::string_view> KeyView(const arrow::Array& keys, int64_t i) {
  switch (keys.type_id()) {
    case arrow::Type::STRING:
    case arrow::Type::BINARY: return static_cast<const arrow::BinaryArray&>(keys).GetView(i);
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY: return static_cast<const arrow::LargeBinaryArray&>(keys).GetView(i);
    case arrow::Type::FIXED_SIZE_BINARY:
    case arrow::Type::DECIMAL128: return static_cast<const arrow::FixedSizeBinaryArray&>(keys).GetView(i);
    case arrow::Type::BOOL:
      return static_cast<const arrow::BooleanArray&>(keys).Value(i) ? std::string_view("\1", 1) : std::string_view("\0", 1);
    default: {
      const auto* fixed = dynamic_cast<const arrow::FixedWidthType*>(keys.type().get());
      if (!fixed || keys.type()->num_fields() > 0) return std::nullopt;
      const int64_t width = fixed->bit_width() / 8;
      const uint8_t* values = keys.data()->buffers[1]->data();
      return std::string_view(reinterpret_cast<const char*>(values + (keys.offset() + i) * width),
                              static_cast<size_t>(width));
    }
  }
}

/// Every written map of `map` (`written`: its positions that are written) has distinct keys
/// (Java's maps are keyed; its readers keep one entry of a repeated key). `path` names the
/// column.
Status CheckDistinctKeys(const arrow::MapArray& map, const std::vector<uint8_t>& written, const std::string& path) {
  const auto& keys = *map.keys();
  std::vector<std::string_view> seen;
  for (int64_t r = 0; r < map.length(); ++r) {
    if (!written[static_cast<size_t>(r)] || map.value_length(r) < 2) continue;
    seen.clear();
    for (int64_t k = map.value_offset(r); k < map.value_offset(r + 1); ++k) {
      auto v = KeyView(keys, k);
      if (!v) return Status::OK();
      seen.push_back(*v);
    }
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
      return Status::InvalidArgument("column '" + path + "': the map at position " + std::to_string(r) +
                                     " has a repeated key");
  }
  return Status::OK();
}

/// Positions of an array that are written: 1 where the value is valid and every enclosing
/// level holds it (a null list or struct, or a sliced-off part, hides its children's values).
using Coverage = std::vector<uint8_t>;

Status Fail(const std::string& path, const std::string& what) {
  return Status::InvalidArgument("column '" + path + "': " + what);
}

/// TIME, TIMESTAMP and TIMESTAMP_LTZ: types whose Arrow values may lie outside the Fluss type.
bool IsTemporal(const DataType& t) {
  return t.root == TypeRoot::kTime || t.root == TypeRoot::kTimestamp || t.root == TypeRoot::kTimestampLtz;
}

/// The leaf checks of a written value: CHAR(n) length and no trailing U+0000; TIME within the
/// day, TIMESTAMP within the millisecond range, both with their fractions (FractionStep).
/// Other types carry no constraint Arrow does not already enforce.
Status CheckLeaves(const DataType& t, const arrow::Array& a, const Coverage& written, const std::string& path) {
  if (t.root == TypeRoot::kChar) {
    for (int64_t i = 0; i < a.length(); ++i) {
      if (!written[static_cast<size_t>(i)]) continue;
      const std::string_view view = a.type_id() == arrow::Type::STRING
                                        ? static_cast<const arrow::StringArray&>(a).GetView(i)
                                        : static_cast<const arrow::LargeStringArray&>(a).GetView(i);
      const size_t n = view.size();
      if (n > static_cast<size_t>(t.length))
        return Fail(path, "(" + t.ToString() + ") value has " + std::to_string(n) + " bytes, more than " +
                              std::to_string(t.length) + " (row " + std::to_string(i) + ")");
      if (n > 0 && view.back() == '\0')
        return Fail(path, "(" + t.ToString() + ") " + kCharEndsInNul + " (row " + std::to_string(i) + ")");
    }
    return Status::OK();
  }
  if (!IsTemporal(t)) return Status::OK();
  const int64_t step = FractionStep(t);
  const int64_t day = t.root == TypeRoot::kTime ? UnitsPerDay(static_cast<arrow::TimeUnit::type>(t.unit)) : 0;
  for (int64_t i = 0; i < a.length(); ++i) {
    if (!written[static_cast<size_t>(i)]) continue;
    const int64_t v = a.type_id() == arrow::Type::TIME32 ? static_cast<const arrow::Time32Array&>(a).Value(i)
                      : a.type_id() == arrow::Type::TIME64 ? static_cast<const arrow::Time64Array&>(a).Value(i)
                                                           : static_cast<const arrow::TimestampArray&>(a).Value(i);
    // Fluss keeps a TIME as milliseconds of one day and a TIMESTAMP as epoch milliseconds (plus
    // nanoseconds): an Arrow value outside them is refused here, as the row path refuses it,
    // whatever the log format (an ARROW batch would carry it to readers that cannot read it).
    if (t.root == TypeRoot::kTime && (v < 0 || v >= day))
      return Fail(path, "(" + t.ToString() + ") value " + std::to_string(v) + " is out of range [0, " +
                            std::to_string(day - 1) + "] (row " + std::to_string(i) + ")");
    int64_t millis = 0;
    int32_t nanos = 0;
    if (t.root != TypeRoot::kTime && !TimestampToMillis(v, t.unit, &millis, &nanos))
      return Fail(path, "(" + t.ToString() + ") value " + std::to_string(v) + " is out of the millisecond range (row " +
                            std::to_string(i) + ")");
    if (v % step != 0) return Fail(path, "(" + t.ToString() + ") " + FractionMessage(t, v));
  }
  return Status::OK();
}

/// The coverage of the child values of list or map `list` whose rows are covered by `rows`.
Coverage ChildCoverage(const arrow::ListArray& list, const Coverage& rows) {
  Coverage out(static_cast<size_t>(list.values()->length()), 0);
  for (int64_t r = 0; r < list.length(); ++r)
    if (rows[static_cast<size_t>(r)])
      for (int64_t k = list.value_offset(r); k < list.value_offset(r + 1); ++k) out[static_cast<size_t>(k)] = 1;
  return out;
}

/// Checks the values of `a` (the column or nested field `want`, at `path`) at the positions
/// `covered` says its enclosing levels write: no null where `want` is NOT NULL, then the leaf
/// constraints, distinct map keys, and the same for every nested level below.
Status CheckValues(const arrow::Field& want, const arrow::Array& a, Coverage covered, const std::string& path) {
  int64_t nulls = 0;
  for (int64_t i = 0; i < a.length() && a.null_count() > 0; ++i) {
    if (!covered[static_cast<size_t>(i)] || a.IsValid(i)) continue;
    ++nulls;
    covered[static_cast<size_t>(i)] = 0;  // a null hides its children
  }
  if (nulls > 0 && !want.nullable())
    return Status::InvalidArgument("column '" + path + "' is NOT NULL but has " + std::to_string(nulls) +
                                   (nulls == 1 ? " null" : " nulls"));
  FLUSS_ASSIGN_OR_RETURN(DataType t, DataTypeOf(want));
  switch (want.type()->id()) {
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(a);
      const auto& item = static_cast<const arrow::ListType&>(*want.type()).value_field();
      return CheckValues(*item, *list.values(), ChildCoverage(list, covered), path + "[]");
    }
    case arrow::Type::MAP: {
      const auto& map_type = static_cast<const arrow::MapType&>(*want.type());
      const auto& map = static_cast<const arrow::MapArray&>(a);
      FLUSS_RETURN_NOT_OK(CheckDistinctKeys(map, covered, path));
      Coverage entries = ChildCoverage(map, covered);
      FLUSS_RETURN_NOT_OK(CheckValues(*map_type.key_field(), *map.keys(), entries, path + ".key"));
      return CheckValues(*map_type.item_field(), *map.items(), std::move(entries), path + ".value");
    }
    case arrow::Type::STRUCT: {
      const auto& st = static_cast<const arrow::StructArray&>(a);
      for (int i = 0; i < want.type()->num_fields(); ++i) {
        const auto& f = want.type()->field(i);
        // field(i) is the child adjusted to the struct's offset: the same positions
        FLUSS_RETURN_NOT_OK(CheckValues(*f, *st.field(i), covered, path + "." + f->name()));
      }
      return Status::OK();
    }
    default:
      return CheckLeaves(t, a, covered, path);
  }
}

/// `data` with the types of `want` at every level (same layout, checked).
std::shared_ptr<arrow::ArrayData> Relabel(const std::shared_ptr<arrow::ArrayData>& data,
                                          const std::shared_ptr<arrow::DataType>& want) {
  auto out = data->Copy();
  out->type = want;
  for (int i = 0; i < want->num_fields() && i < static_cast<int>(out->child_data.size()); ++i)
    out->child_data[static_cast<size_t>(i)] = Relabel(out->child_data[static_cast<size_t>(i)], want->field(i)->type());
  return out;
}

}  // namespace

Result<std::shared_ptr<arrow::Array>> ConformArrowColumn(const arrow::Field& want, const std::shared_ptr<arrow::Array>& got) {
  if (!SameLayout(*got->type(), *want.type()))
    return Status::InvalidArgument("column '" + want.name() + "' has type " + got->type()->ToString() +
                                   " but the table's type is " + want.type()->ToString());
  FLUSS_ASSIGN_OR_RETURN(DataType t, DataTypeOf(want));
  if (!t.is_nested() && t.root != TypeRoot::kChar && !IsTemporal(t)) {
    // The common case, without a per-value walk: only nulls can fail.
    if (!want.nullable() && got->null_count() > 0)
      return Status::InvalidArgument("column '" + want.name() + "' is NOT NULL but has " +
                                     std::to_string(got->null_count()) + (got->null_count() == 1 ? " null" : " nulls"));
    return got;
  }
  FLUSS_RETURN_NOT_OK(CheckValues(want, *got, Coverage(static_cast<size_t>(got->length()), 1), want.name()));
  if (!t.is_nested()) return got;
  return arrow::MakeArray(Relabel(got->data(), want.type()));
}

}  // namespace fluss::row
