# Schemathesis in a virtualenv of its own, pinned, made on first use.
# shellcheck shell=bash

SCHEMATHESIS_VERSION="4.32.5"
SCHEMATHESIS_VENV="$ROOT/.venv/schemathesis"
SCHEMATHESIS="$SCHEMATHESIS_VENV/bin/schemathesis"

ensure_schemathesis() {
  if [[ -x "$SCHEMATHESIS" ]] \
    && "$SCHEMATHESIS_VENV/bin/pip" show schemathesis 2>/dev/null | grep -x "Version: $SCHEMATHESIS_VERSION" >/dev/null; then
    return 0
  fi
  require_tool python3 "Install Python 3.9 or newer (with venv)"
  say "Installing schemathesis $SCHEMATHESIS_VERSION in ${SCHEMATHESIS_VENV#"$ROOT"/}"
  python3 -m venv "$SCHEMATHESIS_VENV"
  "$SCHEMATHESIS_VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
}
