// Declarations shared by the areas of the binding (one .cc per area): the Bind function of each,
// called from NB_MODULE in module.cc, and the constructors through which one area hands out the
// objects of another, so that each area's classes stay private to its file.
//
// Thread affinity: everything here runs on the calling thread with the GIL held.
#pragma once

#include <nanobind/nanobind.h>
// The STL type casters, here once, so that every area's translation unit converts std::string,
// std::vector, std::map, std::optional and std::shared_ptr the same way.
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fluss/client.h"

namespace fluss::py {

namespace nb = nanobind;

void BindBridge(nb::module_& m);      // bridge.cc: _set_helpers
void BindErrors(nb::module_& m);      // errors.cc: StatusError -> FlussError, _error_codes
void BindConfig(nb::module_& m);      // config.cc: _validate_config
void BindTypes(nb::module_& m);       // types.cc: _column_types
void BindWriters(nb::module_& m);     // writers.cc: WriteResultHandle, _AppendWriter
void BindUpsert(nb::module_& m);      // upsert.cc: _UpsertWriter
void BindLookups(nb::module_& m);     // lookups.cc: _Lookuper, _PrefixLookuper
void BindScanners(nb::module_& m);    // scanners.cc: _Polled, _Scanner
void BindTable(nb::module_& m);       // table.cc: _Table
void BindAdmin(nb::module_& m);       // admin.cc: _Admin
void BindConnection(nb::module_& m);  // connection.cc: _Connection
void BindLogBridge(nb::module_& m);   // log_bridge.cc: _log_install, _log_wait

/// A `_AppendWriter` over `writer` of the table `table_path`, with the writer-buffer options of
/// the connection (writers.cc).
nb::object NewPyAppendWriter(std::shared_ptr<AppendWriter> writer, std::string table_path,
                             const ClientOptions& options);
/// A `_UpsertWriter` over `writer`; `columns` are the target columns of a partial update in
/// the order rows give them (empty: full rows), `primary_key` the primary-key column indexes
/// in primary-key order (upsert.cc).
nb::object NewPyUpsertWriter(std::shared_ptr<UpsertWriter> writer, std::string table_path, const ClientOptions& options,
                             std::vector<int32_t> columns, const std::vector<int32_t>& primary_key);
/// A `_Lookuper` over `lookuper`; keys hold the columns `primary_key` (lookups.cc).
nb::object NewPyLookuper(std::shared_ptr<Lookuper> lookuper, const std::vector<int32_t>& primary_key);
/// A `_PrefixLookuper` over `lookuper`; prefixes hold the columns `columns` (lookups.cc).
nb::object NewPyPrefixLookuper(std::shared_ptr<PrefixLookuper> lookuper, const std::vector<int32_t>& columns);
/// A `_Scanner` over `scanner`; record polls return at most `max_poll_records` (scanners.cc).
nb::object NewPyScanner(std::shared_ptr<LogScanner> scanner, int64_t max_poll_records);
/// A `_Table` over `table`; `options` are those of the connection it came from (table.cc).
nb::object NewPyTable(std::shared_ptr<Table> table, const ClientOptions& options);
/// A `_Admin` over `admin` (admin.cc).
nb::object NewPyAdmin(std::shared_ptr<Admin> admin);

/// The dict fluss.TableInfo is built from; the schema as an "arrow_schema" capsule (table.cc).
nb::dict TableInfoToDict(const TableInfo& info);

inline TablePath MakePath(const std::string& db, const std::string& table) { return TablePath{db, table}; }

}  // namespace fluss::py
