// Value bytes of a primary-key table ([int16 schema id][row], row/kv_value.h) decoded into one
// Arrow record batch: what lookups, prefix lookups and limit scans of primary-key tables return.
//
// Thread affinity: none; a pure function.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/row/kv_value.h"
#include "fluss/status.h"

namespace fluss::row {

/// Decodes `values` (each one value's bytes) with `codec`, made for `schema` under `schema_id`,
/// into a record batch of `schema` with one row per value, in order. Fails with kProtocol for a
/// malformed value and kUnsupported for a value written under another schema id (schema
/// changes); `where` names the table in errors.
Result<std::shared_ptr<arrow::RecordBatch>> DecodeValueRows(const std::shared_ptr<arrow::Schema>& schema,
                                                            int16_t schema_id, const KvRowCodec& codec,
                                                            const std::vector<std::string_view>& values,
                                                            const std::string& where);

}  // namespace fluss::row
