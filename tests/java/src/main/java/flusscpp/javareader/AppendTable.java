/*
 * Appends rows to a Fluss log table with the official Java client (fluss-client
 * 0.9.1-incubating), so tests can read with our client what the Java client writes
 * (tests/python/test_java_nested.py):
 *
 *   AppendTable <bootstrap.servers> <database> <table>
 *       stdin: one JSON object per line holding every column (values in the JSON encoding of
 *       Json.java; blank lines skipped), appended in input order with the Java AppendWriter
 *       (table.newAppend().createWriter()), then flush. Every line is parsed before anything is
 *       written; every append is acknowledged before the tool ends. stdout: one line
 *       {"appended": n}.
 *
 * The log format (ARROW, INDEXED, COMPACTED) is the table's. Non-partitioned log tables only.
 * Exit status 0 on success, 1 on any failure (also a write not acknowledged within
 * READ_TIMEOUT_SECONDS, default 120), 2 on bad arguments.
 */
package flusscpp.javareader;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;

public final class AppendTable {
  private AppendTable() {}

  public static void main(String[] args) {
    Cli.main("AppendTable", args, a -> {
      if (a.length != 3) throw new Cli.Usage("AppendTable <bootstrap.servers> <database> <table>  (rows on stdin)");
      return run(a[0], a[1], a[2]);
    });
  }

  private static int run(String bootstrap, String db, String tableName) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Cli.timeoutSeconds());
    TablePath path = TablePath.of(db, tableName);
    List<String> input = Cli.readLines(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
    try (Connection conn = Cli.connect(bootstrap); Table table = conn.getTable(path)) {
      TableInfo info = table.getTableInfo();
      if (info.hasPrimaryKey()) throw new IllegalArgumentException(path + " is a primary-key table: AppendTable needs a log table");
      if (info.isPartitioned()) throw new IllegalArgumentException(path + " is partitioned: not supported");
      RowType rowType = info.getRowType();

      // A line is a ROW of the table's row type: exactly the column names (Json.internal checks).
      List<InternalRow> rows = new ArrayList<>(input.size());
      for (String line : input) {
        Object parsed = Json.parse(line);
        if (!(parsed instanceof Map)) throw new IllegalArgumentException("not a JSON object: " + line);
        rows.add((InternalRow) Json.internal(rowType.copy(false), parsed));
      }

      AppendWriter writer = table.newAppend().createWriter();
      List<CompletableFuture<?>> acks = new ArrayList<>(rows.size());
      for (InternalRow row : rows) acks.add(writer.append(row));
      // writer.flush() blocks without a time limit (e.g. while a bucket has no leader): bound it.
      Cli.await(CompletableFuture.runAsync(writer::flush), deadline);
      for (CompletableFuture<?> f : acks) Cli.await(f, deadline);

      PrintWriter out = Cli.stdout();
      out.print("{\"appended\":" + rows.size() + "}\n");
      out.flush();
      if (out.checkError()) throw new IllegalStateException("writing to stdout failed");
      System.err.println("AppendTable: " + rows.size() + " rows to " + path + " (" + info.getNumBuckets()
          + " buckets, properties " + info.getProperties().toMap() + ")");
      return 0;
    }
  }
}
