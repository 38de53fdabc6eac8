#include "fluss/row/schema_mapping.h"

#include <map>

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

namespace fluss::row {

namespace {

int32_t ColumnId(const Schema& s, int i) {
  return s.column_ids.empty() ? i : s.column_ids[static_cast<size_t>(i)];
}

}  // namespace

Result<std::vector<int32_t>> MapColumnsById(const Schema& source, const Schema& target) {
  std::map<int32_t, int> by_id;
  for (int i = 0; i < source.arrow_schema->num_fields(); ++i) by_id[ColumnId(source, i)] = i;
  std::vector<int32_t> out;
  for (int i = 0; i < target.arrow_schema->num_fields(); ++i) {
    auto it = by_id.find(ColumnId(target, i));
    if (it == by_id.end()) {
      out.push_back(-1);
      continue;
    }
    const auto& want = target.arrow_schema->field(i);
    const auto& have = source.arrow_schema->field(it->second);
    if (!want->type()->Equals(*have->type()))
      return Status::Unsupported("column '" + want->name() + "' is " + want->type()->ToString() +
                                 " in the table handle's schema but " + have->type()->ToString() +
                                 " in the schema the rows were written under");
    out.push_back(it->second);
  }
  return out;
}

Result<std::shared_ptr<arrow::RecordBatch>> AdaptBatch(const std::shared_ptr<arrow::RecordBatch>& batch,
                                                       const std::vector<int32_t>& mapping,
                                                       const std::shared_ptr<arrow::Schema>& target) {
  std::vector<std::shared_ptr<arrow::Array>> columns;
  columns.reserve(mapping.size());
  for (size_t i = 0; i < mapping.size(); ++i) {
    if (mapping[i] >= 0) {
      columns.push_back(batch->column(mapping[i]));
      continue;
    }
    auto nulls = arrow::MakeArrayOfNull(target->field(static_cast<int>(i))->type(), batch->num_rows());
    if (!nulls.ok()) return Status::Internal("null column '" + target->field(static_cast<int>(i))->name() +
                                             "': " + nulls.status().ToString());
    columns.push_back(std::move(*nulls));
  }
  return arrow::RecordBatch::Make(target, batch->num_rows(), std::move(columns));
}

}  // namespace fluss::row
