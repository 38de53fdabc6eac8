#include "fluss/metadata/table_json.h"

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include <limits>
#include <set>

#include "fluss/row/data_type.h"

namespace fluss::metadata {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

using row::TypeRoot;

namespace {

/// The DataType JSON of `t` (protocol-rpc.md 7.3). Nested ROW fields get ids ++*highest, depth
/// first in pre-order, as Java's ReassignFieldId numbers them.
ojson TypeJson(const row::DataType& t, int32_t* highest) {
  ojson j;
  j["type"] = row::JsonTypeName(t.root);
  // Java's DataTypeJsonSerde writes "nullable" right after "type", before length/precision.
  if (!t.nullable) j["nullable"] = false;
  switch (t.root) {
    case TypeRoot::kChar:
    case TypeRoot::kBinary:
      j["length"] = t.length;
      break;
    case TypeRoot::kDecimal:
      j["precision"] = t.precision;
      j["scale"] = t.scale;
      break;
    case TypeRoot::kTime:
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      j["precision"] = t.precision;
      break;
    case TypeRoot::kArray:
      j["element_type"] = TypeJson(t.children[0].type, highest);
      break;
    case TypeRoot::kMap:
      j["key_type"] = TypeJson(t.children[0].type, highest);
      j["value_type"] = TypeJson(t.children[1].type, highest);
      break;
    case TypeRoot::kRow: {
      ojson fields = ojson::array();
      for (const auto& c : t.children) {
        ojson f;
        f["name"] = c.name;
        const int32_t id = ++*highest;
        f["field_type"] = TypeJson(c.type, highest);
        f["field_id"] = id;
        fields.push_back(std::move(f));
      }
      j["fields"] = std::move(fields);
      break;
    }
    default:
      break;
  }
  return j;
}

/// Types nested deeper than this in server JSON are refused rather than followed: the decoders
/// recurse once per level, and no real schema comes near it.
constexpr int kMaxTypeDepth = 64;

/// Refuses lengths, precisions and scales outside Fluss's ranges (Java's DataType constructors:
/// CHAR/BINARY length >= 1, DECIMAL precision 1..38 and scale 0..precision, TIME/TIMESTAMP
/// precision 0..9), which Arrow's type constructors would otherwise abort on.
Status CheckTypeParameters(const std::string& name, const row::DataType& type) {
  auto bad = [&](const std::string& what) { return Status::Protocol(name + " data_type with " + what); };
  switch (type.root) {
    case TypeRoot::kChar:
    case TypeRoot::kBinary:
      if (type.length < 1) return bad("length " + std::to_string(type.length));
      break;
    case TypeRoot::kDecimal:
      if (type.precision < 1 || type.precision > 38 || type.scale < 0 || type.scale > type.precision)
        return bad("precision " + std::to_string(type.precision) + " and scale " + std::to_string(type.scale));
      break;
    case TypeRoot::kTime:
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      if (type.precision < 0 || type.precision > 9) return bad("precision " + std::to_string(type.precision));
      break;
    default:
      break;
  }
  return Status::OK();
}

/// The member `key` of the object `j` as an int32, or `fallback` when `j` has no such member. A
/// member that is not an integer in int32 range is malformed: nlohmann's get<int32_t> converts
/// an out-of-range double with undefined behaviour and truncates a wider integer.
Result<int32_t> Int32Member(const json& j, const char* key, int32_t fallback) {
  if (!j.contains(key)) return fallback;
  const json& v = j[key];
  // A non-negative JSON integer may only fit uint64 (past int64's range): test it as such.
  const bool fits = v.is_number_unsigned()
                        ? v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())
                        : v.is_number_integer() && v.get<int64_t>() >= std::numeric_limits<int32_t>::min() &&
                              v.get<int64_t>() <= std::numeric_limits<int32_t>::max();
  if (fits) return static_cast<int32_t>(v.get<int64_t>());
  return Status::Protocol(std::string("'") + key + "' is not a 32-bit integer: " + v.dump());
}

/// The DataType of a DataType JSON object; missing lengths and precisions take Fluss's
/// defaults. `depth` counts the enclosing types.
Result<row::DataType> TypeOfJson(const json& t, int depth = 0) {
  if (!t.is_object() || !t.contains("type") || !t["type"].is_string())
    return Status::Protocol("data_type without 'type'");
  if (depth > kMaxTypeDepth)
    return Status::Protocol("data_type nested more than " + std::to_string(kMaxTypeDepth) + " levels deep");
  const std::string name = t["type"].get<std::string>();
  const auto root = row::TypeRootOfJsonName(name);
  if (!root) return Status::Unsupported("Fluss type " + name + " is not supported by this client yet");
  row::DataType type;
  type.root = *root;
  type.nullable = !(t.contains("nullable") && t["nullable"].is_boolean() && !t["nullable"].get<bool>());
  auto child = [&](const char* key, const char* child_name) -> Result<row::ColumnType> {
    if (!t.contains(key)) return Status::Protocol(name + " data_type without '" + key + "'");
    FLUSS_ASSIGN_OR_RETURN(row::DataType c, TypeOfJson(t[key], depth + 1));
    return row::ColumnType{child_name, std::move(c)};
  };
  switch (*root) {
    case TypeRoot::kChar:
    case TypeRoot::kBinary: {
      FLUSS_ASSIGN_OR_RETURN(type.length, Int32Member(t, "length", 1));
      break;
    }
    case TypeRoot::kDecimal: {
      FLUSS_ASSIGN_OR_RETURN(type.precision, Int32Member(t, "precision", 10));
      FLUSS_ASSIGN_OR_RETURN(type.scale, Int32Member(t, "scale", 0));
      break;
    }
    case TypeRoot::kTime: {
      FLUSS_ASSIGN_OR_RETURN(type.precision, Int32Member(t, "precision", 0));
      break;
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      FLUSS_ASSIGN_OR_RETURN(type.precision, Int32Member(t, "precision", 6));
      break;
    }
    case TypeRoot::kArray: {
      FLUSS_ASSIGN_OR_RETURN(auto element, child("element_type", "item"));
      type.children.push_back(std::move(element));
      break;
    }
    case TypeRoot::kMap: {
      FLUSS_ASSIGN_OR_RETURN(auto key, child("key_type", "key"));
      key.type.nullable = false;
      FLUSS_ASSIGN_OR_RETURN(auto value, child("value_type", "value"));
      type.children.push_back(std::move(key));
      type.children.push_back(std::move(value));
      break;
    }
    case TypeRoot::kRow: {
      if (!t.contains("fields") || !t["fields"].is_array()) return Status::Protocol("ROW data_type without 'fields'");
      for (const auto& f : t["fields"]) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("field_type"))
          return Status::Protocol("ROW data_type with a field without name or field_type");
        FLUSS_ASSIGN_OR_RETURN(row::DataType ft, TypeOfJson(f["field_type"], depth + 1));
        type.children.push_back(row::ColumnType{f["name"].get<std::string>(), std::move(ft)});
      }
      break;
    }
    default:
      break;
  }
  FLUSS_RETURN_NOT_OK(CheckTypeParameters(name, type));
  return type;
}

}  // namespace

Result<ojson> ArrowFieldToFlussType(const arrow::Field& field) {
  FLUSS_ASSIGN_OR_RETURN(row::DataType t, row::DataTypeOf(field));
  int32_t highest = -1;  // (nested field ids only matter in TableDescriptorToJson)
  return TypeJson(t, &highest);
}

Result<std::shared_ptr<arrow::DataType>> FlussTypeToArrow(const json& t) {
  FLUSS_ASSIGN_OR_RETURN(row::DataType type, TypeOfJson(t));
  return row::ArrowTypeOf(type);
}

Result<std::string> TableDescriptorToJson(const TableDescriptor& d) {
  const auto& schema = d.schema.arrow_schema;
  if (!schema || schema->num_fields() == 0)
    return Status::InvalidArgument("schema: a table needs at least one column");
  std::set<std::string> names;
  for (const auto& f : schema->fields()) {
    if (!names.insert(f->name()).second)
      return Status::InvalidArgument("schema: duplicate column name '" + f->name() + "'");
  }
  auto check_columns = [&](const std::vector<std::string>& cols, const char* what) -> Status {
    for (const auto& c : cols)
      if (!names.count(c))
        return Status::InvalidArgument(std::string(what) + ": column '" + c + "' is not in the schema");
    return Status::OK();
  };
  FLUSS_RETURN_NOT_OK(check_columns(d.schema.primary_keys, "primary_keys"));
  FLUSS_RETURN_NOT_OK(check_columns(d.partition_keys, "partition_keys"));
  FLUSS_RETURN_NOT_OK(check_columns(d.bucket_keys, "bucket_keys"));
  if (d.bucket_count && (*d.bucket_count <= 0 || *d.bucket_count > kMaxBucketCount))
    return Status::InvalidArgument("bucket_count must be in 1 .. " + std::to_string(kMaxBucketCount) +
                                   " (the server's max.bucket.num), got " + std::to_string(*d.bucket_count));
  std::set<std::string> pk(d.schema.primary_keys.begin(), d.schema.primary_keys.end());

  // Column ids as Java's Schema builder assigns them: each column ++highest, then its nested
  // ROW fields (protocol-rpc.md 7.2).
  ojson columns = ojson::array();
  int32_t highest = -1;
  for (const auto& f : schema->fields()) {
    auto field = pk.count(f->name()) ? f->WithNullable(false) : f;
    FLUSS_ASSIGN_OR_RETURN(row::DataType t, row::DataTypeOf(*field));
    ojson col;
    col["name"] = f->name();
    const int32_t id = ++highest;
    col["data_type"] = TypeJson(t, &highest);
    if (f->metadata()) {
      auto comment = f->metadata()->Get("comment");
      if (comment.ok()) col["comment"] = *comment;
    }
    col["id"] = id;
    columns.push_back(std::move(col));
  }
  ojson s;
  s["version"] = 1;
  s["columns"] = std::move(columns);
  if (!d.schema.primary_keys.empty()) s["primary_key"] = d.schema.primary_keys;
  s["highest_field_id"] = highest;

  ojson j;
  j["version"] = 1;
  j["schema"] = std::move(s);
  if (d.comment) j["comment"] = *d.comment;
  j["partition_key"] = d.partition_keys;
  // Java writes bucket_key whenever a distribution exists; bucket_count requires bucket_key.
  if (!d.bucket_keys.empty() || d.bucket_count) j["bucket_key"] = d.bucket_keys;
  if (d.bucket_count) j["bucket_count"] = *d.bucket_count;
  j["properties"] = ojson::object();
  for (const auto& [k, v] : d.properties) j["properties"][k] = v;
  j["custom_properties"] = ojson::object();
  for (const auto& [k, v] : d.custom_properties) j["custom_properties"][k] = v;
  return j.dump();
}

namespace {
std::map<std::string, std::string> StringMap(const json& j, const char* key) {
  std::map<std::string, std::string> m;
  if (j.contains(key) && j[key].is_object())
    for (auto it = j[key].begin(); it != j[key].end(); ++it)
      m[it.key()] = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
  return m;
}
std::vector<std::string> StringList(const json& j, const char* key) {
  std::vector<std::string> v;
  if (j.contains(key) && j[key].is_array())
    for (const auto& e : j[key]) v.push_back(e.get<std::string>());
  return v;
}

// The `schema` object of table JSON (also GetTableSchemaResponse.schema_json): columns with
// their ids (0.9; positions when absent, as the server assigns them) and the primary key.
Result<Schema> SchemaFromObject(const json& s) {
  // (operator[] on a const json with a missing key is undefined behaviour: check first)
  if (!s.is_object() || !s.contains("columns") || !s["columns"].is_array())
    return Status::Protocol("malformed table JSON from server: schema without columns");
  Schema out;
  std::vector<std::shared_ptr<arrow::Field>> fields;
  for (const auto& c : s["columns"]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("data_type"))
      return Status::Protocol("malformed table JSON from server: column without name or data_type");
    FLUSS_ASSIGN_OR_RETURN(row::DataType type, TypeOfJson(c["data_type"]));
    auto field = row::ArrowFieldOf(c["name"].get<std::string>(), type);  // CHAR(n) keeps its length metadata
    if (c.contains("comment") && c["comment"].is_string()) {
      auto md = field->metadata() ? field->metadata()->Copy() : std::make_shared<arrow::KeyValueMetadata>();
      md->Append("comment", c["comment"].get<std::string>());
      field = field->WithMetadata(md);
    }
    FLUSS_ASSIGN_OR_RETURN(int32_t id, Int32Member(c, "id", static_cast<int32_t>(fields.size())));
    out.column_ids.push_back(id);
    fields.push_back(std::move(field));
  }
  out.arrow_schema = arrow::schema(std::move(fields));
  out.primary_keys = StringList(s, "primary_key");
  return out;
}

}  // namespace

Result<Schema> SchemaFromJson(std::string_view text) try {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Protocol("malformed schema JSON from server");
  return SchemaFromObject(j);
} catch (const nlohmann::json::exception& e) {
  return Status::Protocol(std::string("malformed schema JSON from server: ") + e.what());
}

Result<TableDescriptor> TableDescriptorFromJson(std::string_view text) try {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("schema"))
    return Status::Protocol("malformed table JSON from server");
  TableDescriptor d;
  FLUSS_ASSIGN_OR_RETURN(d.schema, SchemaFromObject(j["schema"]));
  if (j.contains("comment") && j["comment"].is_string()) d.comment = j["comment"].get<std::string>();
  d.partition_keys = StringList(j, "partition_key");
  d.bucket_keys = StringList(j, "bucket_key");
  if (j.contains("bucket_count")) {
    FLUSS_ASSIGN_OR_RETURN(d.bucket_count, Int32Member(j, "bucket_count", 0));
  }
  d.properties = StringMap(j, "properties");
  d.custom_properties = StringMap(j, "custom_properties");
  return d;
} catch (const nlohmann::json::exception& e) {  // a value of the wrong JSON type
  return Status::Protocol(std::string("malformed table JSON from server: ") + e.what());
}

std::string DatabaseDescriptorToJson(const DatabaseDescriptor& d) {
  ojson j;
  j["version"] = 1;
  if (d.comment) j["comment"] = *d.comment;
  j["custom_properties"] = ojson::object();
  for (const auto& [k, v] : d.custom_properties) j["custom_properties"][k] = v;
  return j.dump();
}

Result<DatabaseDescriptor> DatabaseDescriptorFromJson(std::string_view text) {
  DatabaseDescriptor d;
  if (text.empty()) return d;
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::Protocol("malformed database JSON from server");
  if (j.contains("comment") && j["comment"].is_string()) d.comment = j["comment"].get<std::string>();
  d.custom_properties = StringMap(j, "custom_properties");
  return d;
}


}  // namespace fluss::metadata

namespace fluss {
std::string TableInfo::Property(const std::string& key, const std::string& fallback) const {
  auto it = descriptor.properties.find(key);
  return it == descriptor.properties.end() ? fallback : it->second;
}
}  // namespace fluss
