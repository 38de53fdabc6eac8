// Administration: _Admin (databases, tables, partitions, offsets, bucket leaders); every call
// returns an awaitable resolved on the I/O thread through the bridge (bridge.h).
//
// Thread affinity: the calling thread, GIL held; callbacks run on the I/O thread and take the GIL.
#include <arrow/type.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arrow_capsules.h"
#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

struct PyAdmin {
  std::shared_ptr<Admin> admin;

  nb::object CreateDatabase(std::string name, std::optional<std::string> comment,
                            std::map<std::string, std::string> custom, bool ignore) {
    DatabaseDescriptor d{std::move(comment), std::move(custom)};
    auto a = admin;
    return Awaitable([a, name, d, ignore](nb::object done) {
      a->CreateDatabaseAsync(name, d, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object DropDatabase(std::string name, bool ignore, bool cascade) {
    auto a = admin;
    return Awaitable([a, name, ignore, cascade](nb::object done) {
      a->DropDatabaseAsync(name, ignore, cascade, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object ListDatabases() {
    auto a = admin;
    return Awaitable([a](nb::object done) {
      a->ListDatabasesAsync(MakeCallback<std::vector<std::string>>(
          std::move(done), [](std::vector<std::string> v) { return nb::cast(v); }));
    });
  }
  nb::object DatabaseExists(std::string name) {
    auto a = admin;
    return Awaitable([a, name](nb::object done) {
      a->DatabaseExistsAsync(name, MakeCallback<bool>(std::move(done), [](bool b) { return nb::cast(b); }));
    });
  }
  nb::object GetDatabaseInfo(std::string name) {
    auto a = admin;
    return Awaitable([a, name](nb::object done) {
      a->GetDatabaseInfoAsync(name, MakeCallback<DatabaseInfo>(std::move(done), [](DatabaseInfo i) {
        nb::dict d;
        d["database_name"] = i.database_name;
        d["comment"] = i.descriptor.comment;
        d["custom_properties"] = i.descriptor.custom_properties;
        d["created_time"] = i.created_time;
        d["modified_time"] = i.modified_time;
        return nb::object(d);
      }));
    });
  }
  nb::object CreateTable(std::string db, std::string table, nb::handle schema, std::vector<std::string> primary_keys,
                         std::vector<std::string> partition_keys, std::optional<int32_t> bucket_count,
                         std::vector<std::string> bucket_keys, std::optional<std::string> comment,
                         std::map<std::string, std::string> properties,
                         std::map<std::string, std::string> custom_properties, bool ignore) {
    TableDescriptor d;
    d.schema.arrow_schema = ImportSchema(schema);
    d.schema.primary_keys = std::move(primary_keys);
    d.partition_keys = std::move(partition_keys);
    d.bucket_count = bucket_count;
    d.bucket_keys = std::move(bucket_keys);
    d.comment = std::move(comment);
    d.properties = std::move(properties);
    d.custom_properties = std::move(custom_properties);
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, d, ignore](nb::object done) {
      a->CreateTableAsync(path, d, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object DropTable(std::string db, std::string table, bool ignore) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, ignore](nb::object done) {
      a->DropTableAsync(path, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object AlterTable(std::string db, std::string table, std::map<std::string, std::string> set_properties,
                        std::vector<std::string> reset_properties, nb::handle add_columns, bool ignore) {
    TableChanges changes;
    changes.set_properties = std::move(set_properties);
    changes.reset_properties = std::move(reset_properties);
    changes.add_columns = ImportSchema(add_columns)->fields();  // a pyarrow.Schema of the new columns
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, changes, ignore](nb::object done) {
      a->AlterTableAsync(path, changes, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object GetTableInfo(std::string db, std::string table) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path](nb::object done) {
      a->GetTableInfoAsync(path, MakeCallback<TableInfo>(std::move(done),
                                                         [](TableInfo i) { return nb::object(TableInfoToDict(i)); }));
    });
  }
  nb::object ListTables(std::string db) {
    auto a = admin;
    return Awaitable([a, db](nb::object done) {
      a->ListTablesAsync(db, MakeCallback<std::vector<std::string>>(
                                 std::move(done), [](std::vector<std::string> v) { return nb::cast(v); }));
    });
  }
  nb::object TableExists(std::string db, std::string table) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path](nb::object done) {
      a->TableExistsAsync(path, MakeCallback<bool>(std::move(done), [](bool b) { return nb::cast(b); }));
    });
  }
  nb::object ListPartitionOffsets(std::string db, std::string table, std::string partition,
                                  std::vector<int32_t> buckets, int32_t type, std::optional<int64_t> timestamp) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, partition, buckets, type, timestamp](nb::object done) {
      a->ListPartitionOffsetsAsync(path, partition, buckets, static_cast<OffsetType>(type), timestamp,
                                   MakeCallback<std::map<int32_t, int64_t>>(
                                       std::move(done), [](std::map<int32_t, int64_t> m) { return nb::cast(m); }));
    });
  }
  nb::object CreatePartition(std::string db, std::string table, std::map<std::string, std::string> spec, bool ignore) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, spec, ignore](nb::object done) {
      a->CreatePartitionAsync(path, spec, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object DropPartition(std::string db, std::string table, std::map<std::string, std::string> spec, bool ignore) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, spec, ignore](nb::object done) {
      a->DropPartitionAsync(path, spec, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object ListPartitionInfos(std::string db, std::string table, std::map<std::string, std::string> partial_spec) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, partial_spec](nb::object done) {
      a->ListPartitionInfosAsync(path, partial_spec, MakeCallback<std::vector<PartitionInfo>>(std::move(done), [](std::vector<PartitionInfo> v) {
        nb::list out;
        for (auto& p : v) out.append(nb::make_tuple(p.partition_id, p.partition_name, nb::cast(p.spec)));
        return nb::object(out);
      }));
    });
  }
  nb::object ListOffsets(std::string db, std::string table, std::vector<int32_t> buckets, int32_t type,
                         std::optional<int64_t> timestamp) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, buckets, type, timestamp](nb::object done) {
      a->ListOffsetsAsync(path, buckets, static_cast<OffsetType>(type), timestamp,
                          MakeCallback<std::map<int32_t, int64_t>>(
                              std::move(done), [](std::map<int32_t, int64_t> m) { return nb::cast(m); }));
    });
  }

  /// [(id, host, port, is_coordinator)], coordinator first.
  nb::object ServerNodes() {
    auto a = admin;
    return Awaitable([a](nb::object done) {
      a->GetServerNodesAsync(MakeCallback<std::vector<ServerNode>>(std::move(done), [](std::vector<ServerNode> nodes) {
        nb::list out;
        for (const auto& n : nodes) out.append(nb::make_tuple(n.id, n.host, n.port, n.coordinator));
        return nb::object(out);
      }));
    });
  }
  nb::object BucketLeaders(std::string db, std::string table, std::optional<std::string> partition) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, partition](nb::object done) {
      auto cb = MakeCallback<std::map<int32_t, int32_t>>(std::move(done),
                                                         [](std::map<int32_t, int32_t> m) { return nb::cast(m); });
      if (partition) a->ListPartitionBucketLeadersAsync(path, *partition, std::move(cb));
      else a->ListBucketLeadersAsync(path, std::move(cb));
    });
  }
};

}  // namespace

nb::object NewPyAdmin(std::shared_ptr<Admin> admin) { return nb::cast(PyAdmin{std::move(admin)}); }

void BindAdmin(nb::module_& m) {
  nb::class_<PyAdmin>(m, "_Admin")
      .def("create_database", &PyAdmin::CreateDatabase, "name"_a, "comment"_a.none(), "custom_properties"_a, "ignore_if_exists"_a)
      .def("drop_database", &PyAdmin::DropDatabase)
      .def("list_databases", &PyAdmin::ListDatabases)
      .def("database_exists", &PyAdmin::DatabaseExists)
      .def("get_database_info", &PyAdmin::GetDatabaseInfo)
      .def("create_table", &PyAdmin::CreateTable, "database"_a, "table"_a, "schema"_a, "primary_keys"_a,
           "partition_keys"_a, "bucket_count"_a.none(), "bucket_keys"_a, "comment"_a.none(), "properties"_a,
           "custom_properties"_a, "ignore_if_exists"_a)
      .def("drop_table", &PyAdmin::DropTable)
      .def("alter_table", &PyAdmin::AlterTable)
      .def("get_table_info", &PyAdmin::GetTableInfo)
      .def("list_tables", &PyAdmin::ListTables)
      .def("table_exists", &PyAdmin::TableExists)
      .def("list_offsets", &PyAdmin::ListOffsets, "database"_a, "table"_a, "bucket_ids"_a, "offset_type"_a,
           "timestamp"_a.none())
      .def("list_partition_offsets", &PyAdmin::ListPartitionOffsets, "database"_a, "table"_a, "partition_name"_a,
           "bucket_ids"_a, "offset_type"_a, "timestamp"_a.none())
      .def("create_partition", &PyAdmin::CreatePartition)
      .def("drop_partition", &PyAdmin::DropPartition)
      .def("list_partition_infos", &PyAdmin::ListPartitionInfos)
      .def("server_nodes", &PyAdmin::ServerNodes)
      .def("bucket_leaders", &PyAdmin::BucketLeaders, "database"_a, "table"_a, "partition"_a = nb::none());
}

}  // namespace fluss::py
