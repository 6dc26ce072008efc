#!/usr/bin/env bash
# Leaderboard pages under load (issue 14): seeds 1,000,000 listed photos into
# a fresh PostgreSQL database, prints the query plans of a deep page, then runs
# wrk in one run on
#   GET /healthz                                  the hello-world baseline (no database)
#   GET /api/v1/leaderboard                       page 1 (20 entries)
#   GET /api/v1/leaderboard?after=<cursor>        page 100 and page 5000
# and prints each one's p50, p99 and throughput as a share of the baseline's;
# then the same for page 1 on the embedded SQLite database with the demo
# data. PROFILE=1 also records page 1 on PostgreSQL with perf and prints
# where the server's time went. Figures, not a pass/fail test (the README
# keeps the last run's).
#
#   scripts/load/leaderboard.sh                   the release binary if built, else the debug one
#   ROWS=100000 DURATION=5s scripts/load/leaderboard.sh
#   PRETTYSCORE_BENCH_POSTGRES=postgres://user@host:5432 scripts/load/leaderboard.sh
#
# Needs psql, wrk and a PostgreSQL server (13+, for gen_random_uuid); the
# database it creates is dropped at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

PG="${PRETTYSCORE_BENCH_POSTGRES:-${PRETTYSCORE_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}}"
PG="${PG%/}"
ROWS="${ROWS:-1000000}"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-32}"
THREADS="${THREADS:-1}"
PAGE_SIZE=20

require_tool psql "Install the PostgreSQL client (apt-get install postgresql-client)"
require_tool wrk "Install it with: apt-get install wrk"
require_tool curl "Install curl"
require_tool python3 "Install Python 3"

BIN="${PRETTYSCORE_BIN:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x "$ROOT/target/release/prettyscore" ]]; then BIN="$ROOT/target/release/prettyscore"; else BIN="$SERVER_BIN"; fi
fi
[[ -x "$BIN" ]] || die "no server binary at $BIN: build it with cargo build [--release]"

DB="prettyscore_bench_$(date +%s)_$$"
WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS \"$DB\"" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

q() { psql -qAtX -v ON_ERROR_STOP=1 "$PG/$DB" "$@"; }

say "Creating $DB and applying the migrations with $BIN"
psql -q "$PG/postgres" -c "CREATE DATABASE \"$DB\"" >/dev/null
DATABASE_URL="$PG/$DB" RUST_LOG=warn "$BIN" migrate --data-dir "$WORK/data" >/dev/null

say "Seeding $ROWS listed photos (scores 1.0-10.0 with one decimal, so ties are many)"
start=$(date +%s)
q <<SQL
INSERT INTO users (id, email) VALUES ('00000000-0000-0000-0000-0000000000b1', 'bench@example.com');
-- The leaderboard lists adults on file only (issue 41).
INSERT INTO birth_dates (id, user_id, date_of_birth) VALUES (gen_random_uuid(), '00000000-0000-0000-0000-0000000000b1', '1990-01-01');
INSERT INTO photos (id, user_id, original_image_url, score, rating_label, breakdown, public_listing,
                    is_verified, listing_status, display_name, created_at, updated_at)
SELECT gen_random_uuid(), '00000000-0000-0000-0000-0000000000b1', '/media/bench/' || g || '.jpg',
       round((1 + random() * 9)::numeric, 1)::float8, 'Pretty', '{}'::jsonb, true, true, 'approved',
       'Entrant ' || g, now() - make_interval(secs => g), now()
FROM generate_series(1, $ROWS) AS g;
-- A few that are not listed, as in life.
UPDATE photos SET is_verified = false, listing_status = 'pending' WHERE random() < 0.01;
VACUUM ANALYZE photos;
SQL
say "Seeded in $(( $(date +%s) - start )) s"

# The cursor after the entry at `position` (1-based): score|created_at|id|rank|position, base64url.
cursor_after() {
  local position=$1 raw
  raw="$(q -F '|' <<SQL
WITH o AS (
  SELECT id, score, created_at FROM photos WHERE public_listing AND is_verified
  ORDER BY score DESC, created_at ASC, id ASC OFFSET $((position - 1)) LIMIT 1)
SELECT o.score,
       to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       o.id,
       1 + (SELECT count(*) FROM photos p WHERE p.public_listing AND p.is_verified
            AND (p.score > o.score OR (p.score = o.score AND p.created_at < o.created_at))),
       $position
FROM o;
SQL
)"
  printf '%s' "$raw" | base64 -w0 | tr '+/' '-_' | tr -d '='
}
PAGE_100="$(cursor_after $((99 * PAGE_SIZE)))"
PAGE_5000="$(cursor_after $((4999 * PAGE_SIZE)))"
[[ -n "$PAGE_5000" ]] || die "fewer rows than 5000 pages; raise ROWS"

say "Query plans of page 5000 (the two range scans the server runs)"
decoded="$(python3 -c 'import base64, sys; c = sys.argv[1]; print(base64.urlsafe_b64decode(c + "=" * (-len(c) % 4)).decode())' "$PAGE_5000")"
IFS='|' read -r S C I _ _ <<<"$decoded"
PLANS="$WORK/plans.txt"
q >"$PLANS" <<SQL
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT * FROM photos WHERE public_listing = true AND is_verified = true AND score = $S
  AND (created_at, id) > ('$C'::timestamptz, '$I'::uuid)
ORDER BY score DESC, created_at ASC, id ASC LIMIT $((PAGE_SIZE + 1));
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT * FROM photos WHERE public_listing = true AND is_verified = true AND score < $S
ORDER BY score DESC, created_at ASC, id ASC LIMIT $((PAGE_SIZE + 1));
SQL
cat "$PLANS"
if grep -q "Sort" "$PLANS"; then say "WARNING: a plan sorts"; else say "No sort in either plan"; fi

# start_server <data dir> [DATABASE_URL]: sets SERVER_PID and URL.
start_server() {
  local data=$1 database=${2:-}
  env -u DATABASE_URL ${database:+DATABASE_URL="$database"} RUST_LOG=warn PRETTYSCORE_HTTP__DRAIN_SECS=0 \
    "$BIN" serve --bind 127.0.0.1:0 --data-dir "$data" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  URL=""
  for _ in $(seq 1 300); do
    URL="$(sed -n 's/.*PrettyScore listening on \(http[^ ]*\).*/\1/p' "$WORK/server.log" | head -n1)"
    [[ -n "$URL" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; die "the server stopped"; }
    sleep 0.1
  done
  [[ -n "$URL" ]] || die "the server did not say where it listens"
  URL="${URL%/}"
}

stop_server() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

say "Starting $BIN on $DB"
start_server "$WORK/data" "$PG/$DB"

for path in "/api/v1/leaderboard?limit=$PAGE_SIZE" "/api/v1/leaderboard?limit=$PAGE_SIZE&after=$PAGE_5000"; do
  curl -fsS "$URL$path" | grep -q '"rank"' || die "no entries at $path"
done

run() {
  local name=$1 path=$2 out
  out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$URL$path")"
  local rps p50 p99
  rps="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
  p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  printf '%s %s %s %s\n' "$name" "$rps" "$p50" "$p99"
}

say "wrk: $THREADS thread(s), $CONNECTIONS connections, $DURATION each"
RESULTS="$WORK/results.txt"
{
  run healthz "/healthz"
  run page-1 "/api/v1/leaderboard?limit=$PAGE_SIZE"
  run page-100 "/api/v1/leaderboard?limit=$PAGE_SIZE&after=$PAGE_100"
  run page-5000 "/api/v1/leaderboard?limit=$PAGE_SIZE&after=$PAGE_5000"
} >"$RESULTS"

if [[ "${PROFILE:-0}" == "1" ]]; then
  require_tool perf "Install it with: apt-get install linux-perf"
  say "perf: page 1 on PostgreSQL, 10 s"
  perf record -F 999 -o "$WORK/perf.data" -p "$SERVER_PID" -- sleep 10 >/dev/null 2>&1 &
  perf_pid=$!
  wrk -t"$THREADS" -c"$CONNECTIONS" -d10s "$URL/api/v1/leaderboard?limit=$PAGE_SIZE" >/dev/null
  wait "$perf_pid" || true
  say "Where the server's time went, by library"
  perf report -i "$WORK/perf.data" --stdio --sort dso 2>/dev/null | grep -E '^ +[0-9]' | head -12 || true
  say "…and by function (1 % or more)"
  perf report -i "$WORK/perf.data" --stdio --sort dso,symbol --percent-limit 1 2>/dev/null \
    | grep -E '^ +[0-9]' | sed -E 's/ +$//' | cut -c1-150 | head -40 || true
fi
stop_server

say "The embedded SQLite database with the demo data"
env -u DATABASE_URL RUST_LOG=warn "$BIN" demo --data-dir "$WORK/sqlite" >/dev/null
start_server "$WORK/sqlite"
curl -fsS "$URL/api/v1/leaderboard?limit=$PAGE_SIZE" | grep -q '"rank"' || die "no demo entries on SQLite"
{
  run healthz-sqlite "/healthz"
  run page-1-sqlite "/api/v1/leaderboard?limit=$PAGE_SIZE"
} >>"$RESULTS"
stop_server

printf '\n%-15s %12s %10s %10s %10s\n' "endpoint" "req/s" "p50" "p99" "of hello"
awk '$1 == "healthz" { pg = $2 } $1 == "healthz-sqlite" { lite = $2 }
     { rows[NR] = $0 }
     END { for (i = 1; i <= NR; i++) { split(rows[i], f, " "); base = (f[1] ~ /sqlite/) ? lite : pg;
           printf "%-15s %12s %10s %10s %9.1f%%\n", f[1], f[2], f[3], f[4], 100 * f[2] / base } }' "$RESULTS"
