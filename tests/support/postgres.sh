#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the API tests.
#
#   bash tests/support/postgres.sh start     starts a cluster in a temp dir on a free port in
#                                            5440-5449 and prints its DATABASE_URL (the only line
#                                            on stdout)
#   bash tests/support/postgres.sh stop URL  stops that cluster and removes its files
#   bash tests/support/postgres.sh bin       prints the folder of PostgreSQL's initdb, or fails
#
# PostgreSQL itself comes from Debian's packages: tests/support/preflight.mjs installs it (the
# first step of `npm test` and `npm run test:api`).
set -euo pipefail

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

as_owner() {
  # initdb and postgres refuse to run as root: run them as the postgres user then.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local bin port dir
  if ! bin=$(find_bin); then
    echo "postgres.sh: PostgreSQL's initdb is missing: run \`node tests/support/preflight.mjs postgres\` as root, or \`apt-get install -y postgresql\`" >&2
    exit 1
  fi
  for port in $(seq 5440 5449); do
    if ! (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && [ ! -e "/tmp/peervote-pg-$port" ]; then break; fi
    port=""
  done
  if [ -z "$port" ]; then echo "postgres.sh: no free port in 5440-5449" >&2; exit 1; fi
  dir="/tmp/peervote-pg-$port"
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2 || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgres://postgres@127.0.0.1:$port/postgres"
}

stop() {
  local url="$1" port bin dir
  port=$(echo "$url" | sed -E 's#.*:([0-9]+)/.*#\1#')
  dir="/tmp/peervote-pg-$port"
  bin=$(find_bin)
  if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true; fi
  rm -rf "$dir"
}

case "${1:-start}" in
  start) start ;;
  stop) stop "${2:?usage: postgres.sh stop DATABASE_URL}" ;;
  bin) find_bin ;;
  *) echo "usage: postgres.sh start | stop DATABASE_URL | bin" >&2; exit 2 ;;
esac
