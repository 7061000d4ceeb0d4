#!/bin/bash
# check.sh - stub: 'make check' (to be written by the lead engineer).
#
# Exit codes: 1 not implemented yet.
set -eu
echo "check: not implemented yet" >&2
exit 1
