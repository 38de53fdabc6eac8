#include "fluss/write/kv_write_batch.h"

namespace fluss::write {

Result<int64_t> KvWriteBatch::Append(const WriteRecord& record) {
  const int64_t before = builder_.size_in_bytes();
  if (record.row) {
    value_.clear();
    FLUSS_RETURN_NOT_OK(table()->kv_codec->Encode(record.row, &value_));
    FLUSS_RETURN_NOT_OK(builder_.AppendUpsert(record.key, value_));
  } else {
    FLUSS_RETURN_NOT_OK(builder_.AppendDelete(record.key));
  }
  return builder_.size_in_bytes() - before;
}

}  // namespace fluss::write
