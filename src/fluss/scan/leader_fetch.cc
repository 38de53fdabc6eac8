#include "fluss/scan/leader_fetch.h"

#include <algorithm>

#include "fluss/protocol/errors.h"
#include "fluss/protocol/fetch_log_response.h"

namespace fluss::scan {

using metadata::TableBucket;

namespace {

/// Whether a per-bucket error of a partition bucket may mean the partition was dropped: the
/// server no longer hosts its replicas (21, 12) or knows it is gone (36). Only the coordinator
/// can tell, so these are checked there before the partition leaves the subscription.
bool MaybeDroppedPartition(int32_t code) {
  return code == protocol::PARTITION_NOT_EXISTS || protocol::IsInvalidMetadataError(code);
}

/// Bytes of a response frame, viewed by Arrow without a copy; the frame lives as long as any
/// slice of it.
class FrameSlice : public arrow::Buffer {
 public:
  FrameSlice(std::shared_ptr<uint8_t[]> frame, const uint8_t* data, int64_t size)
      : arrow::Buffer(data, size), frame_(std::move(frame)) {}

 private:
  std::shared_ptr<uint8_t[]> frame_;
};

}  // namespace

Result<LeaderFetch> TakeLeaderFetch(const net::ResponseBody& response, const std::map<TableBucket, int64_t>& positions,
                                    const std::optional<std::map<TableBucket, int64_t>>& stop, const std::string& table) {
  FLUSS_ASSIGN_OR_RETURN(auto buckets, protocol::ParseFetchLogResponse(response.data, response.size, response.placed_records));
  LeaderFetch out;
  for (const auto& br : buckets) {
    const TableBucket tb{br.table_id, br.bucket.partition_id, br.bucket.bucket_id};
    auto pos_it = positions.find(tb);
    if (pos_it == positions.end()) continue;
    const std::string where = "table " + table + " " + tb.ToString();
    if (br.error_code != protocol::NONE) {
      const int32_t code = br.error_code;
      if (tb.partition_id && MaybeDroppedPartition(code)) {
        out.stale_partitions.insert(*tb.partition_id);
        out.retry = true;
        continue;
      }
      Status e = protocol::ServerError(code, br.error_message, where);
      if (!e.IsRetriable() && code != protocol::FENCED_LEADER_EPOCH_EXCEPTION) return e;
      if (protocol::IsInvalidMetadataError(code)) out.invalidate_table = true;
      out.retry = true;
      continue;
    }
    if (br.has_remote_log_fetch_info)
      return Status::Unsupported(where + ": the requested offsets were tiered to remote storage, which this client does not read yet");
    if (br.records_size == 0) continue;
    std::shared_ptr<arrow::Buffer> buf = std::make_shared<FrameSlice>(
        response.frame, response.data + br.records_offset, static_cast<int64_t>(br.records_size));
    int64_t limit = INT64_MAX;
    if (stop) {
      auto s = stop->find(tb);
      if (s != stop->end()) limit = s->second;
    }
    int64_t pos = pos_it->second;
    record::LogBatchIterator it(buf->data(), static_cast<size_t>(buf->size()));
    record::LogBatchHeader h;
    const uint8_t* p = nullptr;
    Status iter_status;
    while (it.Next(&h, &p, &iter_status)) {
      if (h.next_offset() <= pos) continue;  // before the fetch offset
      if (h.base_offset >= limit) break;
      const int64_t from = std::max<int64_t>(0, pos - h.base_offset);
      const int64_t to = std::min<int64_t>(h.last_offset_delta + 1, limit - h.base_offset);
      if (h.record_count > 0 && to > from) {
        RawBatch raw;
        raw.bucket = tb;
        raw.slice = arrow::SliceBuffer(buf, p - buf->data(), static_cast<int64_t>(h.batch_size()));
        raw.header = h;
        raw.from = from;
        raw.to = to;
        out.batches.push_back(std::move(raw));
      }
      pos = std::min<int64_t>(h.next_offset(), limit);
      if (h.next_offset() > limit) break;
    }
    if (!iter_status.ok()) return iter_status.WithContext(where);
    if (pos != pos_it->second) out.next_positions[tb] = pos;
    if (pos < limit && it.truncated_batch_bytes() > 0)
      out.next_batch_bytes[tb] = static_cast<int64_t>(it.truncated_batch_bytes());
  }
  return out;
}

}  // namespace fluss::scan
