#!/usr/bin/env bash
# Installs what is missing, builds the web app and the server, and starts
# PrettyScore on embedded defaults (SQLite and media under ./data). Extra
# arguments go to `prettyscore serve`, e.g. scripts/run.sh --bind 0.0.0.0:8080
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

require_toolchains
# Without nasm the JPEG decoder builds its plain C code (slower); as root it is installed.
if [[ $EUID -eq 0 ]]; then ensure_nasm; fi
build_web
build_server
cd "$ROOT"
# Local runs are development: mail stays in the outbox (logged with its link,
# and readable at /api/v1/dev/outbox). Production sets neither. The server
# refuses the outbox on an address others can reach, so it stays off when
# --bind names one.
bind="127.0.0.1"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --bind) bind="${args[i + 1]:-}" ;;
    --bind=*) bind="${args[i]#--bind=}" ;;
  esac
done
case "$bind" in
  127.* | "[::1]"* | localhost*) outbox=true ;;
  *) outbox=false ;;
esac
export PRETTYSCORE_AUTH__DEV_OUTBOX="${PRETTYSCORE_AUTH__DEV_OUTBOX:-$outbox}"
# Payments go to the built-in sandbox: Upgrade opens a test checkout where no
# money moves. Set PRETTYSCORE_PAYMENTS__PROVIDER=stripe (with
# PRETTYSCORE_PAYMENTS__STRIPE__SECRET_KEY and __WEBHOOK_SECRET) for Stripe.
export PRETTYSCORE_PAYMENTS__PROVIDER="${PRETTYSCORE_PAYMENTS__PROVIDER:-sandbox}"
# A newcomer's first run gets a living leaderboard: sample contestants whose
# photos (the repo's test faces, styled and cropped) are really analysed. Only
# for the embedded SQLite database in ./data, and only when it does not exist
# yet; PRETTYSCORE_DEMO=0 skips it. Production never runs `demo` by itself.
data_dir="${PRETTYSCORE_DATA_DIR:-$ROOT/data}"
if [[ -z "${DATABASE_URL:-}" && "${PRETTYSCORE_DEMO:-1}" != "0" && ! -e "$data_dir/prettyscore.sqlite" ]]; then
  say "New database: adding demo data (prettyscore demo)"
  "$SERVER_BIN" demo --data-dir "$data_dir" || say "demo data could not be added; starting without it"
fi
say "Starting PrettyScore (Ctrl-C stops it)"
# Ctrl-C stops at once here; a deployment drains for http.drain_secs (5 s)
# so that its load balancer moves traffic away first.
export PRETTYSCORE_HTTP__DRAIN_SECS="${PRETTYSCORE_HTTP__DRAIN_SECS:-0}"
exec "$SERVER_BIN" serve "$@"
