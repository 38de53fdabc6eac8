#include "fluss/row/value_rows.h"

#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

namespace fluss::row {

Result<std::shared_ptr<arrow::RecordBatch>> DecodeValueRows(const std::shared_ptr<arrow::Schema>& schema,
                                                            int16_t schema_id, const KvRowCodec& codec,
                                                            const std::vector<std::string_view>& values,
                                                            const std::string& where) {
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> builders;
  std::vector<arrow::ArrayBuilder*> raw;
  for (const auto& f : schema->fields()) {
    std::unique_ptr<arrow::ArrayBuilder> b;
    auto st = arrow::MakeBuilder(arrow::default_memory_pool(), f->type(), &b);
    if (!st.ok()) return Status::Internal("no Arrow builder for column '" + f->name() + "': " + st.ToString());
    raw.push_back(b.get());
    builders.push_back(std::move(b));
  }
  for (std::string_view v : values) {
    const auto* data = reinterpret_cast<const uint8_t*>(v.data());
    FLUSS_ASSIGN_OR_RETURN(auto view, ParseValue(data, v.size()));
    if (view.schema_id != schema_id)
      return Status::Unsupported(where + ": a row was written under schema id " + std::to_string(view.schema_id) +
                                 " but the table handle has schema id " + std::to_string(schema_id) +
                                 "; get the table again (schema changes are not supported yet)");
    FLUSS_RETURN_NOT_OK(DecodeValue(data, v.size(), schema_id, codec, raw).WithContext(where));
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (auto& b : builders) {
    std::shared_ptr<arrow::Array> a;
    auto st = b->Finish(&a);
    if (!st.ok()) return Status::Internal("finishing decoded rows: " + st.ToString());
    arrays.push_back(std::move(a));
  }
  return arrow::RecordBatch::Make(schema, static_cast<int64_t>(values.size()), std::move(arrays));
}

}  // namespace fluss::row
