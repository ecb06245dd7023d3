#!/bin/sh
# Runs the C unit test of the same name; skipped when the collector (CUPTI) is not built.
name=$(basename "$0" .t)
top=$(cd "$(dirname "$0")/../.." && pwd)
case ${PROFQ_BUILD:-build} in
/*) bin=${PROFQ_BUILD}/tests/$name ;;
*) bin=$top/${PROFQ_BUILD:-build}/tests/$name ;;
esac
[ -x "$bin" ] || { echo "1..0 # SKIP the collector is not built (no CUPTI)"; exit 0; }
exec "$bin"
