// Writes the rows of the captured test batches with the official Java client (a different
// encoder than ours), so tests/cpp/arrow_log_test.cc decodes bytes we did not produce.
// Not part of the test run; see tests/tools/capture.sh and tests/data/README.md.
//
//   java -cp fluss-client-0.9.1-incubating.jar:. CaptureWrite write <bootstrap>
//   java -cp fluss-client-0.9.1-incubating.jar:. CaptureWrite drop  <bootstrap>
//
// "write" (re)creates unit_capture.java_zstd (ZSTD, the default codec) and
// unit_capture.java_none (NONE), one bucket each, and writes the same four rows into both:
// java_zstd in one batch, java_none in two batches (rows 0-1, then rows 2-3, one flush each).
// The values are repeated, with the derivation of each expected Arrow value, in
// tests/cpp/arrow_log_test.cc; change both together.
// "drop" drops both tables and the database.

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;

public class CaptureWrite {
  static final String DB = "unit_capture";

  static Schema schema() {
    return Schema.newBuilder()
        .column("id", DataTypes.INT().copy(false))
        .column("flag", DataTypes.BOOLEAN())
        .column("tiny", DataTypes.TINYINT())
        .column("small", DataTypes.SMALLINT())
        .column("big", DataTypes.BIGINT())
        .column("f32", DataTypes.FLOAT())
        .column("f64", DataTypes.DOUBLE())
        .column("name", DataTypes.STRING())
        .column("code", DataTypes.CHAR(4))
        .column("raw", DataTypes.BYTES())
        .column("fixed", DataTypes.BINARY(3))
        .column("amount", DataTypes.DECIMAL(10, 2))
        .column("day", DataTypes.DATE())
        .column("tod", DataTypes.TIME(3))
        .column("ts", DataTypes.TIMESTAMP(6))
        .column("ltz", DataTypes.TIMESTAMP_LTZ(3))
        .build();
  }

  static GenericRow row(Object... v) {
    return GenericRow.of(v);
  }

  static BinaryString s(String v) {
    return BinaryString.fromString(v);
  }

  static GenericRow[] rows() {
    return new GenericRow[] {
      // row 0: every column set, extremes of the small integers, a positive timestamp.
      row(1, true, (byte) -128, (short) -32768, Long.MAX_VALUE, 1.5f, -2.25, s("hello"), s("ab"),
          new byte[] {0x00, 0x01, (byte) 0xFF}, new byte[] {'a', 'b', 'c'},
          Decimal.fromBigDecimal(new BigDecimal("12345.67"), 10, 2),
          19723, // 2024-01-01 as days since epoch
          45296789, // 12:34:56.789 as ms of day
          TimestampNtz.fromMillis(1704112496123L, 456000), // 2024-01-01T12:34:56.123456
          TimestampLtz.fromEpochMillis(1704112496123L)),
      // row 1: everything NULL except the NOT NULL id.
      row(2, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
          null),
      // row 2: the other extremes, multi-byte UTF-8, an empty BYTES value, instants before 1970.
      row(3, false, (byte) 127, (short) 32767, -1L, -0.5f, 1e300, s("Grüße ✓"), s("wxyz"),
          new byte[] {}, new byte[] {0, 0, 0},
          Decimal.fromBigDecimal(new BigDecimal("-0.01"), 10, 2),
          -1, // 1969-12-31
          0,
          TimestampNtz.fromMillis(-1L, 999000), // 1 microsecond before the epoch
          TimestampLtz.fromEpochMillis(0L)),
      // row 3: NULLs mixed with values.
      row(4, null, (byte) 0, null, 0L, null, 0.0, null, null, null, new byte[] {'x', 'y', 'z'},
          Decimal.fromBigDecimal(new BigDecimal("99999999.99"), 10, 2),
          null,
          86399999, // 23:59:59.999
          null,
          TimestampLtz.fromEpochMillis(-1000L)),
    };
  }

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable e) {
      e.printStackTrace();
      // A failed writer can keep Connection.close() waiting for minutes; do not wait for it.
      Runtime.getRuntime().halt(1);
    }
  }

  static void run(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: CaptureWrite write|drop <bootstrap.servers>");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    conf.setString("bootstrap.servers", args[1]);
    // Long enough that only the explicit flush closes a batch (so the batch boundaries are
    // deterministic), short because the 0.9.1 sender sleeps up to this long before it notices a
    // flush (with "10 min" a flush took 10 minutes).
    conf.setString("client.writer.batch-timeout", "2 s");
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      TablePath zstd = TablePath.of(DB, "java_zstd");
      TablePath none = TablePath.of(DB, "java_none");
      if (args[0].equals("drop")) {
        admin.dropTable(zstd, true).get();
        admin.dropTable(none, true).get();
        admin.dropDatabase(DB, true, true).get();
        System.out.println("dropped " + DB);
        return;
      }
      admin.createDatabase(DB, DatabaseDescriptor.EMPTY, true).get();
      admin.dropTable(zstd, true).get();
      admin.dropTable(none, true).get();
      admin.createTable(zstd,
          TableDescriptor.builder().schema(schema()).distributedBy(1).build(), false).get();
      admin.createTable(none,
          TableDescriptor.builder().schema(schema()).distributedBy(1)
              .property("table.log.arrow.compression.type", "NONE").build(), false).get();
      GenericRow[] rows = rows();
      try (Table t = conn.getTable(zstd)) {
        AppendWriter w = t.newAppend().createWriter();
        for (GenericRow r : rows) w.append(r);
        w.flush();
      }
      try (Table t = conn.getTable(none)) {
        AppendWriter w = t.newAppend().createWriter();
        w.append(rows[0]);
        w.append(rows[1]);
        w.flush();
        w.append(rows[2]);
        w.append(rows[3]);
        w.flush();
      }
      System.out.println("wrote " + rows.length + " rows into " + zstd + " and " + none);
    }
  }
}
