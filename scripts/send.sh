#!/bin/bash
# send.sh - 'make send': write the mails of the series to a directory,
# addressed by get_maintainer.pl through b4, without sending anything.
#
# Usage: scripts/send.sh [--kernel VER] [--out DIR] [--no-b4] [--dry-run] [--help]
#   --kernel VER  the series to mail: 7.3's, patches/ (the series proper),
#               or 6.12's backport, patches/6.12/; env KERNEL, default
#               scripts/lib.sh COOL_DEFAULT_KERNEL
#   --out DIR   default results/send-<ver>-<UTC time>
#   --no-b4     plain mails without b4 (To/Cc from get_maintainer.pl)
#
# First the identity: git's user.name and user.email must be set, the
# address must not be in a reserved example domain (RFC 2606/6761:
# example.com/.net/.org, *.example, *.invalid, *.test, *.localhost, *.local),
# and every patch must be authored by it (make series-export signs the
# series off as the exporter); otherwise it stops and says what to do.
# With b4 (the default): branch 'cool' of the tree (made by 'make series')
# is copied to a throw-away branch and enrolled with 'b4 prep -e <base tag>';
# the cover letter and subject prefix of the series' 0000-cover-letter.patch are
# set; 'b4 prep --auto-to-cc' fills To/Cc from get_maintainer.pl in the tree
# (nothing is committed: no recipient list lives in this repo); 'b4 send -o
# DIR' writes the .eml files exactly as b4 would send them, with SMTP set to
# /bin/true and no patatt signature.  Without b4: each patch gets To:/Cc:
# from get_maintainer.pl and 'git send-email --dry-run' checks them if
# git-email is installed.
# To really send: enroll the 'cool' branch with 'b4 prep -e', run
# 'b4 prep --auto-to-cc', then 'b4 send'.
#
# Exit codes: 0 mails written, 1 no patches, no or a reserved identity, no
# recipients, or b4 failed, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

out='' dry_run=0 use_b4=1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a value"; out=$2; shift ;;
	--out=*) out=${1#*=} ;;
	--no-b4) use_b4=0 ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
refuse_user_tree "make send"
out=${out:-$REPO_ROOT/results/send-$KVER-$(run_stamp)}
cover=$PATCH_DIR/0000-cover-letter.patch
ls "$PATCH_DIR"/0*.patch >/dev/null 2>&1 || die "no patches in $PATCH_DIR" "run 'make series-export'"
command -v b4 >/dev/null 2>&1 || use_b4=0

# The sender: git's identity, a real address, the author of every patch.
name=$(git -C "$REPO_ROOT" config user.name || true)
email=$(git -C "$REPO_ROOT" config user.email || true)
set_id="git config --global user.name 'Your Name'; git config --global user.email you@your.domain; then make series-export"
if [ -z "$name" ] || [ -z "$email" ]; then
	die "git has no identity (user.name/user.email): mails need a sender" "$set_id"
fi
domain=$(printf '%s' "${email##*@}" | tr '[:upper:]' '[:lower:]')
case $domain in
example.com | example.net | example.org | *.example.com | *.example.net | *.example.org | \
	example | *.example | invalid | *.invalid | test | *.test | localhost | *.localhost | local | *.local | '')
	die "git's user.email <$email> is in a reserved example domain: nobody can answer it" "$set_id" ;;
esac
for p in "$PATCH_DIR"/0*.patch; do
	# From: may be folded over two lines
	from=$(awk '/^From: / { f = substr($0, 7); getline n; if (n ~ /^[ \t]/) { sub(/^[ \t]+/, " ", n); f = f n }; print f; exit }' "$p")
	case $from in
	*"<$email>"*) ;;
	*) die "${p##*/} is from '$from', not from you <$email>" "make series-export signs the series off as git's identity" ;;
	esac
done

if [ "$dry_run" = 1 ]; then
	if [ "$use_b4" = 1 ]; then
		echo "kernel $KVER, as $name <$email>: would enroll a copy of branch 'cool' with b4 prep -e $(base_tag), set its cover letter from $cover,"
		echo "  b4 prep --auto-to-cc (get_maintainer.pl), and 'b4 send -o $out' (nothing sent)"
	else
		echo "as $name <$email>: would write the mails of $PATCH_DIR with get_maintainer.pl's To/Cc to $out"
	fi
	exit 0
fi
mkdir -p "$out"

if [ "$use_b4" = 0 ]; then
	mapfile -t patches < <(series_patches)
	(cd "$TREE" && scripts/get_maintainer.pl --norolestats --no-git --no-git-fallback \
		"${patches[@]}") >"$out/get_maintainer.txt" || die "get_maintainer.pl failed"
	to=$(grep -v 'linux-kernel@' "$out/get_maintainer.txt" | paste -sd, - | sed 's/,/, /g')
	cc=$(grep 'linux-kernel@' "$out/get_maintainer.txt" | paste -sd, - | sed 's/,/, /g')
	[ -n "$to" ] || die "get_maintainer.pl named nobody" "see $out/get_maintainer.txt"
	for p in "$PATCH_DIR"/0*.patch; do
		awk -v to="$to" -v cc="$cc" '
			!done && /^Subject:/ { print "To: " to; if (cc != "") print "Cc: " cc; done = 1 }
			{ print }' "$p" >"$out/${p##*/}"
	done
	if git send-email --help >/dev/null 2>&1; then
		git send-email --dry-run --confirm=never --suppress-cc=all --quiet \
			--smtp-server=/bin/true "$out"/0*.patch >"$out/send-email-dry-run.log" 2>&1 ||
			warn "git send-email --dry-run complained: $out/send-email-dry-run.log"
	fi
	info "mails in ${out#"$REPO_ROOT"/}/ as $name <$email> (nothing was sent)"
	exit 0
fi

[ -f "$cover" ] || die "no cover letter $cover" "run 'make series-export'"
"$REPO_ROOT/scripts/series.sh" >/dev/null
tag=$(base_tag)
tmp=$(mktemp -d)
branch=cool-send-$(run_stamp)
cleanup() {
	git -C "$TREE" worktree remove --force "$tmp/wt" >/dev/null 2>&1 || true
	git -C "$TREE" branch -D "$branch" >/dev/null 2>&1 || true
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
} >"$tmp/cover.txt"
# shellcheck disable=SC2016 # "$1" is the editor's argument, expanded by it
printf '#!/bin/sh\ncat "%s" > "$1"\n' "$tmp/cover.txt" >"$tmp/editor"
chmod +x "$tmp/editor"

git -C "$TREE" worktree add -q -b "$branch" "$tmp/wt" cool
# b4 runs git: the settings below reach it through git's GIT_CONFIG_*
# environment. SMTP /bin/true keeps b4 off its web endpoint, which would
# want a patatt key; the editor writes the cover letter.
export GIT_CONFIG_COUNT=3 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/true \
	GIT_CONFIG_KEY_1=b4.send-no-patatt-sign GIT_CONFIG_VALUE_1=yes \
	GIT_CONFIG_KEY_2=core.editor GIT_CONFIG_VALUE_2="$tmp/editor"
(
	cd "$tmp/wt"
	b4 prep -e "$tag"
	[ -z "$prefix" ] || b4 prep --set-prefixes "$prefix"
	b4 prep --edit-cover
	b4 prep --auto-to-cc
	b4 send -o "$out"
) >"$tmp/b4.log" 2>&1 || {
	sed 's/^/# /' "$tmp/b4.log" | tail -20
	die "b4 failed"
}
cp "$tmp/b4.log" "$out/b4.log"
n=$(find "$out" -name '*.eml' | wc -l)
[ "$n" -gt 0 ] || die "b4 wrote no mails" "see $out/b4.log"
grep -q '^To: ' "$out"/*.eml || die "the mails have no To: (b4 prep --auto-to-cc found nobody)" "see $out/b4.log"
info "b4 wrote $n mails as $name <$email> in ${out#"$REPO_ROOT"/}/ (nothing was sent)"
