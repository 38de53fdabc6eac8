// The table of client configuration keys: every key ParseClientOptions (config.h) accepts, with
// its other spellings, default, kind of value, range and a one-sentence description. The parser
// reads keys through this table (src/fluss/client/config.cc), so a reference generated from it
// (the user guide's configuration page, fluss.Config.known_keys() in Python) lists exactly what
// the parser accepts.
//
// Two spellings of one key in the same properties: a pyfluss 1.0 spelling beside the Java
// spelling is refused (InvalidArgument naming both); a seed spelling beside the Java spelling is
// not, and the seed spelling's value is taken (keys are applied in the map's order, where
// "request.max.size" and "writer.*" come after "client.*").
//
// Thread affinity: none; the table is built once, on first use, and never changes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "fluss/config.h"

namespace fluss {

/// What kind of value a configuration key takes: how ParseClientOptions reads its text.
enum class ConfigKind : int8_t {
  kText,          ///< text; bootstrap.servers is trimmed, a SASL username is taken as given
  kBytes,         ///< a size: plain bytes or a number with a unit b, k/kb/kib, m/mb/mib, g/gb/gib
                  ///< (all 1024-based, any case, a fraction allowed: "1.5 kb" = 1536 bytes)
  kMilliseconds,  ///< a duration: plain milliseconds or a number with a unit ms, s, min (or m), h
  kCount,         ///< a plain decimal integer
  kBool,          ///< true or false, any case
  kEnum,          ///< one of ConfigKeyInfo::values, any case
  kSecret,        ///< text taken as given (not trimmed); no message, log line or repr shows it
};

/// The name of `kind` as the configuration reference spells it: "text", "bytes",
/// "milliseconds", "count", "bool", "enum" or "secret".
std::string_view ConfigKindName(ConfigKind kind);

/// One key of the client configuration (an entry of the table the parser reads keys with).
/// Every string_view points into static storage.
struct ConfigKeyInfo {
  /// The key as the Java client spells it ("client.writer.batch-size"); bootstrap.servers is
  /// spelled the same everywhere.
  std::string_view key;
  /// The seed guide's spelling ("writer.batch.size"), or empty when the seed has no such key.
  std::string_view seed_key;
  /// pyfluss 1.0's spelling ("writer.batch-size"), or empty when it has none.
  std::string_view pyfluss_key;
  /// The default as text the parser accepts for this key (bytes as plain bytes, durations as
  /// plain milliseconds); empty when the option is unset by default (the SASL credentials).
  std::string_view default_value;
  /// How the value is read.
  ConfigKind kind;
  /// kBytes, kCount, kMilliseconds: the least value accepted (bytes, count, ms). 0 otherwise.
  int64_t min;
  /// kBytes, kCount: the largest value accepted. kMilliseconds: longer durations are capped at
  /// it (kMaxDurationMs, or INT32_MAX for an option the protocol carries as an int32). 0 otherwise.
  int64_t max;
  /// kEnum and kBool: the accepted values, separated by ", " ("all, -1, 0, 1"). Empty otherwise.
  std::string_view values;
  /// One sentence: what the option does, and the Java (or Kafka) option it follows.
  std::string_view description;
};

/// Every key ParseClientOptions accepts, in the order of the configuration reference (the
/// seed's keys first, then the writer, scanner, lookup, request and security keys): 26 keys.
/// Built on first use; valid for the life of the process. Thread-safe.
const std::vector<ConfigKeyInfo>& ConfigKeys();

/// The entry one of whose spellings (key, seed_key, pyfluss_key) is exactly `spelling` (case
/// matters, as in the parser); nullptr for a key the parser refuses as unknown. Thread-safe.
const ConfigKeyInfo* FindConfigKey(std::string_view spelling);

}  // namespace fluss
