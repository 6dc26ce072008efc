# Finds a PostgreSQL server for the tests, or makes a throwaway one.
# Sets PRETTYSCORE_TEST_POSTGRES (a server URL without a database name).
# shellcheck shell=bash

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

start_throwaway_postgres() {
  local bin dir port=54329
  if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    [[ $EUID -eq 0 ]] || return 1
    say "Installing PostgreSQL (Debian package) for the PostgreSQL tests"
    apt-get install -y -qq postgresql >/dev/null 2>&1 \
      || { apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; } || return 1
  fi
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  dir="$(mktemp -d /tmp/prettyscore-pg.XXXXXX)"
  say "Starting a throwaway PostgreSQL on 127.0.0.1:$port"
  local run=()
  if [[ $EUID -eq 0 ]]; then
    chown postgres "$dir"
    run=(runuser -u postgres --)
  fi
  "${run[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null || return 1
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null || return 1
  THROWAWAY_PG=("${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop)
  PRETTYSCORE_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port"
}

stop_throwaway_postgres() {
  if [[ -n "${THROWAWAY_PG[*]:-}" ]]; then "${THROWAWAY_PG[@]}" >/dev/null 2>&1 || true; fi
}

find_postgres() {
  if [[ -n "${PRETTYSCORE_TEST_POSTGRES:-}" ]]; then
    :
  elif port_open 127.0.0.1 5432; then
    PRETTYSCORE_TEST_POSTGRES="postgres://postgres@127.0.0.1:5432"
  elif ! start_throwaway_postgres; then
    if is_ci; then
      die "CI must run the PostgreSQL tests, but no PostgreSQL server was found or could be installed."
    fi
    say "No PostgreSQL found: the tests run on SQLite only (each PostgreSQL variant prints NOT RUN). Install PostgreSQL (apt-get install postgresql) or set PRETTYSCORE_TEST_POSTGRES=postgres://user@host:port to run them on PostgreSQL too."
    return 0
  fi
  export PRETTYSCORE_TEST_POSTGRES
  say "PostgreSQL tests use $PRETTYSCORE_TEST_POSTGRES"
}

# Each test makes its own database; drop them once the tests are done, in
# one session (a psql for each of a run's ~370 databases took about a minute).
drop_test_databases() {
  [[ -n "${PRETTYSCORE_TEST_POSTGRES:-}" ]] && command -v psql >/dev/null 2>&1 || return 0
  psql -qAt "$PRETTYSCORE_TEST_POSTGRES/postgres" >/dev/null 2>&1 <<'SQL' || true
SELECT format('DROP DATABASE IF EXISTS %I WITH (FORCE)', datname)
  FROM pg_database WHERE datname LIKE 'prettyscore\_test\_%' \gexec
SQL
}
