#include "fluss/row/arrow_input.h"

#include <algorithm>
#include <optional>
#include <string_view>
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

/// Every map of `map` has distinct keys (Java's maps are keyed; its readers keep one entry of
/// a repeated key). `path` names the column.
Status CheckDistinctKeys(const arrow::MapArray& map, const std::string& path) {
  const auto& keys = *map.keys();
  std::vector<std::string_view> seen;
  for (int64_t r = 0; r < map.length(); ++r) {
    if (map.IsNull(r) || map.value_length(r) < 2) continue;
    seen.clear();
    for (int64_t k = map.value_offset(r); k < map.value_offset(r + 1); ++k) {
      auto v = KeyView(keys, k);
      if (!v) return Status::OK();
      seen.push_back(*v);
    }
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
      return Status::InvalidArgument("column '" + path + "': the map of row " + std::to_string(r) +
                                     " has a repeated key");
  }
  return Status::OK();
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
      FLUSS_RETURN_NOT_OK(CheckDistinctKeys(map, path));
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
