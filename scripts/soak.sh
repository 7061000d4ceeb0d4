#!/bin/bash
# soak.sh - stub: 'make soak' (to be written by the lead engineer).
#
# Exit codes: 1 not implemented yet.
set -eu
echo "soak: not implemented yet" >&2
exit 1
