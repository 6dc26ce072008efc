#!/usr/bin/env bash
# Slow request bodies from many loopback addresses (issue 43): starts the
# server with a fresh data dir and runs slow_body.py against it, which holds
# ADDRESSES x PER_ADDRESS connections that send an upload's headers and then
# one byte every 5 s (or, with `budget`, five addresses trickling 133 MB of
# declared uploads), while it checks that /healthz and a signed-in GET answer
# within 1 s and that an honest 5 MB upload over 5 Mbit/s goes through.
#
#   scripts/load/slow-body.sh [slow-body|budget] [ADDRESSES] [PER_ADDRESS] [SECONDS]
#   PRETTYSCORE_BIN=path scripts/load/slow-body.sh   another binary
#   SERVER_CPUS=0 ATTACKER_CPUS=1 scripts/load/slow-body.sh
#                                  the server and the attacker each on their
#                                  own cores (taskset), as a real attacker
#                                  is on other machines
#
# Defaults: slow-body 64 256 60. Linux only (127.0.0.x aliases are loopback
# there); at most 64 x 256 connections for 120 s, all on loopback. The
# attacking script needs about PER_ADDRESS x ADDRESSES file descriptors.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

BIN="${PRETTYSCORE_BIN:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x "$ROOT/target/release/prettyscore" ]]; then BIN="$ROOT/target/release/prettyscore"; else BIN="$SERVER_BIN"; fi
fi
[[ -x "$BIN" ]] || die "no server binary at $BIN: build it with cargo build [--release]"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work="$(mktemp -d)"
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# Optional core pinning: a prefix for each side's command.
server_on=()
attacker_on=()
if [[ -n "${SERVER_CPUS:-}" ]]; then server_on=(taskset -c "$SERVER_CPUS"); fi
if [[ -n "${ATTACKER_CPUS:-}" ]]; then attacker_on=(taskset -c "$ATTACKER_CPUS"); fi

env -u DATABASE_URL PRETTYSCORE_AUTH__AUTOCONFIRM=true \
  "${server_on[@]}" "$BIN" serve --bind 127.0.0.1:0 --data-dir "$work/data" >"$work/stdout" 2>"$work/log" &
pid=$!
url=""
for _ in $(seq 1 600); do
  url="$(sed -n 's/^PrettyScore listening on //p' "$work/stdout" | head -n 1)"
  [[ -n "$url" ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; die "the server did not start"; }
  sleep 0.1
done
[[ -n "$url" ]] || die "the server did not start within a minute"
say "Attacking ${BIN#"$ROOT"/} (pid $pid) at $url"
"${attacker_on[@]}" python3 "$ROOT/scripts/load/slow_body.py" "$url" "${1:-slow-body}" "${2:-64}" "${3:-256}" "${4:-60}"
