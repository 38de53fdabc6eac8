// LimitScan (api key 1033; protocol-rpc.md 11.6) of one bucket, asked of its leader: the first
// records of a log table's bucket, or rows of a primary-key table's current state, decoded into
// one Arrow record batch of the table's schema.
//
// Thread affinity: I/O thread only.
#pragma once

#include <memory>

#include <arrow/type_fwd.h>
#include <asio.hpp>

#include "fluss/metadata/cluster.h"
#include "fluss/types.h"

namespace fluss::scan {

/// At most `limit` (> 0) rows of `bucket` of the non-partitioned table `table`. Leader changes
/// are retried until client.request-timeout. Fails with kInvalidArgument for a bucket outside
/// the table or a limit below 1, kUnsupported for a partitioned table, or the server's error.
asio::awaitable<Result<std::shared_ptr<arrow::RecordBatch>>> LimitScan(std::shared_ptr<metadata::Cluster> cluster,
                                                                       TableInfo table, int32_t bucket, int32_t limit);

}  // namespace fluss::scan
