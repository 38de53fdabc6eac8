#include "fluss/scan/projected_decoder.h"

#include <arrow/buffer.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include <algorithm>
#include <set>

#include "fluss/protocol/errors.h"
#include "fluss/record/arrow_log.h"

namespace fluss::scan {

Result<std::unique_ptr<ProjectedDecoder>> ProjectedDecoder::Create(std::shared_ptr<metadata::Cluster> cluster,
                                                                   const TableInfo& table, bool arrow_format,
                                                                   std::vector<int32_t> projection) {
  std::unique_ptr<ProjectedDecoder> s(new ProjectedDecoder(table));
  s->check_crc_ = cluster->options().scanner_check_crc;
  const auto& full = table.descriptor.schema.arrow_schema;
  const int n = full->num_fields();
  std::set<int32_t> seen;
  for (int32_t i : projection) {
    if (i < 0 || i >= n)
      return Status::InvalidArgument("projection: column index " + std::to_string(i) + " is out of range (table has " +
                                     std::to_string(n) + " columns)");
    if (!seen.insert(i).second)
      return Status::InvalidArgument("projection: column index " + std::to_string(i) + " appears twice");
  }
  s->projection_ = std::move(projection);
  s->decoder_ = std::make_shared<LogBatchDecoder>(std::move(cluster), table, !arrow_format);
  // Projection pushdown names columns by position, resolved against each batch's own schema
  // (protocol-data.md 2.5). Columns added by a schema change exist only in later batches, so
  // once the handle's schema is not the first one the scanner fetches whole rows and projects
  // them itself.
  s->pushdown_ = arrow_format && !s->projection_.empty() && table.schema_id <= 1;
  if (s->projection_.empty()) {
    s->read_schema_ = full;
    s->out_schema_ = full;
    return s;
  }
  s->sorted_projection_.assign(seen.begin(), seen.end());
  std::vector<std::shared_ptr<arrow::Field>> read_fields, out_fields;
  for (int32_t i : s->sorted_projection_) read_fields.push_back(full->field(i));
  for (int32_t i : s->projection_) {
    out_fields.push_back(full->field(i));
    s->reorder_.push_back(static_cast<int>(std::lower_bound(s->sorted_projection_.begin(), s->sorted_projection_.end(), i) -
                                           s->sorted_projection_.begin()));
  }
  s->read_schema_ = arrow::schema(read_fields);
  s->out_schema_ = arrow::schema(out_fields);
  return s;
}

Result<std::vector<ScanBatch>> ProjectedDecoder::DecodeAll(std::vector<RawBatch> raw) const {
  const bool projected = pushdown_;
  std::vector<ScanBatch> out;
  out.reserve(raw.size());
  for (auto& r : raw) {
    const std::string where = "table " + table_.table_path.ToString() + " " + r.bucket.ToString();
    const auto& h = r.header;
    // Projected fetches keep the original (stale) CRC, so only whole batches are checked
    // (and none with client.scanner.log.check-crc = false).
    if (!projected && check_crc_ && record::ComputeBatchCrc(r.slice->data(), static_cast<size_t>(r.slice->size())) != h.crc)
      return Status::Server(protocol::CORRUPT_RECORD_EXCEPTION,
                            where + ": CRC mismatch in the batch at offset " + std::to_string(h.base_offset));
    std::vector<int8_t> change_types;
    auto rb = Decode(r.slice, h, &change_types);
    if (!rb.ok()) return rb.status().WithContext(where);
    if (!*rb) continue;
    const int64_t to = std::min<int64_t>(r.to, (*rb)->num_rows());
    if (to <= r.from) continue;
    ScanBatch sb;
    sb.bucket = r.bucket.bucket;
    sb.partition_id = r.bucket.partition_id;
    sb.base_offset = h.base_offset + r.from;
    sb.last_offset = h.base_offset + to - 1;
    sb.commit_timestamp = h.commit_timestamp;
    if (r.from == 0 && to == (*rb)->num_rows()) sb.batch = *rb;
    else sb.batch = (*rb)->Slice(r.from, to - r.from);
    if (!change_types.empty()) sb.change_types.assign(change_types.begin() + r.from, change_types.begin() + to);
    out.push_back(std::move(sb));
  }
  return out;
}

Result<std::shared_ptr<arrow::RecordBatch>> ProjectedDecoder::Decode(const std::shared_ptr<arrow::Buffer>& slice,
                                                                   const record::LogBatchHeader& h,
                                                                   std::vector<int8_t>* change_types) const {
  if (!pushdown_) {
    // Whole rows (INDEXED, no projection, or a table whose schema changed): decode every
    // column under the batch's own schema, then project in the client.
    FLUSS_ASSIGN_OR_RETURN(auto rb, decoder_->Decode(slice, h, change_types));
    if (!rb || projection_.empty()) return rb;
    std::vector<std::shared_ptr<arrow::Array>> cols;
    for (int32_t i : projection_) cols.push_back(rb->column(i));
    return arrow::RecordBatch::Make(out_schema_, rb->num_rows(), std::move(cols));
  }
  FLUSS_ASSIGN_OR_RETURN(auto rb, record::DecodeArrowLogBatch(slice, h, read_schema_));
  if (!rb) return rb;
  if (!h.append_only()) {
    const uint8_t* ct = slice->data() + h.header_size();
    change_types->assign(reinterpret_cast<const int8_t*>(ct), reinterpret_cast<const int8_t*>(ct) + h.record_count);
  }
  if (reorder_.empty()) return rb;
  std::vector<std::shared_ptr<arrow::Array>> cols;
  for (int i : reorder_) cols.push_back(rb->column(i));
  return arrow::RecordBatch::Make(out_schema_, rb->num_rows(), std::move(cols));
}

asio::awaitable<Result<std::vector<ScanBatch>>> ProjectedDecoder::DecodeFetched(std::vector<RawBatch> raw) {
  std::set<int16_t> others;
  if (!pushdown_)
    for (const auto& r : raw)
      if (r.header.schema_id != table_.schema_id) others.insert(r.header.schema_id);
  if (!others.empty()) {
    Status st = co_await decoder_->AddMissing(std::vector<int16_t>(others.begin(), others.end()));
    if (!st.ok()) co_return st.WithContext("table " + table_.table_path.ToString());
  }
  co_return DecodeAll(std::move(raw));
}

}  // namespace fluss::scan
