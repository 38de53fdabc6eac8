/*
 * Reads every record of a Fluss log table with the official Java client (fluss-client
 * 0.9.1-incubating) and prints the rows as JSON lines, so tests can check that the Java reader
 * accepts what our C++/Python client wrote (tests/python/test_java_reader.py).
 *
 *   ReadTable <bootstrap.servers> <database> <table> [col,col,...]
 *
 * Reads all buckets from the earliest offset up to the latest offsets listed when it starts
 * (non-partitioned log tables), optionally with a column projection (pushed down to the server,
 * columns printed in the order given). Output on stdout: one JSON object per row, keys = column
 * names in output order; rows ordered by bucket, then offset. Values, chosen to be lossless and
 * unambiguous given the column type:
 *
 *   NULL                  null
 *   BOOLEAN               true / false
 *   TINYINT..BIGINT       JSON integer (exact; BIGINT may exceed 2^53)
 *   FLOAT, DOUBLE         JSON number: Java's Double.toString of the value (FLOAT widened to
 *                         double first, so it parses back to exactly the stored value);
 *                         "NaN", "Infinity", "-Infinity" as strings
 *   CHAR, STRING          JSON string
 *   BINARY, BYTES         JSON string, lowercase hex of the bytes
 *   DECIMAL(p, s)         JSON string, plain notation with exactly s fraction digits
 *   DATE                  JSON string "yyyy-MM-dd"
 *   TIME                  JSON string "HH:mm:ss.SSS"
 *   TIMESTAMP             JSON string "yyyy-MM-ddTHH:mm:ss.nnnnnnnnn" (always 9 fraction digits)
 *   TIMESTAMP_LTZ         JSON string "yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ" (UTC)
 *
 * Diagnostics go to stderr (a summary line at the end). Exit status 0 on success, 1 when the
 * read fails or does not reach the latest offsets within the deadline (READ_TIMEOUT_SECONDS,
 * default 120), 2 on bad arguments.
 */
package flusscpp.javareader;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.Scan;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.RowType;

public final class ReadTable {
  private static final DateTimeFormatter TS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  public static void main(String[] args) {
    // Before any logger exists: warnings and errors only, on stderr (stdout carries the rows).
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    // "Tokens update task not started ..." is logged at WARN on every connection without security.
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.fluss.client.token", "error");
    if (args.length < 3 || args.length > 4) {
      System.err.println("usage: ReadTable <bootstrap.servers> <database> <table> [col,col,...]");
      System.exit(2);
    }
    int status;
    try {
      status = run(args[0], args[1], args[2], args.length == 4 ? args[3] : null);
    } catch (Throwable t) {
      System.err.println("ReadTable: FAILED: " + t);
      t.printStackTrace(System.err);
      status = 1;
    }
    System.out.flush();
    System.err.flush();
    // The client keeps non-daemon threads; leave explicitly.
    Runtime.getRuntime().halt(status);
  }

  private static int run(String bootstrap, String db, String tableName, String projection)
      throws Exception {
    long timeoutSeconds = Long.parseLong(System.getenv().getOrDefault("READ_TIMEOUT_SECONDS", "120"));
    long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
    Configuration conf = new Configuration();
    conf.setString("bootstrap.servers", bootstrap);
    TablePath path = TablePath.of(db, tableName);
    try (Connection conn = ConnectionFactory.createConnection(conf)) {
      Admin admin = conn.getAdmin();
      TableInfo info = admin.getTableInfo(path).get();
      if (info.isPartitioned()) throw new IllegalArgumentException(path + " is partitioned: not supported");
      if (info.hasPrimaryKey()) throw new IllegalArgumentException(path + " is a primary-key table: not supported");
      RowType rowType = info.getRowType();

      List<String> names;
      List<DataType> types = new ArrayList<>();
      if (projection == null) {
        names = rowType.getFieldNames();
      } else {
        names = Arrays.asList(projection.split(","));
        for (String n : names) {
          if (rowType.getFieldIndex(n) < 0) throw new IllegalArgumentException("no column '" + n + "' in " + path);
        }
      }
      for (String n : names) types.add(rowType.getTypeAt(rowType.getFieldIndex(n)));
      InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[names.size()];
      for (int i = 0; i < getters.length; i++) getters[i] = InternalRow.createFieldGetter(types.get(i), i);

      int numBuckets = info.getNumBuckets();
      List<Integer> buckets = new ArrayList<>();
      for (int b = 0; b < numBuckets; b++) buckets.add(b);
      Map<Integer, Long> latest =
          admin.listOffsets(path, buckets, new OffsetSpec.LatestSpec()).all().get();

      Map<Integer, TreeMap<Long, String>> rows = new TreeMap<>();
      Map<Integer, Long> next = new HashMap<>();
      try (Table table = conn.getTable(path)) {
        Scan scan = table.newScan();
        if (projection != null) scan = scan.project(names);
        LogScanner scanner = scan.createLogScanner();
        for (int b = 0; b < numBuckets; b++) {
          rows.put(b, new TreeMap<>());
          next.put(b, 0L);
          if (latest.get(b) > 0) scanner.subscribeFromBeginning(b);
        }
        while (!done(next, latest)) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("timed out after " + timeoutSeconds + " s: read up to " + next
                + ", latest offsets " + latest);
          }
          ScanRecords records = scanner.poll(Duration.ofMillis(500));
          for (TableBucket tb : records.buckets()) {
            int b = tb.getBucket();
            for (ScanRecord r : records.records(tb)) {
              long offset = r.logOffset();
              if (offset >= latest.get(b)) continue;  // written after we started
              rows.get(b).put(offset, toJson(names, types, getters, r.getRow()));
              next.put(b, Math.max(next.get(b), offset + 1));
            }
          }
        }
        scanner.close();
      }

      long count = 0;
      PrintWriter out = new PrintWriter(
          new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16));
      for (TreeMap<Long, String> bucketRows : rows.values()) {
        for (String line : bucketRows.values()) {
          out.print(line);
          out.print('\n');
          count++;
        }
      }
      out.flush();
      if (out.checkError()) throw new IllegalStateException("writing to stdout failed");
      System.err.println("ReadTable: " + count + " rows from " + numBuckets + " buckets of " + path
          + " (latest offsets " + latest + ")");
      return 0;
    }
  }

  private static boolean done(Map<Integer, Long> next, Map<Integer, Long> latest) {
    for (Map.Entry<Integer, Long> e : latest.entrySet()) {
      if (next.get(e.getKey()) < e.getValue()) return false;
    }
    return true;
  }

  private static String toJson(List<String> names, List<DataType> types, InternalRow.FieldGetter[] getters,
                               InternalRow row) {
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

  private static void value(StringBuilder sb, DataType type, Object v) {
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
      default:
        throw new IllegalArgumentException("column type " + type + " is not supported by ReadTable");
    }
  }

  private static void number(StringBuilder sb, double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      quote(sb, Double.toString(d));
    } else {
      sb.append(Double.toString(d));
    }
  }

  private static void quote(StringBuilder sb, String s) {
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
}
