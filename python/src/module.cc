// The native module fluss._fluss: thin nanobind classes over the public C++ API
// (include/fluss/), one file per area (bindings.h). The Python package (python/fluss) builds the
// seed's API on top.
#include <nanobind/nanobind.h>

#include "bindings.h"

NB_MODULE(_fluss, m) {
  using namespace fluss::py;
  m.doc() = "Native core of the fluss package (C++ libfluss bindings). Use the `fluss` package, not this module.";
  // Objects a daemon thread or an unclosed event loop still holds at exit are not leaks of
  // the user's program: no shutdown report of them.
  nanobind::set_leak_warnings(false);

  BindErrors(m);
  BindConfig(m);
  BindTypes(m);
  BindBridge(m);
  BindWriters(m);
  BindUpsert(m);
  BindLookups(m);
  BindScanners(m);
  BindTable(m);
  BindAdmin(m);
  BindConnection(m);
  BindLogBridge(m);
}
