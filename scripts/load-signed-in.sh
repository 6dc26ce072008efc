#!/usr/bin/env bash
# Load test of signed-in requests on the release binary (issue 9, "Signed-in
# requests are slow"): one user with 20 saved photos on SQLite, then wrk on
#   GET /healthz            the hello-world baseline (no database, no token)
#   GET /auth/v1/user       one access-token verification and one user read
#   GET /api/v1/photos      token verification, the list, 40 signed media URLs
# in the same run, and prints each one's throughput as a share of the
# baseline's. Figures, not a pass/fail test: the goal is photos >= 30 %.
#
#   scripts/load-signed-in.sh                 # builds the release binary if needed
#   DURATION=20s CONNECTIONS=32 THREADS=1 scripts/load-signed-in.sh
#   PRETTYSCORE_BIN=/path/to/prettyscore scripts/load-signed-in.sh
#
# Needs wrk (Debian/Ubuntu: apt-get install wrk), curl and python3.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-32}"
THREADS="${THREADS:-1}"
PHOTOS="${PHOTOS:-20}"
IMAGE="${IMAGE:-$ROOT/testdata/face/astronaut.png}"

require_tool wrk "Install it with: apt-get install wrk"
require_tool curl "Install curl"
require_tool python3 "Install Python 3"

BIN="${PRETTYSCORE_BIN:-$ROOT/target/release/prettyscore}"
if [[ -z "${PRETTYSCORE_BIN:-}" ]]; then
  say "Building the release binary (slow the first time)"
  (cd "$ROOT" && cargo build --locked --release --bin prettyscore)
fi
[[ -x "$BIN" ]] || die "no server binary at $BIN"

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

say "Starting $BIN on SQLite in $WORK"
# Quiet logs: a log line per request would measure the terminal.
RUST_LOG=warn "$BIN" serve --bind 127.0.0.1:0 --data-dir "$WORK/data" > "$WORK/server.log" 2>&1 &
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

say "Signing up one user and saving $PHOTOS photos"
TOKEN="$(curl -fsS "$URL/auth/v1/signup" -H 'Content-Type: application/json' \
  -d '{"email":"load@example.com","password":"load-test-password"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"
for _ in $(seq 1 "$PHOTOS"); do
  curl -fsS -o /dev/null "$URL/api/v1/photos" -H "Authorization: Bearer $TOKEN" \
    -F "image=@$IMAGE"
done
COUNT="$(curl -fsS "$URL/api/v1/photos" -H "Authorization: Bearer $TOKEN" |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d if isinstance(d, list) else d.get("photos", d.get("items", []))))')"
[[ "$COUNT" == "$PHOTOS" ]] || die "the list holds $COUNT photos, not $PHOTOS"

# Requests per second of one endpoint, from wrk's summary.
measure() {
  local path="$1"; shift
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$URL$path" > "$WORK/wrk.txt"
  local rps p50 errors
  rps="$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.txt")"
  p50="$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")"
  errors="$(grep -E 'Non-2xx|Socket errors' "$WORK/wrk.txt" || true)"
  [[ -z "$errors" ]] || { cat "$WORK/wrk.txt" >&2; die "errors while loading $path"; }
  printf '%s %s\n' "$rps" "$p50"
}

say "wrk -t$THREADS -c$CONNECTIONS -d$DURATION, one after the other"
read -r HELLO HELLO_P50 < <(measure /healthz)
read -r USER USER_P50 < <(measure /auth/v1/user -H "Authorization: Bearer $TOKEN")
read -r LIST LIST_P50 < <(measure /api/v1/photos -H "Authorization: Bearer $TOKEN")

python3 - "$HELLO" "$HELLO_P50" "$USER" "$USER_P50" "$LIST" "$LIST_P50" "$PHOTOS" <<'EOF'
import sys
hello, hello_p50, user, user_p50, photos, photos_p50, count = sys.argv[1:]
hello, user, photos = float(hello), float(user), float(photos)
print(f"{'endpoint':<34}{'req/s':>10}{'p50':>10}{'of /healthz':>14}")
for name, rps, p50 in [
    ("GET /healthz (baseline)", hello, hello_p50),
    ("GET /auth/v1/user", user, user_p50),
    (f"GET /api/v1/photos ({count} photos)", photos, photos_p50),
]:
    print(f"{name:<34}{rps:>10.0f}{p50:>10}{rps / hello:>13.0%}")
goal = "met" if photos / hello >= 0.30 else "NOT met"
print(f"goal (photos list >= 30% of the baseline): {goal}")
EOF
