#include "fluss/metadata/table_json.h"

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include <set>

namespace fluss::metadata {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

namespace {

int PrecisionOf(arrow::TimeUnit::type unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return 0;
    case arrow::TimeUnit::MILLI: return 3;
    case arrow::TimeUnit::MICRO: return 6;
    case arrow::TimeUnit::NANO: return 9;
  }
  return 6;
}

arrow::TimeUnit::type UnitOf(int precision) {
  if (precision == 0) return arrow::TimeUnit::SECOND;
  if (precision <= 3) return arrow::TimeUnit::MILLI;
  if (precision <= 6) return arrow::TimeUnit::MICRO;
  return arrow::TimeUnit::NANO;
}

ojson Typed(const char* name) {
  ojson t;
  t["type"] = name;
  return t;
}

}  // namespace

Result<ojson> ArrowFieldToFlussType(const arrow::Field& field) {
  const auto& type = *field.type();
  ojson t;
  switch (type.id()) {
    case arrow::Type::BOOL: t = Typed("BOOLEAN"); break;
    case arrow::Type::INT8: t = Typed("TINYINT"); break;
    case arrow::Type::INT16: t = Typed("SMALLINT"); break;
    case arrow::Type::INT32: t = Typed("INTEGER"); break;
    case arrow::Type::INT64: t = Typed("BIGINT"); break;
    case arrow::Type::FLOAT: t = Typed("FLOAT"); break;
    case arrow::Type::DOUBLE: t = Typed("DOUBLE"); break;
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: t = Typed("STRING"); break;
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: t = Typed("BYTES"); break;
    case arrow::Type::FIXED_SIZE_BINARY:
      t = Typed("BINARY");
      t["length"] = static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width();
      break;
    case arrow::Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::Decimal128Type&>(type);
      t = Typed("DECIMAL");
      t["precision"] = d.precision();
      t["scale"] = d.scale();
      break;
    }
    case arrow::Type::DATE32: t = Typed("DATE"); break;
    case arrow::Type::TIME32:
    case arrow::Type::TIME64:
      t = Typed("TIME_WITHOUT_TIME_ZONE");
      t["precision"] = PrecisionOf(static_cast<const arrow::TimeType&>(type).unit());
      break;
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      t = Typed(ts.timezone().empty() ? "TIMESTAMP_WITHOUT_TIME_ZONE"
                                      : "TIMESTAMP_WITH_LOCAL_TIME_ZONE");
      t["precision"] = PrecisionOf(ts.unit());
      break;
    }
    default:
      return Status::InvalidArgument("column '" + field.name() + "': Arrow type " +
                                     type.ToString() + " has no Fluss equivalent");
  }
  if (!field.nullable()) {
    // Java's DataTypeJsonSerde writes "nullable" right after "type", before length/precision.
    ojson ordered = Typed(t["type"].get<std::string>().c_str());
    ordered["nullable"] = false;
    for (auto it = t.begin(); it != t.end(); ++it)
      if (it.key() != "type") ordered[it.key()] = it.value();
    t = std::move(ordered);
  }
  return t;
}

Result<std::shared_ptr<arrow::DataType>> FlussTypeToArrow(const json& t) {
  if (!t.is_object() || !t.contains("type") || !t["type"].is_string())
    return Status::Protocol("data_type without 'type'");
  const std::string name = t["type"].get<std::string>();
  auto precision = [&](int def) { return t.contains("precision") ? t["precision"].get<int>() : def; };
  if (name == "BOOLEAN") return arrow::boolean();
  if (name == "TINYINT") return arrow::int8();
  if (name == "SMALLINT") return arrow::int16();
  if (name == "INTEGER") return arrow::int32();
  if (name == "BIGINT") return arrow::int64();
  if (name == "FLOAT") return arrow::float32();
  if (name == "DOUBLE") return arrow::float64();
  if (name == "STRING" || name == "CHAR") return arrow::utf8();
  if (name == "BYTES") return arrow::binary();
  if (name == "BINARY") return arrow::fixed_size_binary(t.value("length", 1));
  if (name == "DECIMAL") return arrow::decimal128(t.value("precision", 10), t.value("scale", 0));
  if (name == "DATE") return arrow::date32();
  if (name == "TIME_WITHOUT_TIME_ZONE") {
    auto unit = UnitOf(precision(0));
    if (unit == arrow::TimeUnit::SECOND || unit == arrow::TimeUnit::MILLI) return arrow::time32(unit);
    return arrow::time64(unit);
  }
  if (name == "TIMESTAMP_WITHOUT_TIME_ZONE") return arrow::timestamp(UnitOf(precision(6)));
  if (name == "TIMESTAMP_WITH_LOCAL_TIME_ZONE") return arrow::timestamp(UnitOf(precision(6)), "UTC");
  return Status::Unsupported("Fluss type " + name + " is not supported by this client yet");
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
  if (d.bucket_count && *d.bucket_count <= 0)
    return Status::InvalidArgument("bucket_count must be positive, got " + std::to_string(*d.bucket_count));
  std::set<std::string> pk(d.schema.primary_keys.begin(), d.schema.primary_keys.end());

  ojson columns = ojson::array();
  int id = 0;
  for (const auto& f : schema->fields()) {
    auto field = pk.count(f->name()) ? f->WithNullable(false) : f;
    FLUSS_ASSIGN_OR_RETURN(ojson type, ArrowFieldToFlussType(*field));
    ojson col;
    col["name"] = f->name();
    col["data_type"] = std::move(type);
    if (f->metadata()) {
      auto comment = f->metadata()->Get("comment");
      if (comment.ok()) col["comment"] = *comment;
    }
    col["id"] = id++;
    columns.push_back(std::move(col));
  }
  ojson s;
  s["version"] = 1;
  s["columns"] = std::move(columns);
  if (!d.schema.primary_keys.empty()) s["primary_key"] = d.schema.primary_keys;
  s["highest_field_id"] = id - 1;

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
}  // namespace

Result<TableDescriptor> TableDescriptorFromJson(std::string_view text) try {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("schema"))
    return Status::Protocol("malformed table JSON from server");
  TableDescriptor d;
  const json& s = j["schema"];
  // (operator[] on a const json with a missing key is undefined behaviour: check first)
  if (!s.is_object() || !s.contains("columns") || !s["columns"].is_array())
    return Status::Protocol("malformed table JSON from server: schema without columns");
  std::vector<std::shared_ptr<arrow::Field>> fields;
  for (const auto& c : s["columns"]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("data_type"))
      return Status::Protocol("malformed table JSON from server: column without name or data_type");
    const json& t = c["data_type"];
    FLUSS_ASSIGN_OR_RETURN(auto type, FlussTypeToArrow(t));
    bool nullable = !(t.contains("nullable") && t["nullable"].is_boolean() && !t["nullable"].get<bool>());
    std::shared_ptr<arrow::KeyValueMetadata> md;
    if (c.contains("comment") && c["comment"].is_string())
      md = arrow::key_value_metadata({"comment"}, {c["comment"].get<std::string>()});
    fields.push_back(arrow::field(c["name"].get<std::string>(), type, nullable, md));
  }
  d.schema.arrow_schema = arrow::schema(std::move(fields));
  d.schema.primary_keys = StringList(s, "primary_key");
  if (j.contains("comment") && j["comment"].is_string()) d.comment = j["comment"].get<std::string>();
  d.partition_keys = StringList(j, "partition_key");
  d.bucket_keys = StringList(j, "bucket_key");
  if (j.contains("bucket_count") && j["bucket_count"].is_number_integer())
    d.bucket_count = j["bucket_count"].get<int32_t>();
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
