/*
 * Reads every record of a Fluss log table with the official Java client (fluss-client
 * 0.9.1-incubating) and prints the rows as JSON lines, so tests can check that the Java reader
 * accepts what our C++/Python client wrote (tests/python/test_java_reader.py,
 * tests/python/test_java_nested.py).
 *
 *   ReadTable <bootstrap.servers> <database> <table> [col,col,...]
 *
 * Reads all buckets from the earliest offset up to the latest offsets listed when it starts
 * (non-partitioned log tables), optionally with a column projection (pushed down to the server,
 * columns printed in the order given). Output on stdout: one JSON object per row, keys = column
 * names in output order; rows ordered by bucket, then offset. Values in the JSON encoding
 * documented in Json.java (lossless and unambiguous given the column type: decimals, dates,
 * times and timestamps as strings, bytes as hex; ARRAY, MAP and ROW nested at any depth).
 * MAP entries come in the Java scanner's order, not the stored one: its CompletedFetch copies
 * every row with InternalRow.createDeepFieldGetter, which builds each GenericMap from a HashMap.
 *
 * Diagnostics go to stderr (a summary line at the end). Exit status 0 on success, 1 when the
 * read fails or does not reach the latest offsets within the deadline (READ_TIMEOUT_SECONDS,
 * default 120), 2 on bad arguments.
 */
package flusscpp.javareader;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.Scan;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

public final class ReadTable {
  public static void main(String[] args) {
    Cli.main("ReadTable", args, a -> {
      if (a.length < 3 || a.length > 4) {
        throw new Cli.Usage("ReadTable <bootstrap.servers> <database> <table> [col,col,...]");
      }
      return run(a[0], a[1], a[2], a.length == 4 ? a[3] : null);
    });
  }

  private static int run(String bootstrap, String db, String tableName, String projection)
      throws Exception {
    long timeoutSeconds = Cli.timeoutSeconds();
    long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
    TablePath path = TablePath.of(db, tableName);
    try (Connection conn = Cli.connect(bootstrap)) {
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
      InternalRow.FieldGetter[] getters = Json.getters(types);

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
              rows.get(b).put(offset, Json.row(names, types, getters, r.getRow()));
              next.put(b, Math.max(next.get(b), offset + 1));
            }
          }
        }
        scanner.close();
      }

      long count = 0;
      PrintWriter out = Cli.stdout();
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
}
