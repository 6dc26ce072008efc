# Makes sure a Chromium for the Playwright tests exists (a Debian package:
# Playwright's own browser download does not work everywhere).
# shellcheck shell=bash

# Chromium's headless shell (Debian's `chromium-headless-shell`) first: it is
# the browser Playwright itself uses for headless runs, lighter than the full
# browser's headless mode (the route walk, 158 tests: 140 s against 152 s on
# the same machine), and a smaller package to install. Any Chromium will do.
ensure_chromium() {
  CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium-headless-shell || command -v chromium \
    || command -v chromium-browser || true)}"
  if [[ -z "$CHROMIUM_PATH" ]]; then
    if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      say "Installing Chromium's headless shell (Debian package) for the browser tests"
      apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; } \
        || die "could not install chromium-headless-shell with apt-get"
      CHROMIUM_PATH="$(command -v chromium-headless-shell)"
    else
      die "The browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install chromium-headless-shell, or chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary."
    fi
  fi
  export CHROMIUM_PATH
}
