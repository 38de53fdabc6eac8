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
#include "fluss/metadata/table_bucket.h"
#include "fluss/types.h"

namespace fluss::scan {

/// At most `limit` (> 0) rows of `bucket` of `table` (its table id is ignored; the partition id
/// is set exactly for a partitioned table). Leaders are learnt at the coordinator; leader
/// changes are retried until client.request-timeout. Fails with kInvalidArgument for a bucket
/// outside the table, a partition id on the wrong kind of table or a limit below 1,
/// PARTITION_NOT_EXISTS (36) for a partition the coordinator does not know, TABLE_NOT_EXIST (7)
/// for a dropped (or re-created) table, or the server's error.
asio::awaitable<Result<std::shared_ptr<arrow::RecordBatch>>> LimitScan(std::shared_ptr<metadata::Cluster> cluster,
                                                                       TableInfo table, metadata::TableBucket bucket,
                                                                       int32_t limit);

}  // namespace fluss::scan
