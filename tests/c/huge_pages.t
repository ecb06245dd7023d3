#!/bin/sh
# Runs the C unit test of the same name (built by make into $PROFQ_BUILD/tests/).
name=$(basename "$0" .t)
top=$(cd "$(dirname "$0")/../.." && pwd)
case ${PROFQ_BUILD:-build} in
/*) exec "${PROFQ_BUILD}/tests/$name" ;;
*) exec "$top/${PROFQ_BUILD:-build}/tests/$name" ;;
esac
