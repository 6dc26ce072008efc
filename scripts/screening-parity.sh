#!/usr/bin/env bash
# Screening parity: our classifier (crates/analysis, src/screening.rs, run by its
# `screen` example) against the reference, nsfwjs 4.4.0 itself in Node (TF.js's
# pure-JavaScript CPU backend), on the test images: every class score within 0.01, the
# test faces, hands, feet and pet Neutral, the nude in testdata/screening/ flagged. See
# scripts/screening-parity/parity.mjs. Installs its npm packages when they are missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
require_toolchains
npm_install "$ROOT/scripts/screening-parity"
say "Screening parity with nsfwjs"
# Debug profile: the analysis crate is optimised in it (the workspace's Cargo.toml), and
# scripts/test.sh's `cargo test` has already built the example.
(cd "$ROOT" && cargo build --quiet --locked -p prettyscore-analysis --example screen)
node "$ROOT/scripts/screening-parity/parity.mjs" "${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/screen"
