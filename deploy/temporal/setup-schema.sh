#!/bin/sh
# Creates Temporal's two PostgreSQL databases and their schemas on the first start, and brings them up to
# this server version's schema on every later one (docker-compose.yml runs it before the server starts).
set -eu
SCHEMA=/etc/temporal/schema/postgresql/v12

tool() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" --pw "$POSTGRES_PWD" "$@"
}

setup() {
  # A schema that is there only needs its updates; anything else (no database yet) is set up from scratch,
  # where a real failure (a wrong password) stops the script.
  if tool --db "$1" update-schema -d "$SCHEMA/$2/versioned" >/dev/null 2>&1; then
    echo "database $1: up to date"
    return
  fi
  tool --db "$1" create-database
  tool --db "$1" setup-schema -v 0.0
  tool --db "$1" update-schema -d "$SCHEMA/$2/versioned"
  echo "database $1: created"
}

setup temporal temporal
setup temporal_visibility visibility
