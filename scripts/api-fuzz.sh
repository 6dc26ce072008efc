#!/usr/bin/env bash
# Runs schemathesis over /api/openapi.json against the real binary, anonymous
# and signed in, on SQLite and (when a server is found) on PostgreSQL. Fails
# on any server error, any status or content type the document does not
# list, and any response that does not match its schema.
#
#   scripts/api-fuzz.sh              both databases
#   API_FUZZ_EXAMPLES=50 scripts/...  more examples per operation (default 15)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/postgres.sh"
source "$ROOT/scripts/lib/schemathesis.sh"

EXAMPLES="${API_FUZZ_EXAMPLES:-15}"
[[ -x "$SERVER_BIN" ]] || build_server
ensure_schemathesis

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Starts the binary on a free port with a fresh data dir (and database),
# and sets BASE_URL.
start_server() {
  local database_url="$1" log="$work/server-$2.log"
  rm -rf "$work/data"
  mkdir -p "$work/data"
  env -u DATABASE_URL ${database_url:+DATABASE_URL="$database_url"} \
    PRETTYSCORE_ANALYSIS__PER_CLIENT_PER_MINUTE=100000 \
    PRETTYSCORE_HTTP__DRAIN_SECS=0 \
    PRETTYSCORE_EDITS__PER_CLIENT_PER_MINUTE=100000 \
    PRETTYSCORE_EDITS__ANONYMOUS_PER_ADDRESS_PER_DAY=100000 \
    PRETTYSCORE_PARTNERS__CLICKS_PER_CLIENT_PER_MINUTE=100000 \
    PRETTYSCORE_AUTH__PASSWORD_HASH__MEMORY_KIB=64 \
    PRETTYSCORE_AUTH__PASSWORD_HASH__ITERATIONS=1 \
    PRETTYSCORE_AUTH__PASSWORD_HASH__PARALLELISM=1 \
    "$SERVER_BIN" serve --bind 127.0.0.1:0 --data-dir "$work/data" >"$work/stdout" 2>"$log" &
  server_pid=$!
  for _ in $(seq 1 600); do
    BASE_URL="$(sed -n 's/^PrettyScore listening on //p' "$work/stdout" | head -n 1)"
    [[ -n "$BASE_URL" ]] && return 0
    kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; die "the server did not start"; }
    sleep 0.1
  done
  die "the server did not start within a minute"
}

stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# A signed-in user's access token.
sign_up() {
  curl -fsS -X POST "$BASE_URL/auth/v1/signup" -H 'content-type: application/json' \
    -d "{\"email\":\"fuzz-$RANDOM@example.com\",\"password\":\"correct-horse-battery\"}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}

run_schemathesis() {
  local label="$1"; shift
  say "schemathesis: $label"
  # The dev outbox is off here (404 by design), and /metrics answers only
  # loopback without a proxy: both are fuzzed like the rest.
  "$SCHEMATHESIS" run "$BASE_URL/api/openapi.json" \
    --url "$BASE_URL" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$EXAMPLES" \
    --seed 1 \
    --no-color \
    --suppress-health-check all \
    --request-timeout 30 \
    "$@"
}

fuzz_database() {
  local name="$1" database_url="$2"
  start_server "$database_url" "$name"
  run_schemathesis "$name, anonymous"
  local token
  token="$(sign_up)"
  # Deleting the account would sign the rest of the run out. The user's own
  # event stream stays open for as long as the session lives (by design; its
  # API tests read it): every example would wait out the request timeout.
  run_schemathesis "$name, signed in" -H "Authorization: Bearer $token" \
    --exclude-operation-id delete_account \
    --exclude-operation-id user_events
  stop_server
}

fuzz_database sqlite ""

find_postgres
if [[ -n "${PRETTYSCORE_TEST_POSTGRES:-}" ]]; then
  require_tool psql "Install the PostgreSQL client (apt-get install postgresql-client)"
  db="prettyscore_test_fuzz_$$"
  psql "$PRETTYSCORE_TEST_POSTGRES/postgres" -qc "CREATE DATABASE $db" >/dev/null
  fuzz_database postgres "$PRETTYSCORE_TEST_POSTGRES/$db"
  psql "$PRETTYSCORE_TEST_POSTGRES/postgres" -qc "DROP DATABASE $db" >/dev/null || true
elif is_ci; then
  die "CI must fuzz on PostgreSQL too, but no server was found"
fi
say "schemathesis found no server error and no undocumented answer"
