// Small facts about fluss::Value kinds and time units shared by the row encoders and the
// writer's validation.
#pragma once

#include <cstdint>

#include <arrow/type_fwd.h>

#include "fluss/client.h"

namespace fluss::row {

/// The Python-facing name of a value kind, for error messages ("int", "bytes", ...).
inline const char* KindName(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNull: return "null";
    case Value::Kind::kBool: return "bool";
    case Value::Kind::kInt64: return "int";
    case Value::Kind::kDouble: return "float";
    case Value::Kind::kBytes: return "bytes";
    case Value::Kind::kDecimal: return "decimal";
    case Value::Kind::kArray: return "array";
    case Value::Kind::kMap: return "map";
    case Value::Kind::kRow: return "row";
  }
  return "?";
}

/// Ticks of `unit` in one day (the exclusive upper bound of a TIME value).
inline int64_t UnitsPerDay(arrow::TimeUnit::type unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return 86400LL;
    case arrow::TimeUnit::MILLI: return 86400LL * 1000;
    case arrow::TimeUnit::MICRO: return 86400LL * 1000000;
    case arrow::TimeUnit::NANO: return 86400LL * 1000000000;
  }
  return 0;
}

}  // namespace fluss::row
