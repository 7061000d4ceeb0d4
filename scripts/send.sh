#!/bin/bash
# send.sh - 'make send': write the mails of the series to a directory,
# addressed from get_maintainer.pl, without sending anything.
#
# Usage: scripts/send.sh [--out DIR] [--dry-run] [--help]
#   --out DIR   default results/send-<UTC time>
#
# Each patches/*.patch (cover letter first) gets To:/Cc: headers from
# .b4-config (written by 'make check'; regenerated here if missing), then
# 'git send-email --dry-run' checks the mails if git-email is installed.
# To really send: git send-email DIR/*.patch, or enroll the branch with
# 'b4 prep --enroll' and use 'b4 send' (b4 reads .b4-config).
#
# Exit codes: 0 mails written, 1 no patches or no recipients, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

out='' dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=${2:?--out needs a value}; shift ;;
	--dry-run) dry_run=1 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
out=${out:-$REPO_ROOT/results/send-$(run_stamp)}
ls "$PATCH_DIR"/0*.patch > /dev/null 2>&1 || die "no patches in $PATCH_DIR" "run 'make series-export'"
if [ "$dry_run" = 1 ]; then
	echo "would write the mails of the series in $PATCH_DIR to $out"
	exit 0
fi
[ -f "$REPO_ROOT/.b4-config" ] || "$REPO_ROOT/scripts/check.sh" --only maintainers > /dev/null
to=$(sed -n 's/^ *send-series-to = //p' "$REPO_ROOT/.b4-config")
cc=$(sed -n 's/^ *send-series-cc = //p' "$REPO_ROOT/.b4-config")
[ -n "$to" ] || die "no recipients in .b4-config" "run 'make check'"

mkdir -p "$out"
for p in "$PATCH_DIR"/0*.patch; do
	awk -v to="$to" -v cc="$cc" '
		!done && /^Subject:/ { print "To: " to; if (cc != "") print "Cc: " cc; done = 1 }
		{ print }' "$p" > "$out/${p##*/}"
done
if git send-email --help > /dev/null 2>&1; then
	git send-email --dry-run --confirm=never --suppress-cc=all --quiet \
		--smtp-server=/bin/true "$out"/0*.patch > "$out/send-email-dry-run.log" 2>&1 ||
		warn "git send-email --dry-run complained: $out/send-email-dry-run.log"
fi
info "mails in ${out#"$REPO_ROOT"/}/ (nothing was sent)"
