// InitWriterRequest (api key 1026; protocol-rpc.md 9.1): a writer id for idempotent writes to
// the tables named, asked of any tablet server.
//   InitWriterRequest: 1 table_path rep PbTablePath
//   InitWriterResponse: 1 writer_id int64
//
// Thread affinity: none; pure functions.
#pragma once

#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/types.h"

namespace fluss::protocol {

/// The InitWriterRequest for `tables`, in the given order.
proto::InitWriterRequest MakeInitWriterRequest(const std::vector<TablePath>& tables);

}  // namespace fluss::protocol
