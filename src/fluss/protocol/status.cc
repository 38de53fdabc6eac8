// fluss::Status methods that need the server error table (names, retry classification), so they
// live in protocol/ next to errors.cc: util/ depends on nothing.
#include "fluss/status.h"

#include "fluss/protocol/errors.h"

namespace fluss {

const char* ErrorName(int32_t error_code) {
  if (error_code == client_error::kClientError) return "CLIENT_ERROR";
  return protocol::ErrorCodeName(error_code);
}

bool Status::IsRetriable() const {
  if (transient_) return true;
  switch (code_) {
    case StatusCode::kNetwork:
    case StatusCode::kTimeout:
      return true;
    case StatusCode::kServer:
      return protocol::IsRetriableError(error_code_);
    default:
      return false;
  }
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(ErrorName(error_code_)) + " (" + std::to_string(error_code_) + "): " + message_;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  Status out(code_, error_code_, context + ": " + message_);
  out.transient_ = transient_;
  return out;
}

}  // namespace fluss
