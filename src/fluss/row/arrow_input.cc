#include "fluss/row/arrow_input.h"

#include <vector>

#include <arrow/array.h>
#include <arrow/type.h>

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

/// Nulls of `values` at the positions a valid parent covers: `parent_valid(i)` says whether
/// position i counts.
template <typename Valid>
int64_t CountedNulls(const arrow::Array& values, Valid&& parent_valid) {
  if (values.null_count() == 0) return 0;
  int64_t n = 0;
  for (int64_t i = 0; i < values.length(); ++i) n += values.IsNull(i) && parent_valid(i);
  return n;
}

/// Checks that no NOT NULL level below `a` (of table type `want`) holds a null. `path` names
/// `a` ("tags", "tags[]", "address.zip").
Status CheckNestedNulls(const arrow::DataType& want, const arrow::Array& a, const std::string& path) {
  auto fail = [&](const std::string& where, int64_t n) {
    return Status::InvalidArgument("column '" + where + "' is NOT NULL but has " + std::to_string(n) +
                                   (n == 1 ? " null" : " nulls"));
  };
  switch (want.id()) {
    case arrow::Type::LIST:
    case arrow::Type::MAP: {
      // The child values a valid list or map covers: its offsets' range (a sliced or null
      // list may leave other child values behind; they are not written).
      const auto& list = static_cast<const arrow::ListArray&>(a);
      std::vector<bool> in_range;
      auto covered = [&](int64_t i) {
        if (in_range.empty()) {
          in_range.assign(static_cast<size_t>(list.values()->length()), false);
          for (int64_t r = 0; r < list.length(); ++r)
            if (list.IsValid(r))
              for (int64_t k = list.value_offset(r); k < list.value_offset(r + 1); ++k) in_range[static_cast<size_t>(k)] = true;
        }
        return static_cast<bool>(in_range[static_cast<size_t>(i)]);
      };
      if (want.id() == arrow::Type::LIST) {
        const auto& item = static_cast<const arrow::ListType&>(want).value_field();
        const std::string where = path + "[]";
        if (!item->nullable()) {
          if (const int64_t n = CountedNulls(*list.values(), covered)) return fail(where, n);
        }
        return CheckNestedNulls(*item->type(), *list.values(), where);
      }
      const auto& map_type = static_cast<const arrow::MapType&>(want);
      const auto& map = static_cast<const arrow::MapArray&>(a);
      if (const int64_t n = CountedNulls(*map.keys(), covered)) return fail(path + ".key", n);
      FLUSS_RETURN_NOT_OK(CheckNestedNulls(*map_type.key_type(), *map.keys(), path + ".key"));
      if (!map_type.item_field()->nullable()) {
        if (const int64_t n = CountedNulls(*map.items(), covered)) return fail(path + ".value", n);
      }
      return CheckNestedNulls(*map_type.item_type(), *map.items(), path + ".value");
    }
    case arrow::Type::STRUCT: {
      const auto& st = static_cast<const arrow::StructArray&>(a);
      for (int i = 0; i < want.num_fields(); ++i) {
        const auto& f = want.field(i);
        const std::string where = path + "." + f->name();
        auto child = st.field(i);  // adjusted to the struct's offset
        if (!f->nullable()) {
          if (const int64_t n = CountedNulls(*child, [&](int64_t r) { return st.IsValid(r); })) return fail(where, n);
        }
        FLUSS_RETURN_NOT_OK(CheckNestedNulls(*f->type(), *child, where));
      }
      return Status::OK();
    }
    default:
      return Status::OK();
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
  if (!want.nullable() && got->null_count() > 0)
    return Status::InvalidArgument("column '" + want.name() + "' is NOT NULL but has " +
                                   std::to_string(got->null_count()) + (got->null_count() == 1 ? " null" : " nulls"));
  if (!IsNestedId(want.type()->id())) return got;
  FLUSS_RETURN_NOT_OK(CheckNestedNulls(*want.type(), *got, want.name()));
  return arrow::MakeArray(Relabel(got->data(), want.type()));
}

}  // namespace fluss::row
