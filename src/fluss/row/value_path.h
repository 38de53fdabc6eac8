// ValuePath: where a value sits inside a row, for error messages: a column, then the steps into
// nested values ("tags[3]", "attrs[0].value", "address.zip"). Built on the stack while a check
// descends into a nested value; turned into text only when the check fails.
//
// Thread affinity: none; a plain value that points at its parent and names (which must outlive it).
#pragma once

#include <cstdint>
#include <string>

namespace fluss::row {

struct ValuePath {
  const ValuePath* parent = nullptr;
  const std::string* name = nullptr;  // the column (top) or a ROW field (".name")
  int64_t index = -1;                 // an ARRAY element or MAP entry ("[3]")
  const char* suffix = nullptr;       // ".key" / ".value" after a MAP entry

  std::string str() const {
    std::string s = parent ? parent->str() : std::string();
    if (name) s += (parent ? "." : "") + *name;
    if (index >= 0) s += "[" + std::to_string(index) + "]";
    if (suffix) s += suffix;
    return s;
  }
};

}  // namespace fluss::row
