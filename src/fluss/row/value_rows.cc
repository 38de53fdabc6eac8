#include "fluss/row/value_rows.h"

#include <set>

#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "fluss/row/schema_mapping.h"

namespace fluss::row {

namespace {

Result<std::vector<std::unique_ptr<arrow::ArrayBuilder>>> MakeBuilders(const arrow::Schema& schema) {
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> out;
  for (const auto& f : schema.fields()) {
    std::unique_ptr<arrow::ArrayBuilder> b;
    auto st = arrow::MakeBuilder(arrow::default_memory_pool(), f->type(), &b);
    if (!st.ok()) return Status::Internal("no Arrow builder for column '" + f->name() + "': " + st.ToString());
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

Result<ValueRowDecoder> ValueRowDecoder::Make(const Schema& target, int16_t target_id, KvFormat format) {
  ValueRowDecoder d(target, format);
  FLUSS_RETURN_NOT_OK(d.AddSchema(target_id, target));
  return d;
}

std::vector<int16_t> ValueRowDecoder::MissingSchemas(const std::vector<std::string_view>& values) const {
  std::set<int16_t> missing;
  for (std::string_view v : values) {
    auto view = ParseValue(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    if (view.ok() && !sources_.count(view->schema_id)) missing.insert(view->schema_id);
  }
  return {missing.begin(), missing.end()};
}

Status ValueRowDecoder::AddSchema(int16_t schema_id, const Schema& source) {
  FLUSS_ASSIGN_OR_RETURN(auto codec, KvRowCodec::Make(*source.arrow_schema, format_));
  FLUSS_ASSIGN_OR_RETURN(auto source_of, MapColumnsById(source, target_));
  Source s{std::move(codec), source.arrow_schema, std::vector<int32_t>(source.arrow_schema->num_fields(), -1), {}};
  for (size_t t = 0; t < source_of.size(); ++t) {
    if (source_of[t] < 0) s.absent.push_back(static_cast<int32_t>(t));
    else s.target_of[static_cast<size_t>(source_of[t])] = static_cast<int32_t>(t);
  }
  sources_.insert_or_assign(schema_id, std::move(s));
  return Status::OK();
}

Result<std::shared_ptr<arrow::RecordBatch>> ValueRowDecoder::Decode(const std::vector<std::string_view>& values,
                                                                    const std::string& where) const {
  FLUSS_ASSIGN_OR_RETURN(auto builders, MakeBuilders(*target_.arrow_schema));
  // Columns of a newer schema than the handle's are decoded into builders that are thrown away.
  std::map<int16_t, std::vector<std::unique_ptr<arrow::ArrayBuilder>>> dropped;
  std::vector<arrow::ArrayBuilder*> raw;
  for (std::string_view v : values) {
    const auto* data = reinterpret_cast<const uint8_t*>(v.data());
    FLUSS_ASSIGN_OR_RETURN(auto view, ParseValue(data, v.size()));
    auto it = sources_.find(view.schema_id);
    if (it == sources_.end())
      return Status::Protocol(where + ": a row of schema id " + std::to_string(view.schema_id) +
                              " whose schema was not fetched");
    const Source& src = it->second;
    raw.assign(src.target_of.size(), nullptr);
    for (size_t c = 0; c < src.target_of.size(); ++c) {
      if (src.target_of[c] >= 0) {
        raw[c] = builders[static_cast<size_t>(src.target_of[c])].get();
        continue;
      }
      auto& scratch = dropped[view.schema_id];
      if (scratch.empty()) {
        FLUSS_ASSIGN_OR_RETURN(scratch, MakeBuilders(*src.schema));
      }
      raw[c] = scratch[c].get();
    }
    FLUSS_RETURN_NOT_OK(DecodeValue(data, v.size(), view.schema_id, src.codec, raw).WithContext(where));
    for (int32_t t : src.absent) {
      auto st = builders[static_cast<size_t>(t)]->AppendNull();
      if (!st.ok()) return Status::Internal(where + ": " + st.ToString());
    }
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (auto& b : builders) {
    std::shared_ptr<arrow::Array> a;
    auto st = b->Finish(&a);
    if (!st.ok()) return Status::Internal("finishing decoded rows: " + st.ToString());
    arrays.push_back(std::move(a));
  }
  return arrow::RecordBatch::Make(target_.arrow_schema, static_cast<int64_t>(values.size()), std::move(arrays));
}

}  // namespace fluss::row
