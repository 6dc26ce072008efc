#!/usr/bin/env bash
# Two instances behind HAProxy, as deploy/ describes them (issue 25 item 20):
# starts its own PostgreSQL (initdb in a temporary folder, a free port; the
# machine's own server is left alone), an S3-compatible server (moto, from
# PyPI, in a virtual environment under target/), two prettyscore instances on
# that database and bucket, and HAProxy with deploy/haproxy.cfg (bind and
# server lines replaced; retries 0 and no redispatch, so the figures show what
# the app does, not the proxy's retries). Then it runs and prints:
#
#   concurrency   8 senders x 40 messages into one conversation over both
#                 instances, its stream open for both users on both instances:
#                 delivered / expected per stream;
#   outage        the database stopped for 15 s under light load through the
#                 proxy: the answers seen, how fast, and when 200s come back;
#   rolling       steady load through the proxy while each instance in turn is
#                 sent SIGTERM, waited for (exit code, time), started again and
#                 waited for until the proxy sends it traffic: failed requests.
#
# Figures, not a pass/fail test; the README keeps the last run's.
#
#   scripts/load/cluster.sh                     the release binary if built, else the debug one
#   PRETTYSCORE_BIN=path/to/prettyscore scripts/load/cluster.sh
#   OUTAGE_SECS=15 SENDERS=8 PER_SENDER=40 scripts/load/cluster.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
source "$ROOT/scripts/lib/postgres.sh"     # port_open
source "$ROOT/scripts/lib/localstripe.sh"  # free_port

SENDERS="${SENDERS:-8}"
PER_SENDER="${PER_SENDER:-40}"
OUTAGE_SECS="${OUTAGE_SECS:-15}"
MOTO_VERSION="5.2.5"
BUCKET="prettyscore-cluster"

require_tool python3 "Install Python 3"
require_tool psql "Install the PostgreSQL client (apt-get install postgresql-client)"

BIN="${PRETTYSCORE_BIN:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x "$ROOT/target/release/prettyscore" ]]; then BIN="$ROOT/target/release/prettyscore"; else BIN="$SERVER_BIN"; fi
fi
[[ -x "$BIN" ]] || die "no server binary at $BIN: build it with cargo build [--release]"

if ! command -v haproxy >/dev/null 2>&1; then
  [[ $EUID -eq 0 ]] || die "HAProxy is not installed (apt-get install haproxy)"
  say "Installing HAProxy (Debian package)"
  apt-get install -y -qq haproxy >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq haproxy >/dev/null; }
fi
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  [[ $EUID -eq 0 ]] || die "PostgreSQL is not installed (apt-get install postgresql)"
  say "Installing PostgreSQL (Debian package)"
  apt-get install -y -qq postgresql >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; }
fi

MOTO_VENV="${MOTO_VENV:-$ROOT/target/moto-venv}"
if [[ ! -x "$MOTO_VENV/bin/moto_server" ]] || [[ "$("$MOTO_VENV/bin/pip" show moto 2>/dev/null)" != *"Version: $MOTO_VERSION"* ]]; then
  say "Installing moto $MOTO_VERSION (PyPI, an S3-compatible server) into ${MOTO_VENV#"$ROOT"/}"
  python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$MOTO_VERSION"
fi

WORK="$(mktemp -d /tmp/prettyscore-cluster.XXXXXX)"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
AS_PG=()
if [[ $EUID -eq 0 ]]; then
  chown postgres "$WORK"
  AS_PG=(runuser -u postgres --)
fi
PG_PORT="$(free_port)"
S3_PORT="$(free_port)"
PROXY_PORT="$(free_port)"
STATS_PORT="$(free_port)"
PORTS=("" "$(free_port)" "$(free_port)")
PIDS=("" "" "")
MOTO_PID=""
PROXY_PID=""
LOAD_PID=""
PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/prettyscore"

pg_start() { "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -w -o "-p $PG_PORT -k $WORK -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100" start >/dev/null; }
pg_stop() { "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1; }

cleanup() {
  set +e
  [[ -n "$LOAD_PID" ]] && { kill "$LOAD_PID" 2>/dev/null; wait "$LOAD_PID" 2>/dev/null; }
  for pid in "${PIDS[@]}" "$PROXY_PID" "$MOTO_PID"; do
    [[ -n "$pid" ]] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
  done
  [[ -d "$WORK/pg" ]] && pg_stop
  if [[ -n "${KEEP_WORK:-}" ]]; then say "Logs kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

mark() { python3 -c 'import time; print(time.time())' > "$WORK/$1"; }
now() { date +%s.%N; }

say "Starting PostgreSQL ($PG_BIN) on 127.0.0.1:$PG_PORT"
"${AS_PG[@]}" "$PG_BIN/initdb" -D "$WORK/pg" -A trust -U postgres >/dev/null
pg_start
psql -q "postgres://postgres@127.0.0.1:$PG_PORT/postgres" -c "CREATE DATABASE prettyscore" >/dev/null

say "Starting moto (S3) on 127.0.0.1:$S3_PORT"
"$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$S3_PORT" >"$WORK/moto.log" 2>&1 &
MOTO_PID=$!
for _ in $(seq 1 100); do port_open 127.0.0.1 "$S3_PORT" && break; sleep 0.1; done
port_open 127.0.0.1 "$S3_PORT" || { cat "$WORK/moto.log" >&2; die "moto did not start"; }
python3 -c 'import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="PUT")).read()' \
  "http://127.0.0.1:$S3_PORT/$BUCKET"

# What an operator sets (deploy/prettyscore.env.example), for this machine.
export DATABASE_URL="$PG_URL"
export PRETTYSCORE_STORAGE__BACKEND=s3
export PRETTYSCORE_STORAGE__BUCKET="$BUCKET"
export PRETTYSCORE_STORAGE__ENDPOINT="http://127.0.0.1:$S3_PORT"
export PRETTYSCORE_STORAGE__REGION=us-east-1
export PRETTYSCORE_STORAGE__ACCESS_KEY_ID=cluster
export PRETTYSCORE_STORAGE__SECRET_ACCESS_KEY=cluster-secret
export PRETTYSCORE_STORAGE__ALLOW_HTTP=true
export PRETTYSCORE_AUTH__TRUST_X_FORWARDED_FOR=true
export PRETTYSCORE_HTTP__DRAIN_SECS=5
export PRETTYSCORE_HTTP__SHUTDOWN_GRACE_SECS=10
# One client address (this script) signs up many users.
export PRETTYSCORE_AUTH__RATE_LIMITS__MAIL_REQUESTS_PER_5MIN=1000000
export PRETTYSCORE_AUTH__RATE_LIMITS__TOKEN_PER_5MIN=1000000
export RUST_LOG=warn

say "Applying the migrations with $BIN (the deploy step)"
"$BIN" migrate --data-dir "$WORK/migrate" >/dev/null

# Starts instance $1 on its port (again, after a stop) and waits until it listens.
start_instance() {
  local n=$1 log="$WORK/instance$1.log"
  "$BIN" serve --bind "127.0.0.1:${PORTS[$n]}" --data-dir "$WORK/data$n" >>"$log" 2>&1 &
  PIDS[n]=$!
  for _ in $(seq 1 600); do
    if [[ "$(curl_status "http://127.0.0.1:${PORTS[$n]}/readyz")" == 200 ]]; then return 0; fi
    kill -0 "${PIDS[$n]}" 2>/dev/null || break
    sleep 0.1
  done
  tail -n 20 "$log" >&2
  die "instance $n did not become ready"
}
curl_status() {
  python3 - "$1" <<'EOF' 2>/dev/null || echo 000
import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=2).status)
except urllib.error.HTTPError as e:
    print(e.code)
EOF
}
# Waits until HAProxy's backend `prettyscore` has server app$1 UP.
wait_in_proxy() {
  local n=$1
  for _ in $(seq 1 300); do
    if python3 - "http://127.0.0.1:$STATS_PORT/stats;csv" "app$n" <<'EOF'; then return 0; fi
import sys, urllib.request
rows = urllib.request.urlopen(sys.argv[1], timeout=2).read().decode().splitlines()
up = any(r.split(",")[0] == "prettyscore" and r.split(",")[1] == sys.argv[2] and r.split(",")[17].startswith("UP") for r in rows)
sys.exit(0 if up else 1)
EOF
    sleep 0.1
  done
  die "HAProxy did not see app$n come up"
}

start_instance 1
start_instance 2
ONE="http://127.0.0.1:${PORTS[1]}"
TWO="http://127.0.0.1:${PORTS[2]}"
say "Instance 1 at $ONE, instance 2 at $TWO ($BIN)"

# deploy/haproxy.cfg, for this machine: one plain-HTTP bind, the two
# instances, no daemon/chroot/user/log, no retries, 4000 connections (this
# machine's file limit), a stats page to wait on.
awk -v bind="127.0.0.1:$PROXY_PORT" -v one="127.0.0.1:${PORTS[1]}" -v two="127.0.0.1:${PORTS[2]}" '
  /^[ \t]*(chroot|user|group|daemon|log|stats socket|ssl-default-bind-options)[ \t]/ { next }
  /^[ \t]*daemon[ \t]*$/ { next }
  /option redispatch/ || /ssl_fc/ { next }
  /^[ \t]*retries[ \t]/ { print "    retries 0"; next }
  /^    maxconn 20000/ { print "    maxconn 4000"; next }
  /^[ \t]*bind[ \t]/ { if (!bound++) print "    bind " bind; next }
  /^[ \t]*server app1[ \t]/ { print "    server app1 " one; next }
  /^[ \t]*server app2[ \t]/ { print "    server app2 " two; next }
  { print }
' "$ROOT/deploy/haproxy.cfg" > "$WORK/haproxy.cfg"
cat >> "$WORK/haproxy.cfg" <<EOF

frontend stats
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /stats
EOF
haproxy -c -q -f "$WORK/haproxy.cfg" || die "the generated HAProxy configuration is invalid ($WORK/haproxy.cfg)"
haproxy -db -f "$WORK/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
PROXY_PID=$!
wait_in_proxy 1
wait_in_proxy 2
PROXY="http://127.0.0.1:$PROXY_PORT"
say "HAProxy $(haproxy -v | head -n1 | cut -d' ' -f3) at $PROXY"

SUMMARY=()
echo
say "concurrency: $SENDERS senders x $PER_SENDER messages, streams on both instances"
python3 "$ROOT/scripts/load/cluster_checks.py" concurrency "$ONE" "$TWO" "$PG_URL" "$SENDERS" "$PER_SENDER" | tee "$WORK/concurrency.out" || true
SUMMARY+=("concurrency|delivered per stream $(sed -n 's/^  stream [^:]*: \([0-9]*\/[0-9]*\) delivered.*/\1/p' "$WORK/concurrency.out" | paste -sd' '); $(grep -c 'delivered, 0 duplicates, in seq order' "$WORK/concurrency.out" || true) of 4 streams without duplicates, in order")

echo
say "outage: PostgreSQL stopped for $OUTAGE_SECS s under light load through the proxy"
python3 "$ROOT/scripts/load/cluster_checks.py" load "$PROXY" "$WORK" outage > "$WORK/outage.out" &
LOAD_PID=$!
sleep 3
pg_stop
mark outage.db-stopped
sleep "$OUTAGE_SECS"
pg_start
mark outage.db-started
sleep 10
touch "$WORK/outage.stop"
wait "$LOAD_PID" || true
LOAD_PID=""
cat "$WORK/outage.out"
LIVE="$(python3 - "http://127.0.0.1:$STATS_PORT/stats;csv" <<'EOF' || echo '?'
import sys, urllib.request
rows = [r.split(",") for r in urllib.request.urlopen(sys.argv[1], timeout=2).read().decode().splitlines()]
print(next(r[7] for r in rows if r[0] == "prettyscore_live" and r[1] == "BACKEND"))
EOF
)"
echo "  requests HAProxy sent to prettyscore_live (no instance ready): $LIVE"
SUMMARY+=("outage|database reads: $(sed -n 's/^  database reads while it was down[^:]*: //p' "$WORK/outage.out"); $(sed -n 's/^  \(200 again [0-9.]* s\).*/\1/p' "$WORK/outage.out") after it was back; $LIVE requests answered by the live-only backend")

echo
say "rolling restart: SIGTERM each instance in turn under steady load through the proxy"
python3 "$ROOT/scripts/load/cluster_checks.py" load "$PROXY" "$WORK" rolling --signups > "$WORK/rolling.out" &
LOAD_PID=$!
sleep 5
CODES=()
for n in 1 2; do
  mark "rolling.term$n"
  started="$(now)"
  kill -TERM "${PIDS[$n]}"
  code=0
  wait "${PIDS[$n]}" || code=$?
  took="$(python3 -c "print(f'{$(now) - $started:.1f}')")"
  echo "  instance $n: exit code $code, $took s after SIGTERM"
  CODES+=("instance $n: exit $code after $took s")
  start_instance "$n"
  wait_in_proxy "$n"
  mark "rolling.up$n"
  sleep 5
done
touch "$WORK/rolling.stop"
wait "$LOAD_PID" || true
LOAD_PID=""
cat "$WORK/rolling.out"
SUMMARY+=("rolling restart|$(sed -n 's/^rolling: \([0-9]* requests\).* \([0-9]* failed.*\)/\1, \2/p' "$WORK/rolling.out"); ${CODES[0]}; ${CODES[1]}")

echo
echo "Summary ($(basename "$BIN") at ${BIN#"$ROOT"/}, $(date -u +%Y-%m-%d), $(nproc) cores):"
printf '  %-16s %s\n' check figures
for line in "${SUMMARY[@]}"; do
  printf '  %-16s %s\n' "${line%%|*}" "${line#*|}"
done
