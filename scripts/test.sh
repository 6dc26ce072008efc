#!/usr/bin/env bash
# Runs the whole test suite: the home page's script budget, web unit tests,
# Rust (SQLite, and PostgreSQL when a server can be found or made; the Stripe
# adapter also against localstripe; social sign-in against a real OpenID
# Connect provider from e2e/),
# the screening classifier's parity with nsfwjs, the API types drift check, the auth
# API driven by the official auth-js
# client, schemathesis over the OpenAPI document, and the browser end-to-end
# tests. Installs what the tests need when it is missing. Clippy's lints run
# as the Rust code compiles (scripts/lib/common.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/postgres.sh"
source "$ROOT/scripts/lib/chromium.sh"
source "$ROOT/scripts/lib/localstripe.sh"
source "$ROOT/scripts/lib/schemathesis.sh"

require_toolchains
require_rust_checkers
ensure_nasm
trap 'stop_rust_build; stop_beside; drop_test_databases; stop_throwaway_postgres; stop_localstripe' EXIT

say "Rust formatting"
(cd "$ROOT" && cargo fmt --all -- --check)

# The Rust build is the longest step, and its last crates (the server, then
# its test binaries) compile one at a time with a core idle: it runs in the
# background while the web app is built and tested and the other tools are
# installed. Clippy lints the workspace as it compiles (lint_while_compiling,
# warnings are errors). The debug server reads web/dist at run time, but the
# folder must exist when it is compiled (crates/server/build.rs).
lint_while_compiling
mkdir -p "$ROOT/web/dist"
start_rust_build

build_web
# The home page's first load: every script and modulepreload of the built
# index.html (which the release binary embeds), gzipped, at most 150 KB.
say "Home page first-load budget"
(cd "$ROOT/web" && npm run size --silent)
say "Web unit tests"
(cd "$ROOT/web" && npm run lint --silent && npm test --silent)

# What the later steps need, installed while the build still runs: the test
# OpenID Connect provider (e2e/, for the sign-in tests), the auth-js client,
# Chromium and schemathesis.
npm_install "$ROOT/e2e"
npm_install "$ROOT/e2e/auth-js"
ensure_chromium
ensure_schemathesis
find_postgres
drop_test_databases
# The Stripe adapter's tests also run against localstripe (a Stripe fake).
start_localstripe

wait_rust_build

# The API fuzzing and the auth-js client drive the binary the build has just
# made, each with its own server and databases. They run beside the Rust
# tests, which leave about a third of the two cores idle while they wait on
# PostgreSQL and SQLite.
api_clients() {
  say "API fuzzing with schemathesis (SQLite and PostgreSQL, anonymous and signed in)"
  "$ROOT/scripts/api-fuzz.sh"
  say "Auth API against the official @supabase/auth-js client"
  cd "$ROOT/e2e/auth-js" && PRETTYSCORE_BIN="$SERVER_BIN" npm test --silent
}
start_beside api-clients api_clients

say "Rust tests"
(cd "$ROOT" && cargo test --locked --workspace)

# The screening classifier against nsfwjs itself, in Node (it reuses the example that
# `cargo test` has just built).
"$ROOT/scripts/screening-parity.sh"

say "API types drift check"
"$ROOT/scripts/gen-api-types.sh" --check

wait_beside

say "End-to-end tests (Chromium at $CHROMIUM_PATH)"
(cd "$ROOT/e2e" && PRETTYSCORE_BIN="$SERVER_BIN" npx --no-install playwright test)
