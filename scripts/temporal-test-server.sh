#!/usr/bin/env bash
# Launches Temporal's Java time-skipping test server: temporal-test-server.sh <port> [--enable-time-skipping].
# @temporalio/testing starts it through `executable: { type: 'existing-path', path }`.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ ! -s "$TEMPORAL_TEST_SERVER_CLASSPATH" ]; then
  echo "Temporal test server is not provisioned; run: bash scripts/provision.sh test-server" >&2
  exit 1
fi
# A small heap and tiered compilation keep start-up around a second on two cores; the archive of its start-up
# classes (scripts/provision.sh) brings it under one. Provisioning writes the archive through this script.
share=()
if [ -n "${TEST_SERVER_ARCHIVE_OUT:-}" ]; then
  share=(-XX:ArchiveClassesAtExit="$TEST_SERVER_ARCHIVE_OUT" -Xlog:cds=off -Xlog:cds+dynamic=off)
elif [ -s "$TEMPORAL_TEST_SERVER_ARCHIVE" ]; then
  # A JVM that cannot use the archive (another Java, another class path) starts without it, silently.
  share=(-XX:SharedArchiveFile="$TEMPORAL_TEST_SERVER_ARCHIVE" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off)
fi
exec java "${share[@]}" -Xms64m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -cp "$(cat "$TEMPORAL_TEST_SERVER_CLASSPATH")" io.temporal.testserver.TestServer "$@"
