// fluss::Status methods. Names and retry classification of server codes come from the one table
// of include/fluss/error_codes.h, so util/ still depends on nothing.
#include "fluss/status.h"

#include "fluss/error_codes.h"

namespace fluss {

const char* ErrorName(int32_t error_code) {
  if (error_code == client_error::kClientError) return "CLIENT_ERROR";
  return ErrorCodeName(error_code);
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return detail_ ? detail_->message : kEmpty;
}

bool Status::IsRetriable() const {
  if (!detail_) return false;
  if (detail_->transient) return true;
  switch (detail_->code) {
    case StatusCode::kNetwork:
    case StatusCode::kTimeout:
      return true;
    case StatusCode::kServer:
      return IsRetriableErrorCode(detail_->error_code);
    default:
      return false;
  }
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(ErrorName(detail_->error_code)) + " (" + std::to_string(detail_->error_code) + "): " +
         detail_->message;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  Status out(detail_->code, detail_->error_code, context + ": " + detail_->message);
  out.detail_->transient = detail_->transient;
  return out;
}

}  // namespace fluss
