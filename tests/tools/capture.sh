#!/usr/bin/env bash
# Re-captures tests/data/java_{zstd,none}.{bin,table.json} from a running Fluss cluster.
# Not part of the test run. Needs: java + javac + mvn on PATH, a cluster (tools/local-cluster
# start), and capture_fetch built (cmake -DFLUSS_BUILD_TESTS=ON, ninja capture_fetch).
#
#   tests/tools/capture.sh [bootstrap.servers] [build dir]     defaults 127.0.0.1:9123 build-tests
#
# Steps: resolve org.apache.fluss:fluss-client:0.9.1-incubating (a fat jar) with mvn, compile
# CaptureWrite.java, let the JAVA client create unit_capture.java_{zstd,none} and write the rows,
# fetch the raw records with capture_fetch, then drop the tables and the database.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BOOTSTRAP=${1:-127.0.0.1:9123}
BUILD=${2:-$ROOT/build-tests}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>capture</artifactId><version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.apache.fluss</groupId><artifactId>fluss-client</artifactId>
      <version>0.9.1-incubating</version>
    </dependency>
  </dependencies>
</project>
EOF
(cd "$WORK" && mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
  -DoutputDirectory="$WORK/lib" >&2)
CP="$WORK/lib/*"
javac -encoding UTF-8 -d "$WORK/classes" -cp "$CP" "$ROOT/tests/tools/CaptureWrite.java"
CP="$CP:$WORK/classes"

# Arrow Java (inside the fat jar) needs java.nio opened, as in the Fluss distribution's scripts.
JAVA_OPTS=(--add-opens=java.base/java.nio=ALL-UNNAMED -cp "$CP")
status=0
if java "${JAVA_OPTS[@]}" CaptureWrite write "$BOOTSTRAP"; then
  for t in java_zstd java_none; do
    "$BUILD/capture_fetch" "$BOOTSTRAP" unit_capture "$t" "$ROOT/tests/data/$t" || status=1
  done
else
  status=1
fi
java "${JAVA_OPTS[@]}" CaptureWrite drop "$BOOTSTRAP" || status=1
exit $status
