#include "fluss/metadata/table_schemas.h"

#include "fluss/metadata/table_json.h"
#include "fluss/protocol/get_table_schema.h"

namespace fluss::metadata {

TableSchemas::TableSchemas(std::shared_ptr<Cluster> cluster, const TableInfo& table)
    : cluster_(std::move(cluster)), path_(table.table_path) {
  known_[table.schema_id] = std::make_shared<const Schema>(table.descriptor.schema);
}

std::shared_ptr<const Schema> TableSchemas::Find(int32_t schema_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = known_.find(schema_id);
  return it == known_.end() ? nullptr : it->second;
}

asio::awaitable<Result<std::shared_ptr<const Schema>>> TableSchemas::Get(int32_t schema_id) {
  if (auto known = Find(schema_id)) co_return known;
  const std::string where = "table " + path_.ToString() + " schema id " + std::to_string(schema_id);
  const proto::GetTableSchemaRequest req = protocol::MakeGetTableSchemaRequest(path_, schema_id);
  auto resp = co_await cluster_->CallCoordinator<proto::GetTableSchemaResponse>(protocol::ApiKey::GET_TABLE_SCHEMA, req);
  if (!resp.ok()) co_return resp.status().WithContext(where);
  auto schema = SchemaFromJson(resp->schema_json());
  if (!schema.ok()) co_return schema.status().WithContext(where);
  auto shared = std::make_shared<const Schema>(std::move(*schema));
  {
    std::lock_guard<std::mutex> lock(mu_);
    known_.emplace(schema_id, shared);
  }
  co_return shared;
}

asio::awaitable<Status> TableSchemas::AddMissing(row::ValueRowDecoder& decoder,
                                                 const std::vector<std::string_view>& values) {
  for (int16_t id : decoder.MissingSchemas(values)) {
    auto schema = co_await Get(id);
    if (!schema.ok()) co_return schema.status();
    Status st = decoder.AddSchema(id, **schema);
    if (!st.ok()) co_return st.WithContext("table " + path_.ToString() + " schema id " + std::to_string(id));
  }
  co_return Status::OK();
}

}  // namespace fluss::metadata
