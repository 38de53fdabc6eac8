// Conversions between the Arrow units values are given in and the units Fluss rows store
// (protocol-data.md section 0): TIME = int32 milliseconds of day whatever the declared precision;
// TIMESTAMP / TIMESTAMP_LTZ = (int64 epoch millisecond, floored, int32 nano-of-millisecond in
// 0..999999). `unit` arguments are arrow::TimeUnit::type values.
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>
#include <limits>

#include <arrow/type_fwd.h>

namespace fluss::row {

/// Java Math.floorDiv / floorMod for b > 0.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

/// Ticks of `unit` per millisecond; 0 for seconds (coarser than a millisecond).
inline int64_t UnitsPerMilli(int unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return 0;
    case arrow::TimeUnit::MILLI: return 1;
    case arrow::TimeUnit::MICRO: return 1000;
    default: return 1000000;  // NANO
  }
}

/// Epoch value `v` in `unit` -> (epoch millis floored, nano-of-milli in 0..999999). False when
/// seconds overflow the millisecond range.
inline bool TimestampToMillis(int64_t v, int unit, int64_t* millis, int32_t* nanos) {
  const int64_t per_ms = UnitsPerMilli(unit);
  if (per_ms == 0) {
    *nanos = 0;
    return !__builtin_mul_overflow(v, int64_t{1000}, millis);
  }
  *millis = FloorDiv(v, per_ms);
  *nanos = static_cast<int32_t>(FloorMod(v, per_ms) * (1000000 / per_ms));
  return true;
}

/// (epoch millis, nano-of-milli) -> epoch value in `unit` (floored for seconds, sub-unit nanos
/// dropped). False on int64 overflow.
inline bool TimestampFromMillis(int64_t millis, int32_t nanos, int unit, int64_t* v) {
  const int64_t per_ms = UnitsPerMilli(unit);
  if (per_ms == 0) {
    *v = FloorDiv(millis, 1000);
    return true;
  }
  int64_t m;
  if (__builtin_mul_overflow(millis, per_ms, &m)) return false;
  return !__builtin_add_overflow(m, int64_t{nanos} / (1000000 / per_ms), v);
}

/// TIME value `v` in `unit` -> milliseconds of day (sub-millisecond part dropped, as Java).
/// False when the result does not fit int32.
inline bool TimeToMillis(int64_t v, int unit, int32_t* ms) {
  const int64_t per_ms = UnitsPerMilli(unit);
  int64_t m = 0;
  if (per_ms == 0) {
    if (__builtin_mul_overflow(v, int64_t{1000}, &m)) return false;
  } else {
    m = FloorDiv(v, per_ms);
  }
  if (m < std::numeric_limits<int32_t>::min() || m > std::numeric_limits<int32_t>::max()) return false;
  *ms = static_cast<int32_t>(m);
  return true;
}

/// Milliseconds of day -> TIME value in `unit` (floored for seconds).
inline int64_t TimeFromMillis(int32_t ms, int unit) {
  const int64_t per_ms = UnitsPerMilli(unit);
  return per_ms == 0 ? FloorDiv(ms, 1000) : int64_t{ms} * per_ms;
}

}  // namespace fluss::row
