// Value bytes of a primary-key table ([int16 schema id][row], row/kv_value.h) decoded into one
// Arrow record batch of the table handle's schema: what lookups, prefix lookups and limit scans
// of primary-key tables return. Each value is decoded with the schema it was written under and
// its columns matched to the handle's by column id (row/schema_mapping.h).
//
// Thread affinity: none; the owner serialises AddSchema with Decode.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/row/kv_value.h"
#include "fluss/status.h"
#include "fluss/types.h"

namespace fluss::row {

class ValueRowDecoder {
 public:
  /// Decodes into rows of `target`, the handle's schema of id `target_id`, values written in the
  /// table's kv `format`. Fails with kInvalidArgument naming a column without a Fluss type.
  static Result<ValueRowDecoder> Make(const Schema& target, int16_t target_id, KvFormat format);

  /// The schema ids of `values` that AddSchema has not been given yet, each once, ascending.
  /// Values too short to hold a schema id are left to Decode to report.
  std::vector<int16_t> MissingSchemas(const std::vector<std::string_view>& values) const;

  /// Adds `source`, the schema rows of `schema_id` were written under (GetTableSchema). Fails
  /// with kUnsupported when a column matched by id has another type.
  Status AddSchema(int16_t schema_id, const Schema& source);

  /// One row per value, in order. Fails with kProtocol for a malformed value or a schema id not
  /// added; `where` names the table in errors.
  Result<std::shared_ptr<arrow::RecordBatch>> Decode(const std::vector<std::string_view>& values,
                                                     const std::string& where) const;

  const std::shared_ptr<arrow::Schema>& schema() const { return target_.arrow_schema; }

 private:
  struct Source {
    KvRowCodec codec;
    std::shared_ptr<arrow::Schema> schema;
    std::vector<int32_t> target_of;  // per source column: the target column, or -1 (dropped)
    std::vector<int32_t> absent;     // target columns the source lacks: null
  };
  ValueRowDecoder(Schema target, KvFormat format) : target_(std::move(target)), format_(format) {}
  Schema target_;
  KvFormat format_;
  std::map<int16_t, Source> sources_;
};

}  // namespace fluss::row
