// The lookup senders of one connection: one LookupSender per table and lookup kind, shared by
// every lookuper of that table, so that lookups from many lookupers (a lookuper per task is a
// common asyncio habit) gather into the same requests per leader, as the Java client's one
// LookupClient per connection does. A sender lives as long as a lookuper holds it.
//
// Thread affinity: any thread (mu_).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "fluss/lookup/lookup_sender.h"

namespace fluss::lookup {

class LookupSenders {
 public:
  explicit LookupSenders(std::shared_ptr<metadata::Cluster> cluster) : cluster_(std::move(cluster)) {}

  /// The point-lookup sender of table `table_id` (named `path` in errors), made on first use.
  std::shared_ptr<LookupSender<PointLookup>> Point(const TablePath& path, int64_t table_id) {
    return Get(point_, path, table_id);
  }
  /// The prefix-lookup sender of table `table_id`, made on first use.
  std::shared_ptr<LookupSender<PrefixLookup>> Prefix(const TablePath& path, int64_t table_id) {
    return Get(prefix_, path, table_id);
  }

 private:
  template <typename Kind>
  using Senders = std::map<int64_t, std::weak_ptr<LookupSender<Kind>>>;

  template <typename Kind>
  std::shared_ptr<LookupSender<Kind>> Get(Senders<Kind>& senders, const TablePath& path, int64_t table_id) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto live = senders[table_id].lock()) return live;
    // Forget senders no lookuper holds any more (tables dropped or no longer looked up).
    for (auto it = senders.begin(); it != senders.end();) it = it->second.expired() ? senders.erase(it) : std::next(it);
    auto made = std::make_shared<LookupSender<Kind>>(cluster_, path, table_id);
    senders[table_id] = made;
    return made;
  }

  const std::shared_ptr<metadata::Cluster> cluster_;
  std::mutex mu_;
  Senders<PointLookup> point_;    // guarded by mu_
  Senders<PrefixLookup> prefix_;  // guarded by mu_
};

}  // namespace fluss::lookup
