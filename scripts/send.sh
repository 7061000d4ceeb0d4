#!/bin/bash
# send.sh - stub: 'make send' (to be written by the lead engineer).
#
# Exit codes: 1 not implemented yet.
set -eu
echo "send: not implemented yet" >&2
exit 1
