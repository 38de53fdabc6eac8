// Tables: _Table (a table handle: its metadata, and the writers and scanners made from it) and
// the TableInfo dict it shares with the admin.
//
// Thread affinity: the calling thread, GIL held.
#include <vector>

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
      .def("new_scanner", &PyTable::NewScanner, "projection"_a);
}

}  // namespace fluss::py
