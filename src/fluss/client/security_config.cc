#include "fluss/client/security_config.h"

#include <cctype>

namespace fluss::client {

namespace {

constexpr const char* kPlainLoginModule = "org.apache.fluss.security.auth.sasl.plain.PlainLoginModule";

Status Invalid(const std::string& key, const std::string& what) {
  return Status::InvalidArgument("config '" + key + "': " + what);
}

// ---- the JAAS line, tokenized as java.io.StreamTokenizer does for JaasConfig ----

struct Token {
  enum Kind { kEnd, kWord, kQuoted, kNumber, kChar } kind = kEnd;
  std::string text;  // the word or the unquoted string
  char ch = 0;       // kChar
};

bool IsWordStart(unsigned char c) {
  return std::isalpha(c) || c == '-' || c == '_' || c == '$' || c >= 160;
}
bool IsWordPart(unsigned char c) { return IsWordStart(c) || std::isdigit(c) || c == '.'; }

class JaasTokens {
 public:
  explicit JaasTokens(const std::string& s) : s_(s) {}

  /// The next token; false (with *error set) for an unterminated quote or comment.
  bool Next(Token* t, std::string* error) {
    *t = Token();
    if (!SkipSpaceAndComments(error)) return false;
    if (i_ >= s_.size()) return true;
    const unsigned char c = static_cast<unsigned char>(s_[i_]);
    if (IsWordStart(c)) {
      t->kind = Token::kWord;
      while (i_ < s_.size() && IsWordPart(static_cast<unsigned char>(s_[i_]))) t->text.push_back(s_[i_++]);
      return true;
    }
    if (std::isdigit(c) || c == '.') {  // StreamTokenizer parses numbers: no string value
      t->kind = Token::kNumber;
      while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
      return true;
    }
    if (c == '"' || c == '\'') return Quoted(static_cast<char>(c), t, error);
    t->kind = Token::kChar;
    t->ch = s_[i_++];
    return true;
  }

 private:
  bool SkipSpaceAndComments(std::string* error) {
    while (i_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c <= ' ') {
        ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n' && s_[i_] != '\r') ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        const size_t end = s_.find("*/", i_ + 2);
        if (end == std::string::npos) {
          *error = "a /* comment is not closed";
          return false;
        }
        i_ = end + 2;
      } else {
        return true;
      }
    }
    return true;
  }

  bool Quoted(char quote, Token* t, std::string* error) {
    t->kind = Token::kQuoted;
    ++i_;
    while (i_ < s_.size() && s_[i_] != quote) {
      char c = s_[i_++];
      if (c == '\n' || c == '\r') break;
      if (c == '\\' && i_ < s_.size()) {
        const char e = s_[i_++];
        switch (e) {
          case 'a': c = '\a'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'n': c = '\n'; break;
          case 'r': c = '\r'; break;
          case 't': c = '\t'; break;
          case 'v': c = '\v'; break;
          default:
            if (e >= '0' && e <= '7') {  // up to three octal digits (two when the first is > 3)
              int v = e - '0';
              const int max_digits = e <= '3' ? 3 : 2;
              for (int n = 1; n < max_digits && i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '7'; ++n)
                v = v * 8 + (s_[i_++] - '0');
              c = static_cast<char>(v);
            } else {
              c = e;
            }
        }
      }
      t->text.push_back(c);
    }
    if (i_ >= s_.size() || s_[i_] != quote) {
      *error = "a quoted value is not closed on its line";
      return false;
    }
    ++i_;
    return true;
  }

  const std::string& s_;
  size_t i_ = 0;
};

bool IsControlFlag(std::string w) {
  for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w == "required" || w == "requisite" || w == "sufficient" || w == "optional";
}

// "config 'k' and 'k2' ..." for the key of the other credential in the same spelling:
// client.security.sasl.username <-> client.security.sasl.password (both suffixes are 8 letters).
std::string OtherCredentialKey(const std::string& key) {
  const bool user = key.size() >= 8 && key.compare(key.size() - 8, 8, "username") == 0;
  return key.substr(0, key.size() - 8) + (user ? "password" : "username");
}

Status CheckCredential(const std::string& key, const char* what, const std::string& value) {
  if (value.empty()) return Invalid(key, std::string("the SASL ") + what + " is empty");
  if (value.find('\0') != std::string::npos)
    return Invalid(key, std::string("the SASL ") + what + " contains a NUL character (SASL/PLAIN separates the "
                                                           "username and password by NUL)");
  return Status::OK();
}

}  // namespace

Result<PlainCredentials> ParsePlainJaasConfig(const std::string& key, const std::string& text) {
  auto bad = [&](const std::string& what) {
    return Invalid(key, what + " (expected: " + kPlainLoginModule + " required username=\"...\" password=\"...\";)");
  };
  JaasTokens tokens(text);
  Token t;
  std::string error;
  if (!tokens.Next(&t, &error)) return bad(error);
  if (t.kind != Token::kWord) return bad("no login module given");
  // The module name is the one token quoted back: it is not a secret.
  if (t.text != kPlainLoginModule) return bad("login module '" + t.text + "' is not supported");
  if (!tokens.Next(&t, &error)) return bad(error);
  if (t.kind != Token::kWord || !IsControlFlag(t.text))
    return bad("the login module is not followed by a control flag (required, requisite, sufficient or optional)");
  PlainCredentials creds;
  bool has_user = false, has_password = false;
  while (true) {
    if (!tokens.Next(&t, &error)) return bad(error);
    if (t.kind == Token::kEnd) return bad("the entry does not end with ';'");
    if (t.kind == Token::kChar && t.ch == ';') break;
    // Option names other than username/password are not quoted back: with a quoting mistake a
    // part of the password can end up where a name is expected.
    if (t.kind != Token::kWord) return bad("an option name is expected (options are name=\"value\")");
    const std::string name = t.text;
    if (!tokens.Next(&t, &error)) return bad(error);
    if (t.kind != Token::kChar || t.ch != '=') return bad("an option has no '=' after its name");
    if (!tokens.Next(&t, &error)) return bad(error);
    if (t.kind != Token::kWord && t.kind != Token::kQuoted)
      return bad("an option has no value (quote values: name=\"value\")");
    if (name == "username") {
      creds.username = t.text;
      has_user = true;
    } else if (name == "password") {
      creds.password = t.text;
      has_password = true;
    }
  }
  if (!tokens.Next(&t, &error)) return bad(error);
  if (t.kind != Token::kEnd) return bad("more than one login module entry");
  if (!has_user) return bad("the entry has no username option");
  if (!has_password) return bad("the entry has no password option");
  return creds;
}

Status ResolveSecurity(const SecurityKeys& keys, ClientOptions* o) {
  std::string user_key = keys.username, password_key = keys.password;
  if (!keys.jaas_config.empty()) {
    if (!keys.username.empty() || !keys.password.empty())
      return Invalid(keys.jaas_config, "set either it or '" + (keys.username.empty() ? keys.password : keys.username) +
                                           "' (username and password), not both");
    FLUSS_ASSIGN_OR_RETURN(PlainCredentials creds, ParsePlainJaasConfig(keys.jaas_config, keys.jaas_text));
    o->sasl_username = std::move(creds.username);
    o->sasl_password = std::move(creds.password);
    user_key = password_key = keys.jaas_config;
  } else if (keys.username.empty() != keys.password.empty()) {
    const std::string& given = keys.username.empty() ? keys.password : keys.username;
    return Status::InvalidArgument("config '" + given + "' and '" + OtherCredentialKey(given) +
                                   "' must be set together");
  }
  const std::string credentials_key = keys.jaas_config.empty() ? keys.username : keys.jaas_config;
  const std::string protocol_key = keys.protocol.empty() ? "client.security.protocol" : keys.protocol;
  if (o->security_protocol == SecurityProtocol::kPlaintext) {
    if (!credentials_key.empty())
      return Invalid(credentials_key, "SASL credentials are set but '" + protocol_key +
                                          "' is PLAINTEXT: set it to SASL to authenticate");
    return Status::OK();
  }
  if (credentials_key.empty())
    return Invalid(protocol_key, "SASL needs 'client.security.sasl.username' and 'client.security.sasl.password' "
                                 "(or 'client.security.sasl.jaas.config')");
  FLUSS_RETURN_NOT_OK(CheckCredential(user_key, "username", o->sasl_username));
  return CheckCredential(password_key, "password", o->sasl_password);
}

}  // namespace fluss::client
