#!/bin/sh
# Runs the C unit test chrome_scan (built by make into $PROFQ_BUILD/tests/) on a real Kineto trace.
top=$(cd "$(dirname "$0")/../.." && pwd)
trace=$top/tests/data/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
case ${PROFQ_BUILD:-build} in
/*) exec "${PROFQ_BUILD}/tests/chrome_scan" "$trace" ;;
*) exec "$top/${PROFQ_BUILD:-build}/tests/chrome_scan" "$trace" ;;
esac
