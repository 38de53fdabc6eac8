// Building the answers of the fake servers' handlers (fake_servers.h): answer messages,
// request-level errors, the silence of a real server, and per-bucket answer fields, shared by
// the admin handlers (fake_servers.cc) and the data-plane ones (fake_data_plane.cc).
//
// Thread affinity: none; pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <google/protobuf/message.h>

#include "fake/fake_servers.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"

namespace fluss::fake {

/// A successful answer with response message `m`.
inline Answer Respond(std::unique_ptr<google::protobuf::Message> m) {
  Answer a;
  a.response = std::move(m);
  return a;
}

/// An ERROR_RESPONSE answer: the whole request fails with `code`.
inline Answer Fail(int32_t code, std::string message) {
  Answer a;
  a.error_code = code;
  a.error_message = std::move(message);
  return a;
}

/// What a real server does with a body it cannot parse: nothing (protocol-rpc.md 1.3).
inline Answer Silence() {
  Answer a;
  a.silent = true;
  return a;
}

/// Wall-clock milliseconds, for commit timestamps (as the leader's clock).
inline int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// Parses a request body; false when it is not a `Msg`.
template <typename Msg>
inline bool Parse(std::string_view body, Msg* m) {
  return m->ParseFromArray(body.data(), static_cast<int>(body.size()));
}

/// The TablePath of a request's path message.
inline TablePath PathOf(const proto::PbTablePath& p) { return TablePath{p.database_name(), p.table_name()}; }

/// The partition id of a request entry, if it names one.
template <typename In>
inline std::optional<int64_t> PartitionOf(const In& in) {
  return in.has_partition_id() ? std::optional<int64_t>(in.partition_id()) : std::nullopt;
}

/// TABLE_NOT_EXIST with the real server's message.
inline Answer TableNotExist(const proto::PbTablePath& p) {
  return Fail(protocol::TABLE_NOT_EXIST, "Table '" + PathOf(p).ToString() + "' does not exist.");
}

/// Starts a per-bucket answer: the partition and bucket id of the request entry `in`.
template <typename Out, typename In>
inline void Echo(Out* out, const In& in) {
  if (in.has_partition_id()) out->set_partition_id(in.partition_id());
  out->set_bucket_id(in.bucket_id());
}

/// Writes error `code` (with `message`) into the per-bucket answer `out` unless it is 0; true then.
template <typename Out>
inline bool Refused(Out* out, int32_t code, const std::string& message) {
  if (code == 0) return false;
  out->set_error_code(code);
  out->set_error_message(message);
  return true;
}

inline bool ValidAcks(int32_t acks) { return acks == 0 || acks == 1 || acks == -1; }

/// The request-level error of a write with acks outside {0, 1, -1} (protocol-rpc.md 11.1).
inline Answer InvalidAcks(int32_t acks) {
  return Fail(protocol::INVALID_REQUIRED_ACKS, "Invalid required acks: " + std::to_string(acks));
}

}  // namespace fluss::fake
