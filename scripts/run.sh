#!/usr/bin/env bash
# Installs what is missing, builds the web app and the server, and starts
# PrettyScore on embedded defaults (SQLite and media under ./data). Extra
# arguments go to `prettyscore serve`, e.g. scripts/run.sh --bind 0.0.0.0:8080
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

require_toolchains
build_web
build_server
cd "$ROOT"
say "Starting PrettyScore (Ctrl-C stops it)"
exec "$SERVER_BIN" serve "$@"
