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

# nasm assembles libjpeg-turbo's SIMD code (mozjpeg-sys builds it from source
# for the analysis crate's JPEG decode). Without it the crate still builds, with
# the plain C code only, and the test that compares the two fails: so install it
# before the first cargo build (Debian's package, as root).
ensure_nasm() {
  command -v nasm >/dev/null 2>&1 && return 0
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "Installing nasm (Debian package) for libjpeg-turbo's SIMD code"
    apt-get install -y -qq nasm >/dev/null 2>&1 \
      || { apt-get update -qq && apt-get install -y -qq nasm >/dev/null; } \
      || die "could not install nasm with apt-get"
  else
    die "The JPEG decoder's SIMD code needs nasm. Install it (Debian/Ubuntu: sudo apt-get install nasm)."
  fi
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

# Clippy lints the workspace's own crates while they are compiled for the
# tests: clippy-driver stands in for rustc on workspace members (what `cargo
# clippy` does) and CLIPPY_ARGS carries its arguments. A separate `cargo
# clippy` pass type-checked every dependency a second time (209 s of a fresh
# clone's 1,915 s). Exported, so that every later cargo call in the run
# builds the same way and compiles nothing again.
lint_while_compiling() {
  local driver
  driver="$(rustc --print sysroot)/bin/clippy-driver"
  [[ -x "$driver" ]] || driver="$(command -v clippy-driver)" \
    || die "clippy-driver was not found beside rustc: install clippy for your Rust toolchain"
  export RUSTC_WORKSPACE_WRAPPER="$driver"
  # `cargo clippy -- -D warnings` hands clippy-driver this string.
  export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
}

# Compiles what `cargo test --workspace` runs (libraries, binaries, tests,
# examples) and the benches, in the background (its output in
# target/rust-build.log); wait_rust_build shows how it ended. (Not
# `--all-targets`: it builds the examples as tests, which `cargo test` then
# builds again as programs.)
start_rust_build() {
  mkdir -p "$ROOT/target"
  RUST_BUILD_LOG="$ROOT/target/rust-build.log"
  say "Building the Rust workspace in the background (log: ${RUST_BUILD_LOG#"$ROOT"/})"
  (
    cd "$ROOT" \
      && cargo test --locked --workspace --no-run \
      && cargo test --locked --workspace --benches --no-run
  ) >"$RUST_BUILD_LOG" 2>&1 &
  RUST_BUILD_PID=$!
}

wait_rust_build() {
  say "Waiting for the Rust build"
  if ! wait "$RUST_BUILD_PID"; then
    RUST_BUILD_PID=""
    grep -v '^ *\(Compiling\|Downloaded\|Downloading\|Locking\|Updating\) ' "$RUST_BUILD_LOG" >&2 || true
    die "The Rust build failed (above; clippy's warnings are errors). The whole log: ${RUST_BUILD_LOG#"$ROOT"/}"
  fi
  RUST_BUILD_PID=""
  grep -E '^ *Finished ' "$RUST_BUILD_LOG" >&2 || true
}

# For the exit trap: a failed step must not leave cargo running.
stop_rust_build() {
  if [[ -n "${RUST_BUILD_PID:-}" ]]; then
    kill_tree "$RUST_BUILD_PID"
    wait "$RUST_BUILD_PID" 2>/dev/null || true
    RUST_BUILD_PID=""
  fi
}

# Stops a process and everything it started (servers, browsers), children
# first so that none is left behind by a parent that dies before them.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill -TERM "$1" 2>/dev/null || true
}

# A step that runs beside the foreground ones: `start_beside NAME command…`
# runs it in the background with its output in target/NAME.log, and
# `wait_beside` prints that output and stops the run if it failed. One at a
# time; stop_beside is for the exit trap.
start_beside() {
  BESIDE_NAME="$1"
  shift
  BESIDE_LOG="$ROOT/target/$BESIDE_NAME.log"
  say "Starting in the background: $BESIDE_NAME (log: ${BESIDE_LOG#"$ROOT"/})"
  ("$@") >"$BESIDE_LOG" 2>&1 &
  BESIDE_PID=$!
}

wait_beside() {
  say "Waiting for $BESIDE_NAME"
  local status=0
  wait "$BESIDE_PID" || status=$?
  BESIDE_PID=""
  cat "$BESIDE_LOG" >&2
  [[ $status -eq 0 ]] || die "$BESIDE_NAME failed (above; the log: ${BESIDE_LOG#"$ROOT"/})"
}

stop_beside() {
  if [[ -n "${BESIDE_PID:-}" ]]; then
    kill_tree "$BESIDE_PID"
    wait "$BESIDE_PID" 2>/dev/null || true
    BESIDE_PID=""
  fi
}

# One build profile (dev) serves the Rust tests, the end-to-end tests and the
# run script, so nothing is compiled twice.
build_server() {
  say "Building the server"
  (cd "$ROOT" && cargo build --locked --bin prettyscore)
}

SERVER_BIN="$ROOT/target/debug/prettyscore"
export SERVER_BIN
