// Lookups: _Lookuper (point lookups by primary key) and _PrefixLookuper (lookups by a prefix of
// the primary key), over fluss::Lookuper and fluss::PrefixLookuper. Each lookup returns an
// awaitable at once; any number are in flight together (the core batches them per leader).
//
// Thread affinity: the calling thread, GIL held; results arrive on the I/O thread through the
// bridge (bridge.h), which exports them as Arrow C Data Interface capsules under the GIL.
#include <memory>
#include <string>
#include <vector>

#include <arrow/type.h>

#include "arrow_capsules.h"
#include "bindings.h"
#include "bridge.h"
#include "row_converter.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

/// Starts `lookuper->LookupAsync` for `values`; the awaitable resolves to the (schema, array)
/// capsules of the result batch, or None when the core returns no batch (no row has the key).
template <typename L>
nb::object StartLookup(const std::shared_ptr<L>& lookuper, const std::vector<Value>& values) {
  // The core encodes the key before LookupAsync returns, so `values` (views into the Python
  // key object) need not outlive this call; `start` runs synchronously inside Awaitable.
  return Awaitable([lookuper, &values](nb::object done) {
    lookuper->LookupAsync(values.data(), values.size(), BatchCapsulesCallback(std::move(done)));
  });
}

struct PyLookuper {
  std::shared_ptr<Lookuper> lookuper;
  ColumnsConverter key_converter;  // the primary-key columns, in primary-key order
  std::vector<Value> values;       // one per table column

  nb::object Lookup(nb::handle key) {
    ThrowIfError(key_converter.Convert(key.ptr(), &values));
    return StartLookup(lookuper, values);
  }
};

struct PyPrefixLookuper {
  std::shared_ptr<PrefixLookuper> lookuper;
  ColumnsConverter prefix_converter;  // the lookup columns, in the order lookup_by named them
  std::vector<Value> values;          // one per table column

  nb::object Lookup(nb::handle prefix) {
    ThrowIfError(prefix_converter.Convert(prefix.ptr(), &values));
    return StartLookup(lookuper, values);
  }
  std::vector<int32_t> LookupColumns() const { return lookuper->lookup_columns(); }
};

}  // namespace

nb::object NewPyLookuper(std::shared_ptr<Lookuper> lookuper, const std::vector<int32_t>& primary_key) {
  const auto& schema = lookuper->schema();
  ColumnsConverter conv(schema, primary_key, RowShape{"key", "the primary key " + ColumnsConverter::Names(*schema, primary_key)});
  return nb::cast(PyLookuper{std::move(lookuper), std::move(conv), {}});
}

nb::object NewPyPrefixLookuper(std::shared_ptr<PrefixLookuper> lookuper, const std::vector<int32_t>& columns) {
  const auto& schema = lookuper->schema();
  ColumnsConverter conv(schema, columns,
                        RowShape{"prefix", "the lookup columns " + ColumnsConverter::Names(*schema, columns)});
  return nb::cast(PyPrefixLookuper{std::move(lookuper), std::move(conv), {}});
}

void BindLookups(nb::module_& m) {
  nb::class_<PyLookuper>(m, "_Lookuper").def("lookup", &PyLookuper::Lookup, "pk"_a.none());
  nb::class_<PyPrefixLookuper>(m, "_PrefixLookuper")
      .def("lookup", &PyPrefixLookuper::Lookup, "prefix"_a.none())
      .def_prop_ro("lookup_columns", &PyPrefixLookuper::LookupColumns);
}

}  // namespace fluss::py
