# Shared by the scripts in scripts/: paths, messages and install helpers.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export ROOT

# CI is on when `CI` is set to anything but empty, `0` or `false` (what CI
# services set; `.ci/run` sets CI=true). The Rust tests read it the same way
# (crates/server/tests/api/helpers.rs): under CI a PostgreSQL variant without
# a server fails instead of saying it did not run.
is_ci() {
  case "${CI:-}" in
    "" | 0 | false) return 1 ;;
    *) return 0 ;;
  esac
}

# Each step says how far into the run it starts (where a slow run's time goes).
# Wall-clock seconds, exported: a script called by another counts from the
# outer script's start (each bash's own $SECONDS starts at 0).
export SCRIPT_STARTED=${SCRIPT_STARTED:-$EPOCHSECONDS}
say() { printf '\033[1;35m==>\033[0m [%4ds] %s\n' "$((EPOCHSECONDS - SCRIPT_STARTED))" "$*" >&2; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

require_tool() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is not installed. $2"
}

require_toolchains() {
  require_tool cargo "Install Rust from https://rustup.rs"
  require_tool node "Install Node.js 20 or newer from https://nodejs.org"
  require_tool npm "Install Node.js 20 or newer (it includes npm)"
}

# The test command checks formatting and lints: rustup's minimal profile
# leaves out rustfmt and clippy, so add them when they are missing.
require_rust_checkers() {
  if cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1; then
    return 0
  fi
  require_tool rustup "Install rustfmt and clippy for your Rust toolchain"
  say "Adding rustfmt and clippy to the Rust toolchain"
  rustup component add rustfmt clippy
}

# Installs a folder's npm packages when package-lock.json changed since the
# last install (npm ci always starts from scratch, which costs half a minute).
npm_install() {
  local dir="$1" stamp hash
  stamp="$dir/node_modules/.prettyscore-lock-hash"
  hash="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
    return 0
  fi
  say "Installing npm packages in ${dir#"$ROOT"/}"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$hash" > "$stamp"
}

build_web() {
  npm_install "$ROOT/web"
  say "Building the web app"
  (cd "$ROOT/web" && npm run build --silent)
}

# One build profile (dev) serves the Rust tests, the end-to-end tests and the
# run script, so nothing is compiled twice.
build_server() {
  say "Building the server"
  (cd "$ROOT" && cargo build --locked --bin prettyscore)
}

SERVER_BIN="$ROOT/target/debug/prettyscore"
export SERVER_BIN
