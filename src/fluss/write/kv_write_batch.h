// The primary-key variant of WriteBatch: upserts and deletes of one table bucket in one KV
// record batch (record/kv_batch.h), sent with PutKv. Value rows are encoded on Append in the
// table's kv format, full width (columns a partial update does not write are null).
//
// Thread affinity: as WriteBatch.
#pragma once

#include <string>

#include "fluss/record/kv_batch.h"
#include "fluss/write/write_batch.h"

namespace fluss::write {

class KvWriteBatch final : public EncodedOnAppendBatch<record::KvBatchBuilder, record::SetKvWriterAndSequence> {
 public:
  using EncodedOnAppendBatch::EncodedOnAppendBatch;

  RequestKind kind() const override { return RequestKind::kPutKv; }
  /// An upsert when `record.row` is set, else a delete of `record.key`.
  Result<int64_t> Append(const WriteRecord& record) override;

 private:
  std::string value_;  // scratch for the value row of the record being appended
};

}  // namespace fluss::write
