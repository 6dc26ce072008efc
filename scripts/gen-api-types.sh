#!/usr/bin/env bash
# Regenerates the web app's API types from the server's OpenAPI document.
# With --check, fails when the checked-in types differ from the server's.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

TYPES="$ROOT/web/src/lib/api/schema.d.ts"
[[ -x "$SERVER_BIN" ]] || build_server
npm_install "$ROOT/web"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$SERVER_BIN" openapi > "$work/openapi.json"
(cd "$ROOT/web" && npx --no-install openapi-typescript "$work/openapi.json" -o "$work/schema.d.ts" >/dev/null)

if [[ "${1:-}" == "--check" ]]; then
  if ! diff -u "$TYPES" "$work/schema.d.ts"; then
    die "web/src/lib/api/schema.d.ts is out of date with the server's API: run scripts/gen-api-types.sh and commit the result."
  fi
  say "API types match the server's OpenAPI document"
else
  mkdir -p "$(dirname "$TYPES")"
  cp "$work/schema.d.ts" "$TYPES"
  say "Wrote ${TYPES#"$ROOT"/}"
fi
