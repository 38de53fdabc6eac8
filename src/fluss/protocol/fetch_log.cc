#include "fluss/protocol/fetch_log.h"

namespace fluss::protocol {

proto::FetchLogRequest MakeFetchLogRequest(const FetchLogTable& table, int32_t max_bytes, int32_t max_wait_ms,
                                           int32_t min_bytes) {
  proto::FetchLogRequest req;
  req.set_follower_server_id(-1);
  req.set_max_bytes(max_bytes);
  if (max_wait_ms > 0) {
    req.set_min_bytes(min_bytes);
    req.set_max_wait_ms(max_wait_ms);
  }
  auto* t = req.add_tables_req();
  t->set_table_id(table.table_id);
  t->set_projection_pushdown_enabled(!table.projected_fields.empty());
  for (int32_t f : table.projected_fields) t->add_projected_fields(f);
  for (const auto& b : table.buckets) {
    auto* br = t->add_buckets_req();
    if (b.bucket.partition_id) br->set_partition_id(*b.bucket.partition_id);
    br->set_bucket_id(b.bucket.bucket_id);
    br->set_fetch_offset(b.fetch_offset);
    br->set_max_fetch_bytes(b.max_fetch_bytes);
  }
  return req;
}

}  // namespace fluss::protocol
