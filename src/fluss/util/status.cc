// fluss::Status methods. Names and retry classification of server codes come from the one table
// of include/fluss/error_codes.h, so util/ still depends on nothing.
#include "fluss/status.h"

#include "fluss/error_codes.h"

namespace fluss {

const char* ErrorName(int32_t error_code) {
  if (error_code == client_error::kClientError) return "CLIENT_ERROR";
  return ErrorCodeName(error_code);
}

bool Status::IsRetriable() const {
  if (transient_) return true;
  switch (code_) {
    case StatusCode::kNetwork:
    case StatusCode::kTimeout:
      return true;
    case StatusCode::kServer:
      return IsRetriableErrorCode(error_code_);
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
