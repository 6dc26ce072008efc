# Makes sure a Chromium for the Playwright tests exists (Debian's package:
# Playwright's own browser download does not work everywhere).
# shellcheck shell=bash

ensure_chromium() {
  CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || command -v chromium-browser || true)}"
  if [[ -z "$CHROMIUM_PATH" ]]; then
    if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      say "Installing Chromium (Debian package) for the browser tests"
      apt-get install -y -qq chromium >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } \
        || die "could not install Chromium with apt-get"
      CHROMIUM_PATH="$(command -v chromium)"
    else
      die "The browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary."
    fi
  fi
  export CHROMIUM_PATH
}
