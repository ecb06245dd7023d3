#!/bin/sh
# Runs the C unit test json_fast (built by make into $PROFQ_BUILD/tests/) on a real Kineto trace.
top=$(cd "$(dirname "$0")/../.." && pwd)
trace=$top/tests/data/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
case ${PROFQ_BUILD:-build} in
/*) exec "${PROFQ_BUILD}/tests/json_fast" "$trace" ;;
*) exec "$top/${PROFQ_BUILD:-build}/tests/json_fast" "$trace" ;;
esac
