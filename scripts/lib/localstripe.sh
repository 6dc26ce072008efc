# Starts localstripe (PyPI: a stateful Stripe fake) for the Stripe adapter's
# tests, in a virtual environment this script creates under target/, on
# 127.0.0.1 at a free port. Sets PRETTYSCORE_TEST_LOCALSTRIPE (its base URL).
# Under CI a failure to start it fails the run, as for PostgreSQL.
# shellcheck shell=bash

LOCALSTRIPE_VERSION="1.15.10"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

install_localstripe() {
  local venv="$ROOT/target/localstripe-venv"
  if [[ ! -x "$venv/bin/localstripe" ]] || ! "$venv/bin/pip" show localstripe 2>/dev/null | grep "^Version: $LOCALSTRIPE_VERSION$" >/dev/null; then
    say "Installing localstripe $LOCALSTRIPE_VERSION (PyPI) into ${venv#"$ROOT"/}"
    python3 -m venv "$venv" || return 1
    "$venv/bin/pip" install --quiet --disable-pip-version-check "localstripe==$LOCALSTRIPE_VERSION" || return 1
  fi
  LOCALSTRIPE_BIN="$venv/bin/localstripe"
}

start_localstripe() {
  local port log
  if [[ -n "${PRETTYSCORE_TEST_LOCALSTRIPE:-}" ]]; then
    export PRETTYSCORE_TEST_LOCALSTRIPE
    return 0
  fi
  if ! command -v python3 >/dev/null 2>&1 || ! install_localstripe; then
    if is_ci; then
      die "CI must run the Stripe adapter against localstripe, but it could not be installed (python3 -m venv, pip install localstripe)."
    fi
    say "localstripe could not be installed: its Stripe adapter test prints NOT RUN."
    return 0
  fi
  port="$(free_port)"
  log="$ROOT/target/localstripe.log"
  "$LOCALSTRIPE_BIN" --port "$port" --from-scratch >"$log" 2>&1 &
  LOCALSTRIPE_PID=$!
  # localstripe listens on every address; the tests only use 127.0.0.1.
  for _ in $(seq 1 100); do
    if port_open 127.0.0.1 "$port"; then
      PRETTYSCORE_TEST_LOCALSTRIPE="http://127.0.0.1:$port"
      export PRETTYSCORE_TEST_LOCALSTRIPE
      say "localstripe runs at $PRETTYSCORE_TEST_LOCALSTRIPE"
      return 0
    fi
    if ! kill -0 "$LOCALSTRIPE_PID" 2>/dev/null; then break; fi
    sleep 0.1
  done
  stop_localstripe
  if is_ci; then
    die "CI must run the Stripe adapter against localstripe, but it did not start (see target/localstripe.log)."
  fi
  say "localstripe did not start (see target/localstripe.log): its Stripe adapter test prints NOT RUN."
}

stop_localstripe() {
  if [[ -n "${LOCALSTRIPE_PID:-}" ]]; then
    kill "$LOCALSTRIPE_PID" 2>/dev/null || true
    wait "$LOCALSTRIPE_PID" 2>/dev/null || true
    LOCALSTRIPE_PID=""
  fi
}
