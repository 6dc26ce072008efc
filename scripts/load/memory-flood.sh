#!/usr/bin/env bash
# Resident memory under an upload flood (issue 10): starts the server with a
# fresh data dir and prints its RSS idle, after 50 analyses of a 12 MP photo,
# and during and after 100 parallel 9.9 MB uploads from 100 loopback
# addresses (127.0.0.10-109, Linux). The goal: clearly back under
# 100 MB within a minute.
#
#   scripts/load/memory-flood.sh           the release binary if built, else the debug one
#   PRETTYSCORE_BIN=path scripts/load/...  another binary
#
# The per-client analysis limit is lifted so that every request reaches the
# server's own defences (the cap on bodies in flight); pass
# PRETTYSCORE_ANALYSIS__PER_CLIENT_PER_MINUTE=30 to measure with the default.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

BIN="${PRETTYSCORE_BIN:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x "$ROOT/target/release/prettyscore" ]]; then BIN="$ROOT/target/release/prettyscore"; else BIN="$SERVER_BIN"; fi
fi
[[ -x "$BIN" ]] || die "no server binary at $BIN: build it with cargo build [--release]"

# Pillow, for the 12 MP photo, in a virtualenv of its own.
VENV="$ROOT/.venv/load"
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import PIL' 2>/dev/null; then
  say "Installing Pillow in ${VENV#"$ROOT"/}"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "pillow==11.3.0"
fi

work="$(mktemp -d)"
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# A 12-megapixel JPEG (4000 x 3000), upscaled from a test face.
"$VENV/bin/python" - "$ROOT/testdata/face/astronaut.png" "$work/12mp.jpg" <<'PY'
import sys
from PIL import Image
face = Image.open(sys.argv[1]).convert("RGB").resize((4000, 4000), Image.LANCZOS)
face.crop((0, 500, 4000, 3500)).save(sys.argv[2], quality=92)
PY

env -u DATABASE_URL PRETTYSCORE_ANALYSIS__PER_CLIENT_PER_MINUTE="${PRETTYSCORE_ANALYSIS__PER_CLIENT_PER_MINUTE:-100000}" \
  "$BIN" serve --bind 127.0.0.1:0 --data-dir "$work/data" >"$work/stdout" 2>"$work/log" &
pid=$!
url=""
for _ in $(seq 1 600); do
  url="$(sed -n 's/^PrettyScore listening on //p' "$work/stdout" | head -n 1)"
  [[ -n "$url" ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; die "the server did not start"; }
  sleep 0.1
done
[[ -n "$url" ]] || die "the server did not start within a minute"
say "Measuring ${BIN#"$ROOT"/} (pid $pid) at $url"
"$VENV/bin/python" "$ROOT/scripts/load/memory_flood.py" "$url" "$pid" "$work/12mp.jpg"
