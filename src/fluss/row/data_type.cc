#include "fluss/row/data_type.h"

#include <charconv>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

namespace fluss::row {

bool DataType::compact() const {
  if (root == TypeRoot::kDecimal) return precision <= 18;
  if (root == TypeRoot::kTimestamp || root == TypeRoot::kTimestampLtz) return precision <= 3;
  return false;
}

bool DataType::is_binary_like() const {
  return root == TypeRoot::kString || root == TypeRoot::kChar || root == TypeRoot::kBytes ||
         root == TypeRoot::kBinary;
}

bool DataType::large() const {
  return arrow_type_id == arrow::Type::LARGE_STRING || arrow_type_id == arrow::Type::LARGE_BINARY;
}

bool DataType::is_nested() const {
  return root == TypeRoot::kArray || root == TypeRoot::kMap || root == TypeRoot::kRow;
}

bool DataType::SameFlussType(const DataType& o) const {
  if (root != o.root || nullable != o.nullable || length != o.length || precision != o.precision ||
      scale != o.scale || children.size() != o.children.size())
    return false;
  for (size_t i = 0; i < children.size(); ++i) {
    if (root == TypeRoot::kRow && children[i].name != o.children[i].name) return false;
    if (!children[i].type.SameFlussType(o.children[i].type)) return false;
  }
  return true;
}

std::string DataType::ToString() const {
  std::string s;
  const std::string p = '(' + std::to_string(precision) + ')';
  switch (root) {
    case TypeRoot::kBoolean: s = "BOOLEAN"; break;
    case TypeRoot::kTinyInt: s = "TINYINT"; break;
    case TypeRoot::kSmallInt: s = "SMALLINT"; break;
    case TypeRoot::kInt: s = "INT"; break;
    case TypeRoot::kBigInt: s = "BIGINT"; break;
    case TypeRoot::kFloat: s = "FLOAT"; break;
    case TypeRoot::kDouble: s = "DOUBLE"; break;
    case TypeRoot::kChar: s = "CHAR(" + std::to_string(length) + ")"; break;
    case TypeRoot::kString: s = "STRING"; break;
    case TypeRoot::kBinary: s = "BINARY(" + std::to_string(length) + ")"; break;
    case TypeRoot::kBytes: s = "BYTES"; break;
    case TypeRoot::kDecimal:
      s = "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
      break;
    case TypeRoot::kDate: s = "DATE"; break;
    case TypeRoot::kTime: s = "TIME" + p; break;
    case TypeRoot::kTimestamp: s = "TIMESTAMP" + p; break;
    case TypeRoot::kTimestampLtz: s = "TIMESTAMP_LTZ" + p; break;
    case TypeRoot::kArray: s = "ARRAY<" + children[0].type.ToString() + ">"; break;
    case TypeRoot::kMap:
      s = "MAP<" + children[0].type.ToString() + ", " + children[1].type.ToString() + ">";
      break;
    case TypeRoot::kRow:
      s = "ROW<";
      for (size_t i = 0; i < children.size(); ++i)
        s += (i ? ", " : "") + children[i].name + " " + children[i].type.ToString();
      s += ">";
      break;
  }
  if (!nullable) s += " NOT NULL";
  return s;
}

const char* JsonTypeName(TypeRoot root) {
  switch (root) {
    case TypeRoot::kBoolean: return "BOOLEAN";
    case TypeRoot::kTinyInt: return "TINYINT";
    case TypeRoot::kSmallInt: return "SMALLINT";
    case TypeRoot::kInt: return "INTEGER";
    case TypeRoot::kBigInt: return "BIGINT";
    case TypeRoot::kFloat: return "FLOAT";
    case TypeRoot::kDouble: return "DOUBLE";
    case TypeRoot::kChar: return "CHAR";
    case TypeRoot::kString: return "STRING";
    case TypeRoot::kBinary: return "BINARY";
    case TypeRoot::kBytes: return "BYTES";
    case TypeRoot::kDecimal: return "DECIMAL";
    case TypeRoot::kDate: return "DATE";
    case TypeRoot::kTime: return "TIME_WITHOUT_TIME_ZONE";
    case TypeRoot::kTimestamp: return "TIMESTAMP_WITHOUT_TIME_ZONE";
    case TypeRoot::kTimestampLtz: return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    case TypeRoot::kArray: return "ARRAY";
    case TypeRoot::kMap: return "MAP";
    case TypeRoot::kRow: return "ROW";
  }
  return "?";
}

std::optional<TypeRoot> TypeRootOfJsonName(std::string_view name) {
  for (int r = 0; r <= static_cast<int>(TypeRoot::kRow); ++r) {
    const auto root = static_cast<TypeRoot>(r);
    if (name == JsonTypeName(root)) return root;
  }
  return std::nullopt;
}

int32_t PrecisionOfUnit(int unit) {
  switch (static_cast<arrow::TimeUnit::type>(unit)) {
    case arrow::TimeUnit::SECOND: return 0;
    case arrow::TimeUnit::MILLI: return 3;
    case arrow::TimeUnit::MICRO: return 6;
    case arrow::TimeUnit::NANO: return 9;
  }
  return 6;
}

int UnitOfPrecision(int32_t precision) {
  if (precision <= 0) return arrow::TimeUnit::SECOND;
  if (precision <= 3) return arrow::TimeUnit::MILLI;
  if (precision <= 6) return arrow::TimeUnit::MICRO;
  return arrow::TimeUnit::NANO;
}

namespace {

/// DataTypeOf of a nested field: `path` names it in errors ("address.zip", "tags[]").
Result<DataType> DataTypeAt(const arrow::Field& field, const std::string& path);

/// The child `name` of a nested type at `path`, as a ColumnType named `name`.
Result<ColumnType> ChildAt(const arrow::Field& field, const std::string& name, const std::string& path) {
  FLUSS_ASSIGN_OR_RETURN(DataType t, DataTypeAt(field, path));
  return ColumnType{name, std::move(t)};
}

/// A positive decimal integer metadata value, or -1.
int32_t MetadataInt(const std::string& text) {
  int32_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < 0) return -1;
  return v;
}

/// Applies kPrecisionMetadataKey of a time or timestamp `field` to `t`.
Status ApplyPrecision(const arrow::Field& field, const std::string& path, DataType* t) {
  if (!field.metadata()) return Status::OK();
  auto p = field.metadata()->Get(kPrecisionMetadataKey);
  if (!p.ok()) return Status::OK();
  const int32_t precision = MetadataInt(*p);
  if (precision < 0 || precision > 9 || UnitOfPrecision(precision) != t->unit)
    return Status::InvalidArgument("column '" + path + "': " + kPrecisionMetadataKey + " '" + *p +
                                   "' does not fit the field's unit (0 for s, 1..3 ms, 4..6 us, 7..9 ns)");
  t->precision = precision;
  return Status::OK();
}

Result<DataType> DataTypeAt(const arrow::Field& field, const std::string& path) {
  const arrow::DataType& type = *field.type();
  if (field.metadata()) {
    const auto id = type.id();
    const bool stringy = id == arrow::Type::STRING || id == arrow::Type::LARGE_STRING;
    const bool temporal = id == arrow::Type::TIME32 || id == arrow::Type::TIME64 || id == arrow::Type::TIMESTAMP;
    if (field.metadata()->Contains(kCharLengthMetadataKey) && !stringy)
      return Status::InvalidArgument("column '" + path + "': " + kCharLengthMetadataKey + " applies to string fields, not " +
                                     type.ToString());
    if (field.metadata()->Contains(kPrecisionMetadataKey) && !temporal)
      return Status::InvalidArgument("column '" + path + "': " + kPrecisionMetadataKey +
                                     " applies to time and timestamp fields, not " + type.ToString());
  }
  DataType t;
  t.nullable = field.nullable();
  t.arrow_type_id = type.id();
  switch (type.id()) {
    case arrow::Type::BOOL: t.root = TypeRoot::kBoolean; break;
    case arrow::Type::INT8: t.root = TypeRoot::kTinyInt; break;
    case arrow::Type::INT16: t.root = TypeRoot::kSmallInt; break;
    case arrow::Type::INT32: t.root = TypeRoot::kInt; break;
    case arrow::Type::INT64: t.root = TypeRoot::kBigInt; break;
    case arrow::Type::FLOAT: t.root = TypeRoot::kFloat; break;
    case arrow::Type::DOUBLE: t.root = TypeRoot::kDouble; break;
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: {
      t.root = TypeRoot::kString;
      if (!field.metadata()) break;
      auto n = field.metadata()->Get(kCharLengthMetadataKey);
      if (!n.ok()) break;
      const int32_t len = MetadataInt(*n);
      if (len <= 0)
        return Status::InvalidArgument("column '" + path + "': bad " + kCharLengthMetadataKey + " '" + *n +
                                       "' (a positive length in bytes)");
      t.root = TypeRoot::kChar;
      t.length = len;
      break;
    }
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: t.root = TypeRoot::kBytes; break;
    case arrow::Type::FIXED_SIZE_BINARY:
      t.root = TypeRoot::kBinary;
      t.length = static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width();
      if (t.length <= 0) return Status::InvalidArgument("column '" + path + "': BINARY(n) needs n >= 1");
      break;
    case arrow::Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::Decimal128Type&>(type);
      t.root = TypeRoot::kDecimal;
      t.precision = d.precision();
      t.scale = d.scale();
      break;
    }
    case arrow::Type::DATE32: t.root = TypeRoot::kDate; break;
    case arrow::Type::TIME32:
    case arrow::Type::TIME64:
      t.root = TypeRoot::kTime;
      t.unit = static_cast<const arrow::TimeType&>(type).unit();
      t.precision = PrecisionOfUnit(t.unit);
      FLUSS_RETURN_NOT_OK(ApplyPrecision(field, path, &t));
      break;
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      t.root = ts.timezone().empty() ? TypeRoot::kTimestamp : TypeRoot::kTimestampLtz;
      t.unit = ts.unit();
      t.precision = PrecisionOfUnit(t.unit);
      FLUSS_RETURN_NOT_OK(ApplyPrecision(field, path, &t));
      break;
    }
    case arrow::Type::LIST: {
      t.root = TypeRoot::kArray;
      const auto& list = static_cast<const arrow::ListType&>(type);
      FLUSS_ASSIGN_OR_RETURN(auto element, ChildAt(*list.value_field(), "item", path + "[]"));
      t.children.push_back(std::move(element));
      break;
    }
    case arrow::Type::MAP: {
      t.root = TypeRoot::kMap;
      const auto& map = static_cast<const arrow::MapType&>(type);
      FLUSS_ASSIGN_OR_RETURN(auto key, ChildAt(*map.key_field(), "key", path + ".key"));
      key.type.nullable = false;  // Fluss map keys are NOT NULL (Schema normalisation)
      FLUSS_ASSIGN_OR_RETURN(auto value, ChildAt(*map.item_field(), "value", path + ".value"));
      t.children.push_back(std::move(key));
      t.children.push_back(std::move(value));
      break;
    }
    case arrow::Type::STRUCT: {
      t.root = TypeRoot::kRow;
      if (type.num_fields() == 0) return Status::InvalidArgument("column '" + path + "': a struct needs at least one field");
      for (const auto& f : type.fields()) {
        FLUSS_ASSIGN_OR_RETURN(auto child, ChildAt(*f, f->name(), path + "." + f->name()));
        for (const auto& seen : t.children)
          if (seen.name == f->name())
            return Status::InvalidArgument("column '" + path + "': struct field name '" + f->name() + "' repeats");
        t.children.push_back(std::move(child));
      }
      break;
    }
    default:
      return Status::InvalidArgument("column '" + path + "': Arrow type " + type.ToString() +
                                     " has no Fluss equivalent");
  }
  return t;
}

}  // namespace

Result<DataType> DataTypeOf(const arrow::Field& field) { return DataTypeAt(field, field.name()); }

Result<std::vector<DataType>> DataTypesOf(const arrow::Schema& schema) {
  std::vector<DataType> out;
  out.reserve(static_cast<size_t>(schema.num_fields()));
  for (const auto& f : schema.fields()) {
    FLUSS_ASSIGN_OR_RETURN(DataType t, DataTypeOf(*f));
    out.push_back(t);
  }
  return out;
}

std::shared_ptr<arrow::DataType> ArrowTypeOf(const DataType& t) {
  const auto unit = static_cast<arrow::TimeUnit::type>(UnitOfPrecision(t.precision));
  switch (t.root) {
    case TypeRoot::kBoolean: return arrow::boolean();
    case TypeRoot::kTinyInt: return arrow::int8();
    case TypeRoot::kSmallInt: return arrow::int16();
    case TypeRoot::kInt: return arrow::int32();
    case TypeRoot::kBigInt: return arrow::int64();
    case TypeRoot::kFloat: return arrow::float32();
    case TypeRoot::kDouble: return arrow::float64();
    case TypeRoot::kChar:
    case TypeRoot::kString: return t.large() ? arrow::large_utf8() : arrow::utf8();
    case TypeRoot::kBytes: return t.large() ? arrow::large_binary() : arrow::binary();
    case TypeRoot::kBinary: return arrow::fixed_size_binary(t.length);
    case TypeRoot::kDecimal: return arrow::decimal128(t.precision, t.scale);
    case TypeRoot::kDate: return arrow::date32();
    case TypeRoot::kTime:
      if (unit == arrow::TimeUnit::SECOND || unit == arrow::TimeUnit::MILLI) return arrow::time32(unit);
      return arrow::time64(unit);
    case TypeRoot::kTimestamp: return arrow::timestamp(unit);
    case TypeRoot::kTimestampLtz: return arrow::timestamp(unit, "UTC");
    case TypeRoot::kArray: return arrow::list(ArrowFieldOf("item", t.children[0].type));
    case TypeRoot::kMap:
      return std::make_shared<arrow::MapType>(ArrowFieldOf("key", t.children[0].type),
                                              ArrowFieldOf("value", t.children[1].type));
    case TypeRoot::kRow: {
      arrow::FieldVector fields;
      for (const auto& c : t.children) fields.push_back(ArrowFieldOf(c.name, c.type));
      return arrow::struct_(std::move(fields));
    }
  }
  return arrow::null();
}

std::shared_ptr<arrow::Field> ArrowFieldOf(const std::string& name, const DataType& t) {
  std::shared_ptr<arrow::KeyValueMetadata> md;
  if (t.root == TypeRoot::kChar)
    md = arrow::key_value_metadata({kCharLengthMetadataKey}, {std::to_string(t.length)});
  const bool temporal = t.root == TypeRoot::kTime || t.root == TypeRoot::kTimestamp || t.root == TypeRoot::kTimestampLtz;
  if (temporal && t.precision != PrecisionOfUnit(UnitOfPrecision(t.precision)))
    md = arrow::key_value_metadata({kPrecisionMetadataKey}, {std::to_string(t.precision)});
  // A map key is NOT NULL in Arrow too (arrow::MapType requires it).
  return arrow::field(name, ArrowTypeOf(t), t.nullable, md);
}

}  // namespace fluss::row
