#include "fluss/protocol/errors.h"

namespace fluss::protocol {

std::string ServerMessage(int32_t code, const std::string& message) {
  if (code != UNKNOWN_SERVER_ERROR) return message;
  const size_t nl = message.find('\n');
  if (nl == std::string::npos) return message;
  return message.substr(0, nl) + " (server stack trace omitted)";
}

namespace {
bool Contains(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }
}  // namespace

Status ServerError(int32_t code, const std::string& message, const std::string& context) {
  std::string shown = ServerMessage(code, message);
  if (shown.empty()) shown = ErrorCodeName(code);
  if (!context.empty()) shown = context + ": " + shown;
  if (code == UNKNOWN_SERVER_ERROR) {
    // The Java exception's class name or text is in the message (first line or stack trace).
    if (Contains(message, "TableNotExistException") || Contains(message, "Failed to get tables") ||
        (Contains(message, "Table ") && Contains(message, "does not exist")))
      return Status::Server(TABLE_NOT_EXIST, shown);
    if (Contains(message, "not initialized yet") || Contains(message, "NotCoordinatorLeader") ||
        Contains(message, "is not ready") || Contains(message, "ServerNotExist"))
      return Status::ServerTransient(code, shown + " (transient: the server is starting or changing roles)");
  }
  return Status::Server(code, shown);
}

bool IsInvalidMetadataError(int32_t code) {
  return code == NETWORK_EXCEPTION || code == NOT_LEADER_OR_FOLLOWER ||
         code == UNKNOWN_TABLE_OR_BUCKET_EXCEPTION || code == LEADER_NOT_AVAILABLE_EXCEPTION;
}

}  // namespace fluss::protocol
