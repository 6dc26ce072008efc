#!/usr/bin/env bash
# Starts deploy/haproxy.cfg (its bind and server lines moved to loopback, no
# TLS, chroot, socket or user) for 3 s under a file limit of 20,000, the
# limit of a default systemd host, and fails if HAProxy refuses to start
# (issue 43: maxconn 20000 needed 40,032 files). Needs HAProxy 2.6+.
#
#   deploy/check-haproxy.sh [FILE_LIMIT]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v haproxy >/dev/null || { echo "haproxy is not installed (apt-get install haproxy)" >&2; exit 1; }
limit="${1:-20000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
sed -e '/^    chroot /d' -e '/^    stats socket /d' -e '/^    user haproxy/d' \
  -e '/^    group haproxy/d' -e '/^    daemon/d' -e '/^    log \/dev\/log/d' \
  -e "s#bind :80#bind 127.0.0.1:$port#" -e '/^    bind :443 /d' \
  -e 's#10\.0\.0\.1[12]:8080#127.0.0.1:9#' \
  "$here/haproxy.cfg" >"$work/haproxy.cfg"
haproxy -c -q -f "$work/haproxy.cfg"
set +e
(ulimit -n "$limit" && exec timeout 3 haproxy -db -f "$work/haproxy.cfg") >"$work/log" 2>&1
status=$?
set -e
if [[ $status -ne 124 ]]; then
  cat "$work/log" >&2
  echo "HAProxy did not start under a file limit of $limit (exit $status)" >&2
  exit 1
fi
echo "deploy/haproxy.cfg starts under a file limit of $limit"
