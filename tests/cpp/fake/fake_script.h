// What a test tells the fake cluster to do with each request: the request as the fake saw it
// (api key, request id, server, the buckets and batches it names, how often the same batch came
// before) and the action to take (answer, fail with an error code, delay, hold, drop, store
// and drop, close the connection, or answer with a malformed frame).
//
// Thread affinity: a Script runs on the fake cluster's I/O thread, one request at a time, with
// no lock of the cluster held (it may call the cluster's accessors).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/message.h>

#include "fluss/protocol/api_keys.h"

namespace fluss::fake {

/// The server role of the coordinator in Request::server (tablet servers are 0, 1, ...).
inline constexpr int32_t kCoordinator = -1;

/// One record batch of a ProduceLog request, as its header says.
struct RequestBatch {
  int32_t bucket = 0;
  int64_t writer_id = -1;
  int32_t sequence = -1;
  int32_t record_count = 0;
  /// How many times this batch reached the cluster before (by writer id and sequence, or by its
  /// CRC without writer id): 0 for the first send, 1 for the first retry, ...
  int attempt = 0;
};

/// A request as the fake received it.
struct Request {
  protocol::ApiKey api_key = protocol::ApiKey::API_VERSIONS;
  int16_t api_version = 0;
  int32_t request_id = 0;
  int32_t server = kCoordinator;  ///< kCoordinator or the tablet server id
  uint64_t connection = 0;        ///< connections are numbered 1, 2, ... cluster-wide, in accept order
  int nth = 0;                    ///< requests of this api key the cluster received before this one
  std::vector<int32_t> buckets;   ///< buckets named (ProduceLog, FetchLog, ListOffsets, PutKv, Lookup)
  std::vector<RequestBatch> batches;  ///< ProduceLog: the batch of each bucket
};

/// Malformed answers (the request itself is not applied unless Applied() says so).
enum class MalformedKind {
  kNegativeLength,       ///< frame length -1
  kHugeLength,           ///< frame length 2^31 - 1 (no such frame follows)
  kUnknownResponseType,  ///< a frame whose type byte is 7
  kGarbageBody,          ///< a SUCCESS frame for the request whose body is not protobuf
  kServerFailure,        ///< a SERVER_FAILURE frame (no request id), then the connection closes
};

/// What the fake does with one request. Build one with the factories and chain the modifiers.
struct Action {
  enum class Kind {
    kAnswer,        ///< the normal answer (per-bucket errors where `bucket_error` says)
    kRequestError,  ///< an ERROR_RESPONSE frame with `error_code`; nothing applied
    kDrop,          ///< no answer at all
    kClose,         ///< the connection is closed on arrival
    kMalformed,     ///< a malformed frame (`malformed`)
  };
  Kind kind = Kind::kAnswer;
  /// Whether the request takes effect (a produce stores its batches). Default: true for
  /// kAnswer, false for the others; Applied() makes a dropped, closed or malformed answer follow
  /// an applied request (the "lost response" of a write that was stored).
  bool apply = true;
  int32_t error_code = 0;
  std::string error_message;
  /// kAnswer with error_code != 0: the buckets answered with `error_code` instead of being
  /// applied (empty: every bucket of the request).
  std::set<int32_t> error_buckets;
  MalformedKind malformed = MalformedKind::kGarbageBody;
  int64_t delay_ms = 0;   ///< the answer leaves this long after the request arrived
  std::string hold;       ///< non-empty: the answer waits until Release(hold) (or ThenRelease)
  std::string release;    ///< non-empty: once this answer is written, answers held under it follow
  /// Rewrites the response message before it is serialised (kAnswer only); the message is the
  /// api's XxxResponse, e.g. proto::FetchLogResponse.
  std::function<void(google::protobuf::Message&)> edit;

  static Action Answer() { return Action{}; }
  /// Every bucket of the request (or `buckets`) answers `code`; the others are applied.
  static Action BucketError(int32_t code, std::string message = "", std::set<int32_t> buckets = {}) {
    Action a;
    a.error_code = code;
    a.error_message = std::move(message);
    a.error_buckets = std::move(buckets);
    return a;
  }
  /// The whole request fails with an ERROR_RESPONSE carrying `code`.
  static Action RequestError(int32_t code, std::string message = "") {
    Action a = Of(Kind::kRequestError);
    a.error_code = code;
    a.error_message = std::move(message);
    return a;
  }
  static Action Drop() { return Of(Kind::kDrop); }
  /// Applied, but the answer never comes: the lost response of a stored write.
  static Action StoreAndDrop() { return Drop().Applied(); }
  static Action Close() { return Of(Kind::kClose); }
  static Action StoreAndClose() { return Close().Applied(); }
  static Action Malformed(MalformedKind m) {
    Action a = Of(Kind::kMalformed);
    a.malformed = m;
    return a;
  }
  Action& Applied() {
    apply = true;
    return *this;
  }
  /// The answer waits until FakeCluster::Release(tag) is called or an answer with
  /// ThenRelease(tag) is written (the request itself is handled on arrival).
  Action& Hold(std::string tag) {
    hold = std::move(tag);
    return *this;
  }
  Action& After(int64_t ms) {
    delay_ms = ms;
    return *this;
  }
  Action& ThenRelease(std::string tag) {
    release = std::move(tag);
    return *this;
  }
  Action& Edit(std::function<void(google::protobuf::Message&)> f) {
    edit = std::move(f);
    return *this;
  }

 private:
  static Action Of(Kind k) {
    Action a;
    a.kind = k;
    a.apply = false;
    return a;
  }
};

/// Decides the action for each request (Action::Answer() when no script is set).
using Script = std::function<Action(const Request&)>;

}  // namespace fluss::fake
