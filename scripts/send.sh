#!/bin/bash
# send.sh - 'make send': write the mails of the series to a directory,
# addressed from get_maintainer.pl, without sending anything.
#
# Usage: scripts/send.sh [--out DIR] [--no-b4] [--dry-run] [--help]
#   --out DIR   default results/send-<UTC time>
#   --no-b4     skip b4 even when it is installed (plain mails only)
#
# With b4 (the default when installed): branch 'cool' of the tree (made by
# 'make series') is copied to a throw-away branch, enrolled with
# 'b4 prep -e <base tag>', given the cover letter and the subject prefix of
# patches/0000-cover-letter.patch, and written out by 'b4 send -o DIR'
# with SMTP set to /bin/true and no patatt signature: DIR holds the .eml
# files exactly as b4 would send them (To/Cc from .b4-config, change-id,
# base-commit). Without b4: each patches/*.patch gets To:/Cc: headers from
# .b4-config in DIR, and 'git send-email --dry-run' checks them if
# git-email is installed. .b4-config is written by 'make check' and
# regenerated here if missing.
# To really send: enroll the 'cool' branch with 'b4 prep -e' and run
# 'b4 send', or 'git send-email DIR/*.patch'.
#
# Exit codes: 0 mails written, 1 no patches, no recipients or b4 failed,
# 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

out='' dry_run=0 use_b4=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=${2:?--out needs a value}; shift ;;
	--no-b4) use_b4=0 ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
refuse_user_tree "make send"
out=${out:-$REPO_ROOT/results/send-$(run_stamp)}
cover=$PATCH_DIR/0000-cover-letter.patch
ls "$PATCH_DIR"/0*.patch > /dev/null 2>&1 || die "no patches in $PATCH_DIR" "run 'make series-export'"
command -v b4 > /dev/null 2>&1 || use_b4=0
if [ "$dry_run" = 1 ]; then
	if [ "$use_b4" = 1 ]; then
		echo "would enroll a copy of branch 'cool' with b4 prep, set its cover letter from $cover, and 'b4 send -o $out'"
	else
		echo "would write the mails of the series in $PATCH_DIR to $out"
	fi
	exit 0
fi
[ -f "$REPO_ROOT/.b4-config" ] || "$REPO_ROOT/scripts/check.sh" --only maintainers > /dev/null
to=$(sed -n 's/^ *send-series-to = //p' "$REPO_ROOT/.b4-config")
cc=$(sed -n 's/^ *send-series-cc = //p' "$REPO_ROOT/.b4-config")
[ -n "$to" ] || die "no recipients in .b4-config" "run 'make check'"
mkdir -p "$out"

if [ "$use_b4" = 0 ]; then
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
	exit 0
fi

[ -f "$cover" ] || die "no cover letter $cover" "run 'make series-export'"
"$REPO_ROOT/scripts/series.sh" > /dev/null
tag=$(base_tag)
tmp=$(mktemp -d)
branch=cool-send-$(run_stamp)
cleanup() {
	git -C "$TREE" worktree remove --force "$tmp/wt" > /dev/null 2>&1 || true
	git -C "$TREE" branch -D "$branch" > /dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# The cover letter as b4 wants it: subject, blank line, body (b4 adds the
# shortlog, diffstat and base-commit itself).
subject=$(sed -n 's/^Subject: //p' "$cover" | head -1)
prefix=$(printf '%s\n' "$subject" | sed -n 's/^\[\(.*\) *PATCH.*\].*/\1/p' | sed 's/ *$//')
{
	printf '%s\n\n' "${subject#*] }"
	awk 'body && /^[^ ].* \([0-9]+\):$/ { exit }
	     body { print }
	     !body && /^$/ { body = 1 }' "$cover"
} > "$tmp/cover.txt"
# shellcheck disable=SC2016 # "$1" is the editor's argument, expanded by it
printf '#!/bin/sh\ncat "%s" > "$1"\n' "$tmp/cover.txt" > "$tmp/editor"
chmod +x "$tmp/editor"

git -C "$TREE" worktree add -q -b "$branch" "$tmp/wt" cool
cp "$REPO_ROOT/.b4-config" "$tmp/wt/.b4-config"
# b4 runs git: the settings below reach it through git's GIT_CONFIG_*
# environment. SMTP /bin/true keeps b4 off its web endpoint, which would
# want a patatt key; the editor writes the cover letter; the identity is
# the patches' author when git has none.
export GIT_CONFIG_COUNT=3 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/true \
	GIT_CONFIG_KEY_1=b4.send-no-patatt-sign GIT_CONFIG_VALUE_1=yes \
	GIT_CONFIG_KEY_2=core.editor GIT_CONFIG_VALUE_2="$tmp/editor"
if [ -z "$(git -C "$tmp/wt" config user.email || true)" ]; then
	author=$(sed -n 's/^From: //p' "$cover" | head -1)
	email=$(printf '%s' "$author" | sed 's/.*<\(.*\)>.*/\1/')
	export GIT_CONFIG_COUNT=5 GIT_CONFIG_KEY_3=user.name GIT_CONFIG_VALUE_3="${author% <*}" \
		GIT_CONFIG_KEY_4=user.email GIT_CONFIG_VALUE_4="$email"
fi
(
	cd "$tmp/wt"
	b4 prep -e "$tag"
	[ -z "$prefix" ] || b4 prep --set-prefixes "$prefix"
	b4 prep --edit-cover
	b4 send -o "$out"
) > "$tmp/b4.log" 2>&1 || {
	sed 's/^/# /' "$tmp/b4.log" | tail -20
	die "b4 failed"
}
info "b4 wrote $(find "$out" -name '*.eml' | wc -l) mails in ${out#"$REPO_ROOT"/}/ (nothing was sent)"
