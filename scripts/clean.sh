#!/bin/bash
# clean.sh - 'make clean': remove results/ and the build dirs of the scenarios
# in qemu-boot/scenarios/, of every kernel ($COOL_CACHE/out/<ver>/<scenario>,
# and out/<scenario> of the layout before per-kernel dirs).  Keeps the
# kernel trees, the fetched packages, ccache and any other build dir in
# $COOL_CACHE/out.
#
# Usage: scripts/clean.sh [--dry-run] [--help]
# Exit codes: 0 done, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
dry_run=0
case ${1:-} in
-h | --help) show_help; exit 0 ;;
--dry-run) dry_run=1 ;;
'') ;;
*) usage_error "unknown option $1" ;;
esac
dirs=("$REPO_ROOT/results")
for s in $(list_scenarios); do
	dirs+=("$COOL_CACHE/out/$s")
	for k in $COOL_KERNELS; do dirs+=("$COOL_CACHE/out/$k/$s"); done
done
for d in "${dirs[@]}"; do
	[ -e "$d" ] || continue
	if [ "$dry_run" = 1 ]; then echo "would remove $d"; else info "removing $d"; rm -rf "$d"; fi
done
