#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer, starting them if
# they are installed but stopped. Fails with a message naming what is missing; never skips.
set -u
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-5432}
REDIS_HOST=${REDIS_HOST:-127.0.0.1}; REDIS_PORT=${REDIS_PORT:-6379}

wait_for() {  # wait_for DESCRIPTION COMMAND...
  local what=$1; shift
  for _ in $(seq 1 30); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "ensure-services: $what did not come up within 30 s" >&2; return 1
}

pg_up() { pg_isready -q -h "$PGHOST" -p "$PGPORT"; }
redis_up() { [ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]; }

status=0
if ! command -v pg_isready >/dev/null 2>&1; then
  echo "ensure-services: PostgreSQL client tools are missing (apt-get install postgresql)" >&2; status=1
elif pg_up; then
  echo "PostgreSQL answers at $PGHOST:$PGPORT"
elif command -v pg_ctlcluster >/dev/null 2>&1 && ls /etc/postgresql >/dev/null 2>&1; then
  echo "PostgreSQL is stopped: starting it"
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>&1 || true
  done
  wait_for "PostgreSQL at $PGHOST:$PGPORT" pg_up || status=1
else
  echo "ensure-services: PostgreSQL is not installed and nothing answers at $PGHOST:$PGPORT (apt-get install postgresql)" >&2; status=1
fi

if ! command -v redis-cli >/dev/null 2>&1; then
  echo "ensure-services: Redis tools are missing (apt-get install redis-server)" >&2; status=1
elif redis_up; then
  echo "Redis answers at $REDIS_HOST:$REDIS_PORT"
elif command -v redis-server >/dev/null 2>&1; then
  echo "Redis is stopped: starting it"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for "Redis at $REDIS_HOST:$REDIS_PORT" redis_up || status=1
else
  echo "ensure-services: Redis is not installed and nothing answers at $REDIS_HOST:$REDIS_PORT (apt-get install redis-server)" >&2; status=1
fi
exit $status
