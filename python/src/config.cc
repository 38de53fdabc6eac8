// Configuration: the core's parser checks the properties of a fluss.Config when they are set, so
// a bad key or value fails there, naming the key, rather than at connect. The core's table of
// keys (fluss::ConfigKeys, include/fluss/config_keys.h) is handed to Python for
// Config.known_keys() and the user guide's generated configuration reference.
#include "fluss/config_keys.h"

#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

namespace {

// A spelling or text of the table as a Python value: None when empty.
nb::object TextOrNone(std::string_view s) {
  return s.empty() ? nb::none() : nb::object(nb::str(s.data(), s.size()));
}

}  // namespace

void BindConfig(nb::module_& m) {
  m.def("_validate_config", [](const std::map<std::string, std::string>& props) {
    ThrowIfError(fluss::ParseClientOptions(props).status());
  });
  // One dict per key, in the table's order: key, seed_key, pyfluss_key, default (str or None),
  // kind ("text", "bytes", "milliseconds", "count", "bool", "enum", "secret"), min and max
  // (int, for bytes, count and milliseconds; else None), values (list of str for enum and bool;
  // else None), description (one sentence).
  m.def("_config_keys", [] {
    nb::list out;
    for (const fluss::ConfigKeyInfo& k : fluss::ConfigKeys()) {
      nb::dict d;
      d["key"] = TextOrNone(k.key);
      d["seed_key"] = TextOrNone(k.seed_key);
      d["pyfluss_key"] = TextOrNone(k.pyfluss_key);
      d["default"] = TextOrNone(k.default_value);
      d["kind"] = nb::str(fluss::ConfigKindName(k.kind).data(), fluss::ConfigKindName(k.kind).size());
      const bool ranged = k.kind == fluss::ConfigKind::kBytes || k.kind == fluss::ConfigKind::kCount ||
                          k.kind == fluss::ConfigKind::kMilliseconds;
      d["min"] = ranged ? nb::cast(k.min) : nb::none();
      d["max"] = ranged ? nb::cast(k.max) : nb::none();
      if (k.values.empty()) {
        d["values"] = nb::none();
      } else {
        nb::list values;
        std::string_view rest = k.values;
        while (true) {
          const size_t comma = rest.find(", ");
          values.append(nb::str(rest.data(), comma == std::string_view::npos ? rest.size() : comma));
          if (comma == std::string_view::npos) break;
          rest.remove_prefix(comma + 2);
        }
        d["values"] = values;
      }
      d["description"] = TextOrNone(k.description);
      out.append(d);
    }
    return out;
  });
}

}  // namespace fluss::py
