// Tables: _Table (a table handle: its metadata, the writers, lookupers and scanners made from
// it, and its limit scans) and the TableInfo dict it shares with the admin.
//
// Thread affinity: the calling thread, GIL held; limit-scan results arrive on the I/O thread
// through the bridge (bridge.h).
#include <algorithm>
#include <string>
#include <vector>

#include <arrow/type.h>

#include "arrow_capsules.h"
#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

using namespace nb::literals;

nb::dict TableInfoToDict(const TableInfo& info) {
  nb::dict d;
  const auto& desc = info.descriptor;
  d["database_name"] = info.table_path.database_name;
  d["table_name"] = info.table_path.table_name;
  d["table_id"] = info.table_id;
  d["schema_id"] = info.schema_id;
  d["created_time"] = info.created_time;
  d["modified_time"] = info.modified_time;
  d["num_buckets"] = info.num_buckets;
  d["schema"] = ExportSchemaCapsule(*desc.schema.arrow_schema);
  d["primary_keys"] = desc.schema.primary_keys;
  d["partition_keys"] = desc.partition_keys;
  d["bucket_keys"] = desc.bucket_keys;
  d["bucket_count"] = desc.bucket_count;
  d["comment"] = desc.comment;
  d["properties"] = desc.properties;
  d["custom_properties"] = desc.custom_properties;
  return d;
}

namespace {

struct PyTable {
  std::shared_ptr<Table> table;
  nb::dict Info() const { return TableInfoToDict(table->info()); }
  nb::object NewAppendWriter() {
    return NewPyAppendWriter(ValueOrThrow(table->NewAppendWriter()), table->info().table_path.ToString(), options);
  }
  nb::object NewScanner(const std::vector<int32_t>& projection) {
    return NewPyScanner(ValueOrThrow(table->NewLogScanner(projection)), options.max_poll_records);
  }
  /// `columns`: the target columns of a partial update (table column indexes, in the order
  /// list/tuple rows give them); empty for full rows.
  nb::object NewUpsertWriter(std::vector<int32_t> columns) {
    auto writer = ValueOrThrow(table->NewUpsertWriter(columns));
    return NewPyUpsertWriter(std::move(writer), table->info().table_path.ToString(), options, std::move(columns),
                             PrimaryKeyPositions());
  }
  nb::object NewLookuper() { return NewPyLookuper(ValueOrThrow(table->NewLookuper()), PrimaryKeyPositions()); }
  /// `names`: the lookup columns; `positions`: their table column indexes, in the same order.
  nb::object NewPrefixLookuper(const std::vector<std::string>& names, const std::vector<int32_t>& positions) {
    return NewPyPrefixLookuper(ValueOrThrow(table->NewPrefixLookuper(names)), positions);
  }
  /// An awaitable of the (schema, array) capsules of at most `limit` rows of `bucket` (of
  /// partition `partition_id` for a partitioned table).
  nb::object LimitScan(std::optional<int64_t> partition_id, int32_t bucket, int32_t limit) {
    auto t = table;
    return Awaitable([t, partition_id, bucket, limit](nb::object done) {
      if (partition_id) t->LimitScanPartitionAsync(*partition_id, bucket, limit, BatchCapsulesCallback(std::move(done)));
      else t->LimitScanAsync(bucket, limit, BatchCapsulesCallback(std::move(done)));
    });
  }
  /// Table column indexes of the primary-key columns, in primary-key order.
  std::vector<int32_t> PrimaryKeyPositions() const {
    const auto& schema = table->info().descriptor.schema;
    std::vector<int32_t> out;
    for (const auto& name : schema.primary_keys) out.push_back(schema.arrow_schema->GetFieldIndex(name));
    return out;
  }
  ClientOptions options;  // of the connection the table came from
};

}  // namespace

nb::object NewPyTable(std::shared_ptr<Table> table, const ClientOptions& options) {
  return nb::cast(PyTable{std::move(table), options});
}

void BindTable(nb::module_& m) {
  nb::class_<PyTable>(m, "_Table")
      .def("info", &PyTable::Info)
      .def("new_append_writer", &PyTable::NewAppendWriter)
      .def("new_scanner", &PyTable::NewScanner, "projection"_a)
      .def("new_upsert_writer", &PyTable::NewUpsertWriter, "columns"_a)
      .def("new_lookuper", &PyTable::NewLookuper)
      .def("new_prefix_lookuper", &PyTable::NewPrefixLookuper, "names"_a, "positions"_a)
      .def("limit_scan", &PyTable::LimitScan, "partition_id"_a.none(), "bucket"_a, "limit"_a);
}

}  // namespace fluss::py
