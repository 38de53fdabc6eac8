/*
 * Writes and looks up rows of a Fluss primary-key table with the official Java client
 * (fluss-client 0.9.1-incubating), so tests can check that our client's primary-key writes and
 * lookups are byte-compatible with it (tests/python/test_java_primary_key.py,
 * tests/python/test_java_nested.py):
 *
 *   PkTool lookup <bootstrap.servers> <database> <table>
 *       stdin: one JSON object per line holding exactly the primary-key columns;
 *       stdout: one line per key, in input order: the row found by the Java Lookuper
 *       (table.newLookup().createLookuper()) as a JSON object of every column in table order,
 *       or null.
 *   PkTool prefix <bootstrap.servers> <database> <table> <col,col,...>
 *       stdin: one JSON object per line holding exactly the lookup columns;
 *       stdout: one line per prefix, in input order: a JSON array of the rows the Java prefix
 *       lookuper (table.newLookup().lookupBy(cols).createLookuper()) returns, in its order.
 *   PkTool upsert <bootstrap.servers> <database> <table> [deletes-file]
 *       stdin: one JSON object per line holding every column: upserted with the Java
 *       UpsertWriter (table.newUpsert().createWriter()), then flush; then each line of
 *       deletes-file (JSON objects holding exactly the primary-key columns) is deleted, then
 *       flush. Every write is acknowledged before the tool ends; stdout: one line
 *       {"upserted": n, "deleted": m}.
 *
 * Values in the JSON encoding of Json.java (exact for decimals, timestamps and bytes). Blank
 * input lines are skipped. Non-partitioned tables only. Exit status 0 on success, 1 on any
 * failure (also a write or lookup not answered within READ_TIMEOUT_SECONDS, default 120),
 * 2 on bad arguments.
 */
package flusscpp.javareader;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

public final class PkTool {
  private static final String USAGE = "PkTool lookup <bootstrap.servers> <database> <table>\n"
      + "       PkTool prefix <bootstrap.servers> <database> <table> <col,col,...>\n"
      + "       PkTool upsert <bootstrap.servers> <database> <table> [deletes-file]";
  /** Lookups in flight at once. */
  private static final int WINDOW = 256;

  private final TableInfo info;
  private final RowType rowType;
  private final List<String> names;
  private final List<DataType> types;
  private final InternalRow.FieldGetter[] getters;
  private final long deadline;

  private PkTool(TableInfo info) {
    this.info = info;
    this.rowType = info.getRowType();
    this.names = rowType.getFieldNames();
    this.types = rowType.getChildren();
    this.getters = Json.getters(types);
    this.deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Cli.timeoutSeconds());
  }

  public static void main(String[] args) {
    Cli.main("PkTool", args, PkTool::run);
  }

  private static int run(String[] a) throws Exception {
    if (a.length < 4) throw new Cli.Usage(USAGE);
    String mode = a[0];
    boolean ok = (mode.equals("lookup") && a.length == 4) || (mode.equals("prefix") && a.length == 5)
        || (mode.equals("upsert") && (a.length == 4 || a.length == 5));
    if (!ok) throw new Cli.Usage(USAGE);
    TablePath path = TablePath.of(a[2], a[3]);
    try (Connection conn = Cli.connect(a[1]); Table table = conn.getTable(path)) {
      TableInfo info = table.getTableInfo();
      if (!info.hasPrimaryKey()) throw new IllegalArgumentException(path + " is a log table: PkTool needs a primary key");
      if (info.isPartitioned()) throw new IllegalArgumentException(path + " is partitioned: not supported");
      PkTool tool = new PkTool(info);
      List<String> input = Cli.readLines(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
      PrintWriter out = Cli.stdout();
      switch (mode) {
        case "lookup":
          tool.lookup(table.newLookup().createLookuper(), info.getPrimaryKeys(), input, out, false);
          break;
        case "prefix": {
          List<String> cols = Arrays.asList(a[4].split(","));
          tool.lookup(table.newLookup().lookupBy(cols).createLookuper(), cols, input, out, true);
          break;
        }
        default: {
          List<String> deletes = a.length == 5 ? Cli.readLines(Files.newBufferedReader(Paths.get(a[4]), StandardCharsets.UTF_8))
              : List.of();
          tool.upsert(table.newUpsert().createWriter(), input, deletes, out);
        }
      }
      out.flush();
      if (out.checkError()) throw new IllegalStateException("writing to stdout failed");
      System.err.println("PkTool " + mode + ": " + input.size() + " input lines, table " + path + " ("
          + info.getNumBuckets() + " buckets, primary key " + info.getPrimaryKeys() + ", bucket key "
          + info.getBucketKeys() + ", properties " + info.getProperties().toMap() + ")");
      return 0;
    }
  }

  /** The JSON object of a line as a row of exactly `columns` (in that order), or of every column. */
  private GenericRow row(String line, List<String> columns) {
    Object parsed = Json.parse(line);
    if (!(parsed instanceof Map)) throw new IllegalArgumentException("not a JSON object: " + line);
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) parsed;
    if (!m.keySet().equals(new HashSet<>(columns))) {
      throw new IllegalArgumentException("expected exactly the columns " + columns + ", got " + m.keySet());
    }
    GenericRow row = new GenericRow(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      String c = columns.get(i);
      int index = rowType.getFieldIndex(c);
      if (index < 0) throw new IllegalArgumentException("no column '" + c + "' in " + info.getTablePath());
      row.setField(i, Json.internal(types.get(index), m.get(c)));
    }
    return row;
  }

  /** A full-width row holding only the primary-key columns of a key line (what delete() takes). */
  private GenericRow keyRow(String line) {
    List<String> pk = info.getPrimaryKeys();
    GenericRow key = row(line, pk);
    GenericRow full = new GenericRow(names.size());
    for (int i = 0; i < pk.size(); i++) full.setField(rowType.getFieldIndex(pk.get(i)), key.getField(i));
    return full;
  }

  private String rowJson(InternalRow r) {
    return Json.row(names, types, getters, r);
  }

  private <T> T await(CompletableFuture<T> f) throws Exception {
    return Cli.await(f, deadline);
  }

  private void lookup(Lookuper lookuper, List<String> columns, List<String> input, PrintWriter out, boolean prefix)
      throws Exception {
    for (int start = 0; start < input.size(); start += WINDOW) {
      List<CompletableFuture<LookupResult>> window = new ArrayList<>();
      for (String line : input.subList(start, Math.min(start + WINDOW, input.size()))) {
        window.add(lookuper.lookup(row(line, columns)));
      }
      for (CompletableFuture<LookupResult> f : window) {
        LookupResult result = await(f);
        if (prefix) {
          StringBuilder sb = new StringBuilder("[");
          for (InternalRow r : result.getRowList()) {
            if (sb.length() > 1) sb.append(',');
            sb.append(rowJson(r));
          }
          out.print(sb.append(']'));
        } else {
          InternalRow r = result.getSingletonRow();
          out.print(r == null ? "null" : rowJson(r));
        }
        out.print('\n');
      }
    }
  }

  /** writer.flush() (which blocks without a time limit, e.g. while a bucket has no leader) within the deadline; then every ack. */
  private void flush(UpsertWriter writer, List<CompletableFuture<?>> acks) throws Exception {
    await(CompletableFuture.runAsync(writer::flush));
    for (CompletableFuture<?> f : acks) await(f);
  }

  private void upsert(UpsertWriter writer, List<String> rows, List<String> deletes, PrintWriter out) throws Exception {
    List<CompletableFuture<?>> acks = new ArrayList<>();
    for (String line : rows) acks.add(writer.upsert(row(line, names)));
    flush(writer, acks);
    acks.clear();
    for (String line : deletes) acks.add(writer.delete(keyRow(line)));
    flush(writer, acks);
    out.print("{\"upserted\":" + rows.size() + ",\"deleted\":" + deletes.size() + "}\n");
  }
}
