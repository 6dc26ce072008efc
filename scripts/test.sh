#!/usr/bin/env bash
# Runs the whole test suite: the home page's script budget, web unit tests,
# Rust (SQLite, and PostgreSQL when a server can be found or made; the Stripe
# adapter also against localstripe; social sign-in against a real OpenID
# Connect provider from e2e/),
# the API types drift check, the auth API driven by the official auth-js
# client, schemathesis over the OpenAPI document, and the browser end-to-end
# tests. Installs what the tests need when it is missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/postgres.sh"
source "$ROOT/scripts/lib/chromium.sh"
source "$ROOT/scripts/lib/localstripe.sh"

require_toolchains
require_rust_checkers
trap 'drop_test_databases; stop_throwaway_postgres; stop_localstripe' EXIT

say "Rust formatting"
(cd "$ROOT" && cargo fmt --all -- --check)

build_web
# The home page's first load: every script and modulepreload of the built
# index.html (which the release binary embeds), gzipped, at most 150 KB.
say "Home page first-load budget"
(cd "$ROOT/web" && npm run size --silent)
say "Web unit tests"
(cd "$ROOT/web" && npm run lint --silent && npm test --silent)

find_postgres
drop_test_databases
# The Stripe adapter's tests also run against localstripe (a Stripe fake).
start_localstripe
# The sign-in tests start the test OpenID Connect provider from e2e/.
npm_install "$ROOT/e2e"
say "Rust tests"
(cd "$ROOT" && cargo test --locked --workspace)

# After the tests, so that a lint does not hide a failing test; the
# workspace's lints are in Cargo.toml (`[workspace.lints]`).
say "Rust lints (clippy, warnings are errors)"
(cd "$ROOT" && cargo clippy --locked --workspace --all-targets -- -D warnings)

say "API types drift check"
"$ROOT/scripts/gen-api-types.sh" --check

say "API fuzzing with schemathesis (SQLite and PostgreSQL, anonymous and signed in)"
"$ROOT/scripts/api-fuzz.sh"

# `cargo test` has built target/debug/prettyscore for the integration tests;
# the suites below use that binary. (A separate `cargo build` would compile
# again with the features of non-dev dependencies.)
npm_install "$ROOT/e2e/auth-js"
say "Auth API against the official @supabase/auth-js client"
(cd "$ROOT/e2e/auth-js" && PRETTYSCORE_BIN="$SERVER_BIN" npm test --silent)

ensure_chromium
say "End-to-end tests (Chromium at $CHROMIUM_PATH)"
(cd "$ROOT/e2e" && PRETTYSCORE_BIN="$SERVER_BIN" npx --no-install playwright test)
