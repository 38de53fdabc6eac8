#!/usr/bin/env bash
# Runs the official Java client on a Fluss table (sources in tests/java/src/main/java/flusscpp/javareader):
#
#   tests/java/run-reader.sh <bootstrap.servers> <database> <table> [col,col,...]
#       ReadTable: prints every row of a log table as JSON lines.
#   tests/java/run-reader.sh pk <lookup|prefix|upsert> <bootstrap.servers> <database> <table> [arg]
#       PkTool: looks up, prefix-looks-up or upserts/deletes rows of a primary-key table, JSON
#       lines on stdin and stdout (PkTool.java documents them; Json.java the value encoding).
#   tests/java/run-reader.sh append <bootstrap.servers> <database> <table>
#       AppendTable: appends the rows on stdin (JSON lines, every column) to a log table.
#   tests/java/run-reader.sh --build      (only build, if needed)
#
# Builds tests/java once (mvn package into tests/java/target; rebuilt only when pom.xml or a
# source file changes) and runs it. Needs java (17+) and mvn on PATH; the first build downloads
# org.apache.fluss:fluss-client:0.9.1-incubating and slf4j-simple from Maven Central.
# Build output goes to stderr, so stdout carries only the tool's output. READ_TIMEOUT_SECONDS (default
# 120) bounds the read.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TARGET="$HERE/target"
JAR="$TARGET/fluss-java-reader.jar"
CP_FILE="$TARGET/classpath.txt"
STAMP="$TARGET/.build-stamp"

BUILD_ONLY=0
MAIN=flusscpp.javareader.ReadTable
if [ $# -eq 1 ] && [ "$1" = "--build" ]; then
  BUILD_ONLY=1
elif [ $# -ge 1 ] && [ "$1" = "pk" ]; then
  MAIN=flusscpp.javareader.PkTool  # checks its own arguments
  shift
elif [ $# -ge 1 ] && [ "$1" = "append" ]; then
  MAIN=flusscpp.javareader.AppendTable  # checks its own arguments
  shift
elif [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: $0 <bootstrap.servers> <database> <table> [col,col,...] | pk <mode> ... | append ... | --build" >&2
  exit 2
fi
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "run-reader.sh: '$tool' not found on PATH (need Java 17+ and Maven)" >&2
    exit 127
  fi
done

needs_build() {
  [ -f "$STAMP" ] && [ -f "$JAR" ] && [ -f "$CP_FILE" ] || return 0
  [ -n "$(find "$HERE/pom.xml" "$HERE/src" -newer "$STAMP" -print -quit)" ]
}

if needs_build; then
  mkdir -p "$TARGET"
  # One build at a time (tests may start several readers at once).
  exec 9>"$TARGET/.build-lock"
  flock 9
  if needs_build; then
    rm -f "$STAMP"
    # (Maven 3.8 prints colour resets even in batch mode: strip them.)
    mvn -q -B -Dstyle.color=never -f "$HERE/pom.xml" package 2>&1 | sed 's/\x1b\[[0-9;]*m//g' 1>&2
    touch "$STAMP"
  fi
  flock -u 9
  exec 9>&-
fi

[ "$BUILD_ONLY" = 1 ] && exit 0

# Arrow Java (shaded in fluss-client) needs java.nio opened, as in the Fluss distribution.
exec java --add-opens=java.base/java.nio=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -cp "$JAR:$(cat "$CP_FILE")" "$MAIN" "$@"
