#!/usr/bin/env bash
# Message latency across instances (issue 14): two server instances on one
# fresh PostgreSQL database; a stream is opened on instance 2 and 1,000
# messages are posted one after another on instance 1. Prints the p50, p90,
# p99 and max of send-to-delivery time (the POST's start to the event on the
# other instance's stream). Figures, not a pass/fail test (the README keeps
# the last run's).
#
#   scripts/load/messages.sh                      the release binary if built, else the debug one
#   MESSAGES=200 scripts/load/messages.sh
#   PRETTYSCORE_BENCH_POSTGRES=postgres://user@host:5432 scripts/load/messages.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

PG="${PRETTYSCORE_BENCH_POSTGRES:-${PRETTYSCORE_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}}"
PG="${PG%/}"
MESSAGES="${MESSAGES:-1000}"

require_tool psql "Install the PostgreSQL client (apt-get install postgresql-client)"
require_tool python3 "Install Python 3"

BIN="${PRETTYSCORE_BIN:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x "$ROOT/target/release/prettyscore" ]]; then BIN="$ROOT/target/release/prettyscore"; else BIN="$SERVER_BIN"; fi
fi
[[ -x "$BIN" ]] || die "no server binary at $BIN: build it with cargo build [--release]"

DB="prettyscore_bench_messages_$(date +%s)_$$"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS \"$DB\"" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

say "Creating $DB and applying the migrations with $BIN"
psql -q "$PG/postgres" -c "CREATE DATABASE \"$DB\"" >/dev/null
DATABASE_URL="$PG/$DB" RUST_LOG=warn "$BIN" migrate --data-dir "$WORK/one" >/dev/null

# Starts an instance and sets URL to its address. (In this shell, not in a
# $(…) subshell, which would lose the PIDS that cleanup kills.)
start() {
  local name=$1 log="$WORK/$1.log" url=""
  DATABASE_URL="$PG/$DB" RUST_LOG=warn PRETTYSCORE_AUTH__RATE_LIMITS__TOKEN_PER_5MIN=1000 PRETTYSCORE_HTTP__DRAIN_SECS=0 \
    "$BIN" serve --bind 127.0.0.1:0 --data-dir "$WORK/$name" >"$log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 300); do
    url="$(sed -n 's/.*PrettyScore listening on \(http[^ ]*\).*/\1/p' "$log" | head -n1)"
    [[ -n "$url" ]] && break
    sleep 0.1
  done
  [[ -n "$url" ]] || { cat "$log" >&2; die "instance $name did not start"; }
  URL="${url%/}"
}
start one
ONE="$URL"
start two
TWO="$URL"
say "Instance 1 at $ONE, instance 2 at $TWO"

python3 "$ROOT/scripts/load/message_latency.py" "$ONE" "$TWO" "$PG/$DB" "$MESSAGES"
