// Fluss type names of a pyarrow schema's columns, spelled as the later pyfluss spells them
// (`int`, `array<string>`, `map<string,int>`, `row<a int, b string>`, `timestamp_ltz(6)`,
// `... NOT NULL`), from the core's one Arrow -> Fluss type map (row/data_type.h), so a type
// without a Fluss equivalent fails here, naming the field, exactly as create_table would.
#include <cctype>

#include <arrow/type.h>

#include "arrow_capsules.h"
#include "bindings.h"
#include "bridge.h"
#include "fluss/row/data_type.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

/// A ROW field name as written in a type string: as is when it is an identifier, else in
/// backticks (a backtick doubled), as Fluss's SQL spelling quotes names.
std::string FieldName(const std::string& name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return name;
  std::string out = "`";
  for (char c : name) out += c == '`' ? std::string("``") : std::string(1, c);
  return out + "`";
}

std::string Spell(const row::DataType& t, bool with_null = true) {
  using row::TypeRoot;
  const std::string p = "(" + std::to_string(t.precision) + ")";
  std::string s;
  switch (t.root) {
    case TypeRoot::kBoolean: s = "boolean"; break;
    case TypeRoot::kTinyInt: s = "tinyint"; break;
    case TypeRoot::kSmallInt: s = "smallint"; break;
    case TypeRoot::kInt: s = "int"; break;
    case TypeRoot::kBigInt: s = "bigint"; break;
    case TypeRoot::kFloat: s = "float"; break;
    case TypeRoot::kDouble: s = "double"; break;
    case TypeRoot::kChar: s = "char(" + std::to_string(t.length) + ")"; break;
    case TypeRoot::kString: s = "string"; break;
    case TypeRoot::kBinary: s = "binary(" + std::to_string(t.length) + ")"; break;
    case TypeRoot::kBytes: s = "bytes"; break;
    case TypeRoot::kDecimal: s = "decimal(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")"; break;
    case TypeRoot::kDate: s = "date"; break;
    case TypeRoot::kTime: s = "time" + p; break;
    case TypeRoot::kTimestamp: s = "timestamp" + p; break;
    case TypeRoot::kTimestampLtz: s = "timestamp_ltz" + p; break;
    case TypeRoot::kArray: s = "array<" + Spell(t.children[0].type) + ">"; break;
    // A map key is always NOT NULL: not spelled.
    case TypeRoot::kMap: s = "map<" + Spell(t.children[0].type, false) + "," + Spell(t.children[1].type) + ">"; break;
    case TypeRoot::kRow:
      s = "row<";
      for (size_t i = 0; i < t.children.size(); ++i)
        s += (i ? ", " : "") + FieldName(t.children[i].name) + " " + Spell(t.children[i].type);
      s += ">";
      break;
  }
  if (with_null && !t.nullable) s += " NOT NULL";
  return s;
}

}  // namespace

void BindTypes(nb::module_& m) {
  // fluss::kMaxBucketCount (the server's default max.bucket.num), for TableDescriptor's check.
  m.attr("MAX_BUCKET_COUNT") = fluss::kMaxBucketCount;
  m.def(
      "_column_types",
      [](nb::handle schema) {
        auto s = ImportSchema(schema);
        std::vector<std::string> out;
        for (const auto& f : s->fields()) {
          auto t = row::DataTypeOf(*f);
          ThrowIfError(t.status());
          out.push_back(Spell(*t));
        }
        return out;
      },
      "schema"_a,
      "The Fluss type name of each field of a pyarrow.Schema (pyfluss spelling); raises FlussError naming the "
      "field (and the path inside it) for an Arrow type with no Fluss equivalent.");
}

}  // namespace fluss::py
