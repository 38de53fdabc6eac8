#include "fluss/scan/log_batch_decoder.h"

#include <arrow/buffer.h>
#include <arrow/record_batch.h>

#include "fluss/record/arrow_log.h"
#include "fluss/record/indexed_log.h"
#include "fluss/row/schema_mapping.h"

namespace fluss::scan {

LogBatchDecoder::LogBatchDecoder(std::shared_ptr<metadata::Cluster> cluster, const TableInfo& table, bool indexed)
    : schemas_(std::make_shared<metadata::TableSchemas>(std::move(cluster), table)),
      target_(table.descriptor.schema),
      target_id_(table.schema_id),
      indexed_(indexed) {}

asio::awaitable<Status> LogBatchDecoder::AddMissing(const std::vector<int16_t>& schema_ids) {
  for (int16_t id : schema_ids) {
    if (schemas_->Find(id)) continue;
    auto schema = co_await schemas_->Get(id);
    if (!schema.ok()) co_return schema.status();
  }
  co_return Status::OK();
}

Result<std::shared_ptr<arrow::RecordBatch>> LogBatchDecoder::Decode(const std::shared_ptr<arrow::Buffer>& slice,
                                                                    const record::LogBatchHeader& h,
                                                                    std::vector<int8_t>* change_types) const {
  const bool own = h.schema_id == target_id_;
  std::shared_ptr<const Schema> source;
  if (!own) {
    source = schemas_->Find(h.schema_id);
    if (!source)
      return Status::Protocol("a batch of schema id " + std::to_string(h.schema_id) + " whose schema was not fetched");
  }
  const auto& arrow_schema = own ? target_.arrow_schema : source->arrow_schema;
  std::shared_ptr<arrow::RecordBatch> rb;
  if (indexed_) {
    FLUSS_ASSIGN_OR_RETURN(rb, record::DecodeIndexedLogBatch(slice, h, arrow_schema,
                                                             h.append_only() ? nullptr : change_types));
  } else {
    FLUSS_ASSIGN_OR_RETURN(rb, record::DecodeArrowLogBatch(slice, h, arrow_schema));
    if (rb && !h.append_only() && change_types) {
      const uint8_t* ct = slice->data() + h.header_size();
      change_types->assign(reinterpret_cast<const int8_t*>(ct), reinterpret_cast<const int8_t*>(ct) + h.record_count);
    }
  }
  if (!rb || own) return rb;
  FLUSS_ASSIGN_OR_RETURN(auto mapping, row::MapColumnsById(*source, target_));
  return row::AdaptBatch(rb, mapping, target_.arrow_schema);
}

}  // namespace fluss::scan
