#!/bin/bash
# bench.sh - stub: 'make bench' (to be written by the lead engineer).
#
# Exit codes: 1 not implemented yet.
set -eu
echo "bench: not implemented yet" >&2
exit 1
