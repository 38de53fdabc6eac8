/*
 * The JSON encoding of Fluss values shared by ReadTable and PkTool: one JSON value per column
 * value, lossless and unambiguous given the column type, read (PkTool's input) and written (both
 * tools' output) the same way:
 *
 *   NULL                  null
 *   BOOLEAN               true / false
 *   TINYINT..BIGINT       JSON integer (exact; BIGINT may exceed 2^53)
 *   FLOAT, DOUBLE         JSON number: Java's Double.toString of the value (FLOAT widened to
 *                         double first, so it parses back to exactly the stored value);
 *                         "NaN", "Infinity", "-Infinity" as strings. Read with
 *                         Float/Double.parseDouble of the number's text (a FLOAT rounds to
 *                         the nearest float).
 *   CHAR, STRING          JSON string (UTF-8 on the wire; non-ASCII written as is)
 *   BINARY, BYTES         JSON string, lowercase hex of the bytes
 *   DECIMAL(p, s)         JSON string, plain notation with exactly s fraction digits. Read: any
 *                         BigDecimal text (string or number) whose value has at most s fraction
 *                         digits and fits p (else an error: never rounded)
 *   DATE                  JSON string "yyyy-MM-dd"
 *   TIME                  JSON string "HH:mm:ss.SSS" (read: any ISO local time, whole ms)
 *   TIMESTAMP             JSON string "yyyy-MM-ddTHH:mm:ss.nnnnnnnnn" (always 9 fraction
 *                         digits; read: any ISO local date-time)
 *   TIMESTAMP_LTZ         JSON string "yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ" (UTC; read: any ISO
 *                         instant with Z or an offset)
 *   ARRAY<T>              JSON array of the elements, each in T's encoding (null for a NULL
 *                         element)
 *   MAP<K, V>             JSON array of [key, value] pairs in the map's order (as stored when
 *                         written; as given when read: a LinkedHashMap, keys must be distinct)
 *   ROW<f T, ...>         JSON object {"f": value, ...}: every field, in field order (read:
 *                         exactly the field names, any order)
 *
 * Nested values nest: ARRAY<ROW<a INT, m MAP<INT, ARRAY<STRING>>>> prints e.g.
 * [{"a":1,"m":[[7,["x",null]]]},null]. Written, every nested level (element, map key and
 * value, row field) consults its null flag whatever its type's nullability, so a NULL stored at a
 * NOT NULL level shows as null rather than as a default value; read, a null at a NOT NULL level
 * (column, element, key, value or field) is an error.
 *
 * A row is a JSON object whose keys are the column names in the order asked for.
 * The parser below is a small strict one (objects, arrays, strings, numbers kept as text,
 * true/false/null): the tools need nothing more and the client jar brings no public JSON API.
 */
package flusscpp.javareader;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

final class Json {
  private static final DateTimeFormatter TS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  /** A JSON number, kept as its text so no precision is lost before the column type is known. */
  static final class Number {
    final String text;

    Number(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  private Json() {}

  // ---- writing

  /** The row as a JSON object: {names[i]: value of getters[i]}. */
  static String row(List<String> names, List<DataType> types, InternalRow.FieldGetter[] getters, InternalRow row) {
    if (row.getFieldCount() != names.size()) {
      throw new IllegalStateException("row has " + row.getFieldCount() + " fields, expected " + names.size());
    }
    StringBuilder sb = new StringBuilder(64 * names.size());
    sb.append('{');
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) sb.append(',');
      quote(sb, names.get(i));
      sb.append(':');
      value(sb, types.get(i), getters[i].getFieldOrNull(row));
    }
    return sb.append('}').toString();
  }

  static InternalRow.FieldGetter[] getters(List<DataType> types) {
    InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[types.size()];
    for (int i = 0; i < getters.length; i++) getters[i] = InternalRow.createFieldGetter(types.get(i), i);
    return getters;
  }

  /** One value (an internal Fluss object as a FieldGetter returns it) in the encoding above. */
  static void value(StringBuilder sb, DataType type, Object v) {
    if (v == null) {
      sb.append("null");
      return;
    }
    switch (type.getTypeRoot()) {
      case BOOLEAN:
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        sb.append(v);
        return;
      case FLOAT:
        number(sb, (double) (Float) v);
        return;
      case DOUBLE:
        number(sb, (Double) v);
        return;
      case CHAR:
      case STRING:
        quote(sb, ((BinaryString) v).toString());
        return;
      case BINARY:
      case BYTES: {
        sb.append('"');
        for (byte b : (byte[]) v) sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        sb.append('"');
        return;
      }
      case DECIMAL: {
        int scale = ((DecimalType) type).getScale();
        quote(sb, ((Decimal) v).toBigDecimal().setScale(scale).toPlainString());
        return;
      }
      case DATE:
        quote(sb, LocalDate.ofEpochDay((Integer) v).toString());
        return;
      case TIME_WITHOUT_TIME_ZONE:
        quote(sb, LocalTime.ofNanoOfDay((Integer) v * 1_000_000L).format(TIME));
        return;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        quote(sb, ((TimestampNtz) v).toLocalDateTime().format(TS));
        return;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        quote(sb, ((TimestampLtz) v).toInstant().atOffset(ZoneOffset.UTC).toLocalDateTime().format(TS) + "Z");
        return;
      case ARRAY: {
        DataType elementType = ((ArrayType) type).getElementType();
        elements(sb, elementType, (InternalArray) v);
        return;
      }
      case MAP: {
        MapType mt = (MapType) type;
        InternalMap m = (InternalMap) v;
        InternalArray keys = m.keyArray();
        InternalArray values = m.valueArray();
        if (keys.size() != m.size() || values.size() != m.size()) {
          throw new IllegalStateException("map of size " + m.size() + " has " + keys.size() + " keys and "
              + values.size() + " values");
        }
        InternalArray.ElementGetter kg = InternalArray.createElementGetter(mt.getKeyType().copy(true));
        InternalArray.ElementGetter vg = InternalArray.createElementGetter(mt.getValueType().copy(true));
        sb.append('[');
        for (int i = 0; i < m.size(); i++) {
          if (i > 0) sb.append(',');
          sb.append('[');
          value(sb, mt.getKeyType(), kg.getElementOrNull(keys, i));
          sb.append(',');
          value(sb, mt.getValueType(), vg.getElementOrNull(values, i));
          sb.append(']');
        }
        sb.append(']');
        return;
      }
      case ROW: {
        RowType rt = (RowType) type;
        InternalRow r = (InternalRow) v;
        if (r.getFieldCount() != rt.getFieldCount()) {
          throw new IllegalStateException("nested row has " + r.getFieldCount() + " fields, expected " + rt);
        }
        sb.append('{');
        for (int i = 0; i < rt.getFieldCount(); i++) {
          if (i > 0) sb.append(',');
          DataField f = rt.getFields().get(i);
          quote(sb, f.getName());
          sb.append(':');
          value(sb, f.getType(), InternalRow.createFieldGetter(f.getType().copy(true), i).getFieldOrNull(r));
        }
        sb.append('}');
        return;
      }
      default:
        throw new IllegalArgumentException("column type " + type + " is not supported");
    }
  }

  /** The elements of an array as a JSON array; each element's null flag consulted (see above). */
  private static void elements(StringBuilder sb, DataType elementType, InternalArray a) {
    InternalArray.ElementGetter g = InternalArray.createElementGetter(elementType.copy(true));
    sb.append('[');
    for (int i = 0; i < a.size(); i++) {
      if (i > 0) sb.append(',');
      value(sb, elementType, g.getElementOrNull(a, i));
    }
    sb.append(']');
  }

  private static void number(StringBuilder sb, double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      quote(sb, Double.toString(d));
    } else {
      sb.append(Double.toString(d));
    }
  }

  static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);  // non-ASCII as UTF-8 (surrogate pairs stay pairs)
          }
      }
    }
    sb.append('"');
  }

  // ---- reading

  /** The internal Fluss object for a parsed JSON value of a column of this type (inverse of value()). */
  static Object internal(DataType type, Object json) {
    if (json == null) {
      if (!type.isNullable()) throw new IllegalArgumentException("null for a value of type " + type);
      return null;
    }
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        if (!(json instanceof Boolean)) throw bad(type, json);
        return json;
      case TINYINT:
        return integer(type, json).byteValueExact();
      case SMALLINT:
        return integer(type, json).shortValueExact();
      case INTEGER:
        return integer(type, json).intValueExact();
      case BIGINT:
        return integer(type, json).longValueExact();
      case FLOAT:
        return Float.parseFloat(floating(type, json));
      case DOUBLE:
        return Double.parseDouble(floating(type, json));
      case CHAR: {
        String s = text(type, json);
        int length = ((CharType) type).getLength();
        if (s.codePointCount(0, s.length()) > length) throw bad(type, json);
        return BinaryString.fromString(s);
      }
      case STRING:
        return BinaryString.fromString(text(type, json));
      case BINARY: {
        byte[] b = hex(type, json);
        if (b.length > ((BinaryType) type).getLength()) throw bad(type, json);
        return b;
      }
      case BYTES:
        return hex(type, json);
      case DECIMAL: {
        DecimalType dt = (DecimalType) type;
        BigDecimal d = new BigDecimal(json instanceof Number ? ((Number) json).text : text(type, json));
        d = d.setScale(dt.getScale());  // ArithmeticException if it would round
        if (d.precision() > dt.getPrecision()) throw bad(type, json);
        return Decimal.fromBigDecimal(d, dt.getPrecision(), dt.getScale());
      }
      case DATE:
        return Math.toIntExact(LocalDate.parse(text(type, json)).toEpochDay());
      case TIME_WITHOUT_TIME_ZONE: {
        long nanos = LocalTime.parse(text(type, json)).toNanoOfDay();
        if (nanos % 1_000_000 != 0) throw bad(type, json);
        return (int) (nanos / 1_000_000);
      }
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return TimestampNtz.fromLocalDateTime(LocalDateTime.parse(text(type, json)));
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
        String s = text(type, json);
        Instant i = s.endsWith("Z") ? Instant.parse(s) : OffsetDateTime.parse(s).toInstant();
        return TimestampLtz.fromInstant(i);
      }
      case ARRAY: {
        DataType elementType = ((ArrayType) type).getElementType();
        if (!(json instanceof List)) throw bad(type, json);
        List<?> l = (List<?>) json;
        Object[] elements = new Object[l.size()];
        for (int i = 0; i < elements.length; i++) elements[i] = internal(elementType, l.get(i));
        return new GenericArray(elements);
      }
      case MAP: {
        MapType mt = (MapType) type;
        if (!(json instanceof List)) throw bad(type, json);
        Map<Object, Object> m = new LinkedHashMap<>();  // the order given (GenericMap keeps it)
        List<Object> seen = new ArrayList<>();
        for (Object pair : (List<?>) json) {
          if (!(pair instanceof List) || ((List<?>) pair).size() != 2) throw bad(type, json);
          Object key = internal(mt.getKeyType(), ((List<?>) pair).get(0));
          Object value = internal(mt.getValueType(), ((List<?>) pair).get(1));
          // byte[] keys compare by identity in a map: check distinct keys by content.
          for (Object k : seen) {
            if (Objects.deepEquals(k, key)) throw new IllegalArgumentException("repeated map key in " + json);
          }
          seen.add(key);
          m.put(key, value);
        }
        return new GenericMap(m);
      }
      case ROW: {
        RowType rt = (RowType) type;
        if (!(json instanceof Map)) throw bad(type, json);
        Map<?, ?> m = (Map<?, ?>) json;
        if (!m.keySet().equals(new HashSet<>(rt.getFieldNames()))) {
          throw new IllegalArgumentException("expected exactly the fields " + rt.getFieldNames() + " of " + type
              + ", got " + m.keySet());
        }
        GenericRow row = new GenericRow(rt.getFieldCount());
        for (int i = 0; i < rt.getFieldCount(); i++) {
          DataField f = rt.getFields().get(i);
          row.setField(i, internal(f.getType(), m.get(f.getName())));
        }
        return row;
      }
      default:
        throw new IllegalArgumentException("column type " + type + " is not supported");
    }
  }

  private static IllegalArgumentException bad(DataType type, Object json) {
    return new IllegalArgumentException("not a valid " + type + " value: " + json);
  }

  private static BigDecimal integer(DataType type, Object json) {
    if (!(json instanceof Number)) throw bad(type, json);
    BigDecimal d = new BigDecimal(((Number) json).text);
    if (d.stripTrailingZeros().scale() > 0) throw bad(type, json);
    return d;
  }

  private static String floating(DataType type, Object json) {
    if (json instanceof Number) return ((Number) json).text;
    if (json instanceof String && (json.equals("NaN") || json.equals("Infinity") || json.equals("-Infinity"))) {
      return (String) json;
    }
    throw bad(type, json);
  }

  private static String text(DataType type, Object json) {
    if (!(json instanceof String)) throw bad(type, json);
    return (String) json;
  }

  private static byte[] hex(DataType type, Object json) {
    String s = text(type, json);
    if (s.length() % 2 != 0) throw bad(type, json);
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) throw bad(type, json);
      b[i] = (byte) (hi << 4 | lo);
    }
    return b;
  }

  /**
   * Parses one JSON text: an object is a LinkedHashMap (key order kept), an array a List, a
   * string a String, a number a Json.Number, true/false a Boolean, null null.
   */
  static Object parse(String text) {
    Parser p = new Parser(text);
    p.space();
    Object v = p.value();
    p.space();
    if (p.pos != text.length()) throw p.error("trailing characters");
    return v;
  }

  private static final class Parser {
    final String s;
    int pos;

    Parser(String s) {
      this.s = s;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("bad JSON at " + pos + " (" + what + "): " + s);
    }

    void space() {
      while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) pos++;
    }

    void expect(char c) {
      if (pos >= s.length() || s.charAt(pos) != c) throw error("expected '" + c + "'");
      pos++;
    }

    boolean literal(String word) {
      if (s.startsWith(word, pos)) {
        pos += word.length();
        return true;
      }
      return false;
    }

    Object value() {
      if (pos >= s.length()) throw error("unexpected end");
      char c = s.charAt(pos);
      if (c == '{') return object();
      if (c == '[') return array();
      if (c == '"') return string();
      if (literal("true")) return Boolean.TRUE;
      if (literal("false")) return Boolean.FALSE;
      if (literal("null")) return null;
      return number();
    }

    Map<String, Object> object() {
      Map<String, Object> m = new LinkedHashMap<>();
      expect('{');
      space();
      if (pos < s.length() && s.charAt(pos) == '}') {
        pos++;
        return m;
      }
      while (true) {
        space();
        String k = string();
        space();
        expect(':');
        space();
        if (m.containsKey(k)) throw error("repeated key " + k);
        m.put(k, value());
        space();
        if (pos < s.length() && s.charAt(pos) == ',') {
          pos++;
          continue;
        }
        expect('}');
        return m;
      }
    }

    List<Object> array() {
      List<Object> l = new ArrayList<>();
      expect('[');
      space();
      if (pos < s.length() && s.charAt(pos) == ']') {
        pos++;
        return l;
      }
      while (true) {
        space();
        l.add(value());
        space();
        if (pos < s.length() && s.charAt(pos) == ',') {
          pos++;
          continue;
        }
        expect(']');
        return l;
      }
    }

    String string() {
      expect('"');
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (pos >= s.length()) throw error("unterminated string");
        char c = s.charAt(pos++);
        if (c == '"') return sb.toString();
        if (c != '\\') {
          if (c < 0x20) throw error("control character in string");
          sb.append(c);
          continue;
        }
        if (pos >= s.length()) throw error("unterminated escape");
        char e = s.charAt(pos++);
        switch (e) {
          case '"': sb.append('"'); break;
          case '\\': sb.append('\\'); break;
          case '/': sb.append('/'); break;
          case 'b': sb.append('\b'); break;
          case 'f': sb.append('\f'); break;
          case 'n': sb.append('\n'); break;
          case 'r': sb.append('\r'); break;
          case 't': sb.append('\t'); break;
          case 'u':
            if (pos + 4 > s.length()) throw error("short \\u escape");
            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));  // pairs stay pairs
            pos += 4;
            break;
          default:
            throw error("bad escape");
        }
      }
    }

    Number number() {
      int start = pos;
      if (pos < s.length() && s.charAt(pos) == '-') pos++;
      while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) pos++;
      String t = s.substring(start, pos);
      try {
        new BigDecimal(t);
      } catch (NumberFormatException ex) {
        throw error("bad number '" + t + "'");
      }
      return new Number(t);
    }
  }
}
