// Table and database JSON (protocol-rpc.md sections 6 and 7) <-> public metadata types. Column
// types go through the one Arrow <-> Fluss map, row/data_type.h (protocol-data.md section 11).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fluss/status.h"
#include "fluss/types.h"

namespace fluss::metadata {

/// Fluss DataType JSON of an Arrow field type, e.g. {"type":"INTEGER"}; "nullable":false for a
/// non-nullable field, nested types with their element, key/value or field types (protocol-rpc.md
/// 7.3). Fails with InvalidArgument naming the field for unsupported types (row::DataTypeOf).
Result<nlohmann::ordered_json> ArrowFieldToFlussType(const arrow::Field& field);

/// Arrow type of a Fluss DataType JSON object (row::ArrowTypeOf); TIMESTAMP_LTZ becomes
/// timestamp(unit, "UTC"), CHAR(n) utf8 (a column of the schema also carries the CHAR length
/// as field metadata), ARRAY a list with an "item" child.
Result<std::shared_ptr<arrow::DataType>> FlussTypeToArrow(const nlohmann::json& type);

/// The JSON a Java client sends in CreateTableRequest.table_json for `descriptor`
/// (key order as Java's Jackson writer; column ids 0..n-1 and highest_field_id).
/// Primary-key columns are written NOT NULL. Fails with InvalidArgument naming the bad column.
Result<std::string> TableDescriptorToJson(const TableDescriptor& descriptor);

/// Parses GetTableInfoResponse.table_json. The Arrow schema uses the read mapping
/// (FlussTypeToArrow) and keeps column comments as field metadata "comment".
Result<TableDescriptor> TableDescriptorFromJson(std::string_view json);

/// Parses GetTableSchemaResponse.schema_json (the `schema` object of table JSON): columns with
/// their column ids, primary key.
Result<Schema> SchemaFromJson(std::string_view json);

/// DatabaseDescriptor JSON: {"version":1,"comment":...,"custom_properties":{...}}.
std::string DatabaseDescriptorToJson(const DatabaseDescriptor& descriptor);
Result<DatabaseDescriptor> DatabaseDescriptorFromJson(std::string_view json);

}  // namespace fluss::metadata
