// Configuration: the core's parser checks the properties of a fluss.Config when they are set, so
// a bad key or value fails there, naming the key, rather than at connect.
#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

void BindConfig(nb::module_& m) {
  m.def("_validate_config", [](const std::map<std::string, std::string>& props) {
    ThrowIfError(fluss::ParseClientOptions(props).status());
  });
}

}  // namespace fluss::py
