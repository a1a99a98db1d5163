# Shared by the provisioning scripts: where binaries are cached and which versions the project pins.
# The cache lives outside the work tree by default so that fresh clones (and CI) reuse it.
SERVICES_CACHE_DIR="${SERVICES_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hiring-integration}"
TEMPORAL_CLI_VERSION="1.5.1"
FERRETDB_VERSION="1.24.2"
TEMPORAL_TEST_SERVER_VERSION="$(sed -n 's:.*<version>\(1\.[0-9.]*\)</version>.*:\1:p' "$(dirname "${BASH_SOURCE[0]}")/test-server/pom.xml" | head -n 1)"

TEMPORAL_CLI_BIN="$SERVICES_CACHE_DIR/temporal-$TEMPORAL_CLI_VERSION/temporal"
# "-id-index": built with the _id lookup that uses the _id index (see build_ferretdb in provision.sh).
FERRETDB_BIN="$SERVICES_CACHE_DIR/ferretdb-$FERRETDB_VERSION-id-index/ferretdb"
TEMPORAL_TEST_SERVER_CLASSPATH="$SERVICES_CACHE_DIR/temporal-test-server-$TEMPORAL_TEST_SERVER_VERSION/classpath.txt"
# The classes the test server loads to start, archived once (Java's class data sharing) so each start maps
# them instead of loading and verifying them again (scripts/temporal-test-server.sh).
TEMPORAL_TEST_SERVER_ARCHIVE="$(dirname "$TEMPORAL_TEST_SERVER_CLASSPATH")/start-classes.jsa"
# The API's schema-driven fuzzer, in a virtual environment of its own (PyPI).
SCHEMATHESIS_VERSION="4.32.5"
SCHEMATHESIS_VENV="$SERVICES_CACHE_DIR/schemathesis-$SCHEMATHESIS_VERSION"
# Headless Chromium for the browser test of /docs: CHROMIUM_BIN, else Debian's chromium package.
CHROMIUM_BIN="${CHROMIUM_BIN:-$(command -v chromium || true)}"

say() { printf '[provision] %s\n' "$*" >&2; }
