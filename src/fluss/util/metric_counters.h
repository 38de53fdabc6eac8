// The live counters behind fluss::ClientMetrics (include/fluss/metrics.h): one set per
// connection, shared by its server connections, writers and scanners.
//
// Thread affinity: any thread; every counter is a relaxed atomic.
#pragma once

#include <atomic>
#include <cstdint>

namespace fluss::util {

struct MetricCounters {
  std::atomic<int64_t> records_sent{0};
  std::atomic<int64_t> bytes_sent{0};
  std::atomic<int64_t> batches_sent{0};
  std::atomic<int64_t> write_retries{0};
  std::atomic<int64_t> records_fetched{0};
  std::atomic<int64_t> bytes_fetched{0};
  std::atomic<int64_t> fetch_retries{0};
  std::atomic<int64_t> requests{0};
  std::atomic<int64_t> request_latency_us{0};  // summed over `requests`
  std::atomic<int64_t> request_latency_max_us{0};
  std::atomic<int64_t> batches_in_flight{0};

  static void Add(std::atomic<int64_t>& counter, int64_t n) { counter.fetch_add(n, std::memory_order_relaxed); }

  /// One request answered after `us` microseconds.
  void AddRequest(int64_t us) {
    Add(requests, 1);
    Add(request_latency_us, us);
    int64_t max = request_latency_max_us.load(std::memory_order_relaxed);
    while (us > max && !request_latency_max_us.compare_exchange_weak(max, us, std::memory_order_relaxed)) {
    }
  }
};

}  // namespace fluss::util
