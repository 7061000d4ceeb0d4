#!/bin/bash
# lint.sh - shellcheck -S style every shell script of the repo (make lint;
# first step of make test).  Scripts: *.sh plus files whose first line names
# sh or bash, under scripts/ qemu-boot/ selftests/ .ci/.
#
# Usage: scripts/lint.sh [--help]
# Exit codes: 0 clean, 1 shellcheck found something, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
no_options "$@"
require_tool shellcheck shellcheck
cd "$REPO_ROOT"
files=()
while IFS= read -r -d '' f; do
	case $f in
	*.sh) files+=("$f") ;;
	*) head -n 1 "$f" | grep -qE '^#!.*/(env )?(ba)?sh' && files+=("$f") ;;
	esac
done < <(find scripts qemu-boot selftests .ci -type f ! -name '*.conf' ! -name '*.config' -print0 2>/dev/null | sort -z)
info "shellcheck -S style: ${#files[@]} script(s)"
shellcheck -S style "${files[@]}"
info "shellcheck clean"
