// Status and Result<T>: the error model of libfluss (Arrow style, no exceptions across the core).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "fluss/error_codes.h"

namespace fluss {

/// Client-side category of a failure. Server errors carry kServer plus the Fluss error code.
enum class StatusCode : int8_t {
  kOk = 0,
  kInvalidArgument,  ///< bad input from the caller (argument, row value, config value)
  kNetwork,          ///< connect failure, connection lost, server closed the connection
  kTimeout,          ///< a request or a wait passed its deadline
  kServer,           ///< the server answered with an error code (see Status::error_code)
  kProtocol,         ///< a malformed or unexpected frame from the server
  kUnsupported,      ///< the server does not serve this API version or feature
  kClosed,           ///< the connection or writer was closed
  kInternal,         ///< a bug in the client
};

/// Client-side error codes put in Status::error_code() when the server did not answer.
/// Server codes are the Fluss codes (fluss::ErrorCode, error_codes.h).
namespace client_error {
inline constexpr int32_t kClientError = -2;        ///< bad input, closed client, internal error
inline constexpr int32_t kNetworkException = 1;    ///< same number as Fluss NETWORK_EXCEPTION
inline constexpr int32_t kUnsupportedVersion = 2;  ///< same number as Fluss UNSUPPORTED_VERSION
inline constexpr int32_t kRequestTimeOut = 25;     ///< same number as Fluss REQUEST_TIME_OUT
}  // namespace client_error

/// Outcome of an operation: OK, or a category, a Fluss error code and a message. Ignoring a
/// returned Status is a compile warning (cast to void where it is meant).
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, int32_t error_code, std::string message)
      : detail_(code == StatusCode::kOk ? nullptr : new Detail{code, error_code, std::move(message), false}) {}
  Status(const Status& other) : detail_(other.detail_ ? new Detail(*other.detail_) : nullptr) {}
  Status(Status&&) noexcept = default;
  Status& operator=(const Status& other) {
    if (this != &other) detail_.reset(other.detail_ ? new Detail(*other.detail_) : nullptr);
    return *this;
  }
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) {
    return Status(StatusCode::kInvalidArgument, client_error::kClientError, std::move(msg));
  }
  static Status Network(std::string msg) {
    return Status(StatusCode::kNetwork, client_error::kNetworkException, std::move(msg));
  }
  static Status Timeout(std::string msg) {
    return Status(StatusCode::kTimeout, client_error::kRequestTimeOut, std::move(msg));
  }
  static Status Protocol(std::string msg) {
    return Status(StatusCode::kProtocol, client_error::kClientError, std::move(msg));
  }
  static Status Unsupported(std::string msg) {
    return Status(StatusCode::kUnsupported, client_error::kUnsupportedVersion, std::move(msg));
  }
  static Status Closed(std::string msg) {
    return Status(StatusCode::kClosed, client_error::kClientError, std::move(msg));
  }
  static Status Internal(std::string msg) {
    return Status(StatusCode::kInternal, client_error::kClientError, std::move(msg));
  }
  /// A server-side error: `error_code` is the Fluss error code, `msg` names the object concerned.
  static Status Server(int32_t error_code, std::string msg) {
    return Status(StatusCode::kServer, error_code, std::move(msg));
  }
  /// A server-side error that is retriable whatever its code says: the server reported a
  /// transient state (e.g. a coordinator still starting) through UNKNOWN_SERVER_ERROR (-1).
  static Status ServerTransient(int32_t error_code, std::string msg) {
    Status st(StatusCode::kServer, error_code, std::move(msg));
    st.detail_->transient = true;
    return st;
  }

  bool ok() const { return detail_ == nullptr; }
  StatusCode code() const { return detail_ ? detail_->code : StatusCode::kOk; }
  /// The Fluss error code (server) or a client_error code; 0 when OK.
  int32_t error_code() const { return detail_ ? detail_->error_code : 0; }
  const std::string& message() const;
  /// True when retrying the same call may succeed (the server's RetriableException family,
  /// connection loss, timeouts, and transient server states reported as ServerTransient).
  bool IsRetriable() const;
  /// "NAME (code): message", e.g. "TABLE_NOT_EXIST (7): table fluss.t does not exist".
  std::string ToString() const;
  /// Returns a copy whose message is prefixed with `context + ": "`.
  Status WithContext(const std::string& context) const;

 private:
  // An OK Status is a null pointer: the hot paths (a Status per converted value) construct,
  // test and destroy it without touching a string.
  struct Detail {
    StatusCode code;
    int32_t error_code;
    std::string message;
    bool transient;
  };
  std::unique_ptr<Detail> detail_;
};

/// A value or an error Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}            // NOLINT(implicit)
  Result(Status status) : v_(std::move(status)) {}     // NOLINT(implicit)
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& operator*() & { return std::get<T>(v_); }
  const T& operator*() const& { return std::get<T>(v_); }
  T&& operator*() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &std::get<T>(v_); }
  const T* operator->() const { return &std::get<T>(v_); }
  T ValueOrDie() && { return std::get<T>(std::move(v_)); }

 private:
  std::variant<T, Status> v_;
};

/// Name of a Fluss error code ("TABLE_NOT_EXIST"), or "UNKNOWN" for an unknown code.
const char* ErrorName(int32_t error_code);

}  // namespace fluss

#define FLUSS_RETURN_NOT_OK(expr)            \
  do {                                       \
    ::fluss::Status _st = (expr);            \
    if (!_st.ok()) return _st;               \
  } while (0)

#define FLUSS_CONCAT_INNER(a, b) a##b
#define FLUSS_CONCAT(a, b) FLUSS_CONCAT_INNER(a, b)
#define FLUSS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(*tmp)
#define FLUSS_ASSIGN_OR_RETURN(lhs, rexpr) \
  FLUSS_ASSIGN_OR_RETURN_IMPL(FLUSS_CONCAT(_res_, __LINE__), lhs, rexpr)
