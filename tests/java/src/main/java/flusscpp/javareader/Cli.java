/*
 * What the command-line tools of this package (ReadTable, PkTool, AppendTable) share: logging
 * kept off stdout, a connection, the time limit, stdin lines, UTF-8 stdout, and the exit codes
 * (0 success, 1 failure, 2 bad arguments).
 */
package flusscpp.javareader;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.config.Configuration;

final class Cli {
  /** A tool's body: returns the exit status. */
  interface Body {
    int run(String[] args) throws Exception;
  }

  /** Thrown by a body for bad arguments: the message is the usage line, the exit status 2. */
  static final class Usage extends RuntimeException {
    Usage(String usage) {
      super(usage);
    }
  }

  private Cli() {}

  static void main(String name, String[] args, Body body) {
    // Before any logger exists: warnings and errors only, on stderr (stdout carries the output).
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    // "Tokens update task not started ..." is logged at WARN on every connection without security.
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.fluss.client.token", "error");
    int status;
    try {
      status = body.run(args);
    } catch (Usage u) {
      System.err.println("usage: " + u.getMessage());
      status = 2;
    } catch (Throwable t) {
      System.err.println(name + ": FAILED: " + t);
      t.printStackTrace(System.err);
      status = 1;
    }
    System.out.flush();
    System.err.flush();
    // The client keeps non-daemon threads; leave explicitly.
    Runtime.getRuntime().halt(status);
  }

  static Connection connect(String bootstrap) {
    Configuration conf = new Configuration();
    conf.setString("bootstrap.servers", bootstrap);
    return ConnectionFactory.createConnection(conf);
  }

  /** READ_TIMEOUT_SECONDS (default 120): how long a tool may take for its reads and writes. */
  static long timeoutSeconds() {
    return Long.parseLong(System.getenv().getOrDefault("READ_TIMEOUT_SECONDS", "120"));
  }

  static PrintWriter stdout() {
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16));
  }

  /** The future's value, waiting at most until deadlineNanos (a System.nanoTime() value). */
  static <T> T await(CompletableFuture<T> f, long deadlineNanos) throws Exception {
    long left = deadlineNanos - System.nanoTime();
    return f.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
  }

  /** The non-blank lines of a reader. */
  static List<String> readLines(BufferedReader in) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.isBlank()) lines.add(line);
    }
    return lines;
  }
}
