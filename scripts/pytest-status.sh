#!/usr/bin/env bash
# Combines the exit statuses of pytest runs (make test-postgres: the parallel part and the serial
# part) into one: the first failure's; 5 ("no tests collected") only when every part collected none.
status=5
for part in "$@"; do
  case $part in
    0) [ "$status" = 5 ] && status=0 ;;
    5) ;;
    *) echo "pytest-status: a part of the run failed (exit $part)" >&2; exit "$part" ;;
  esac
done
exit $status
