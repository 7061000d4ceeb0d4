#!/bin/bash
# config.sh - configure a scenario's kernel and check that every requested
# option stuck.
#
# Usage: scripts/config.sh [--scenario NAME] [--force] [--dry-run] [--help]
#   --scenario NAME  qemu-boot/scenarios/NAME.conf (env SCENARIO, default cool)
#   --force          reconfigure even if the stamp says nothing changed
#
# In $COOL_CACHE/out/NAME: make tinyconfig (or defconfig, or for BASE=debian-F
# Debian's config.amd64_none_F of linux-config-6.12 made built-in-only with
# make mod2noconfig),
# scripts/kconfig/merge_config.sh -m the scenario's FRAGMENTS, make
# olddefconfig, then check: every 'CONFIG_X=val' requested (last fragment wins)
# must appear exactly in .config, every '# CONFIG_X is not set' must not be set.
# Skipped when the stamp (hash of fragments + BASE + ARCH + tree HEAD) matches,
# so rebuilds stay incremental.  Runs series.sh first.
#
# Exit codes: 0 configured, 1 a step failed, 2 requested options did not
# stick (each is named), 5 bad usage / unknown scenario.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

scenario=${SCENARIO:-cool} dry_run=0 force=0
while [ $# -gt 0 ]; do
	case $1 in
	--scenario) [ $# -ge 2 ] || usage_error "--scenario needs a value"; scenario=$2; shift ;;
	--scenario=*) scenario=${1#*=} ;;
	--force) force=1 ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done

load_scenario "$scenario"
mapfile -t frags < <(fragment_paths)
[ "${#frags[@]}" -gt 0 ] || warn "scenario $SCENARIO has no FRAGMENTS: plain $BASE"

if [ "$dry_run" = 1 ]; then
	"$REPO_ROOT/scripts/series.sh" ${VARIANT:+--variant "$VARIANT"} --dry-run
	echo "config: scenario $SCENARIO in $OUT:"
	echo "  make -C $TREE O=$OUT ARCH=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }$BASE"
	echo "  merge_config.sh -m -O $OUT $OUT/.config $FRAGMENTS"
	echo "  make -C $TREE O=$OUT ARCH=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }olddefconfig"
	echo "  check every requested option of: $FRAGMENTS"
	exit 0
fi
"$REPO_ROOT/scripts/series.sh" ${VARIANT:+--variant "$VARIANT"}

stamp=$OUT/.cool-config.stamp
want=$({
	echo "base=$BASE arch=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }head=$(tree_git rev-parse HEAD)"
	for f in ${frags[@]+"${frags[@]}"}; do echo "== $f"; cat "$f"; done
} | hash_stdin)
if [ "$force" = 0 ] && [ -f "$OUT/.config" ] && [ "$(cat "$stamp" 2>/dev/null || true)" = "$want" ]; then
	exit 0
fi

require_tool make make
if [ "$LLVM" != 0 ]; then
	require_tool "clang$LLVM_SUFFIX" "clang$LLVM_SUFFIX"
	require_tool "ld.lld$LLVM_SUFFIX" "lld$LLVM_SUFFIX"
	require_tool "llvm-objcopy$LLVM_SUFFIX" "llvm$LLVM_SUFFIX"
else
	require_tool gcc gcc
fi
require_tool flex flex
require_tool bison bison
mkdir -p "$OUT"
rm -f "$stamp"
log=$OUT/config.log
info "configuring $SCENARIO ($BASE + ${#frags[@]} fragment(s)) in $OUT"
kmake() { make -C "$TREE" O="$OUT" ARCH="$KARCH" ${KMAKE_LLVM[@]+"${KMAKE_LLVM[@]}"} "$@" >>"$log" 2>&1; }
: >"$log"
case $BASE in
debian-*)
	# Debian's own config of that flavour, built-in only: make mod2noconfig
	dcfg=/usr/src/linux-config-6.12/config.amd64_none_${BASE#debian-}.xz
	[ -r "$dcfg" ] || die "no $dcfg" "run make setup (installs linux-config-6.12)"
	xz -dc "$dcfg" >"$OUT/.config"
	kmake olddefconfig || { tail -n 20 "$log" >&2; die "make olddefconfig on $dcfg failed" "full log: $log"; }
	kmake mod2noconfig || { tail -n 20 "$log" >&2; die "make mod2noconfig failed" "full log: $log"; }
	;;
*)
	kmake "$BASE" || { tail -n 20 "$log" >&2; die "make $BASE failed" "full log: $log"; }
	;;
esac
if [ "${#frags[@]}" -gt 0 ]; then
	(cd "$OUT" && ARCH=$KARCH "$TREE/scripts/kconfig/merge_config.sh" -m -O "$OUT" "$OUT/.config" "${frags[@]}") >>"$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "merge_config.sh failed" "full log: $log"; }
fi
kmake olddefconfig || { tail -n 20 "$log" >&2; die "make olddefconfig failed" "full log: $log"; }

# Check: requested value per option, last fragment wins (as merge_config does).
misses=$(awk '
	FNR == NR { cfg[$0] = 1
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) got[substr($0, 1, RLENGTH - 1)] = $0
		next }
	/^CONFIG_[A-Za-z0-9_]+=/ { n = index($0, "="); o = substr($0, 1, n - 1)
		if (!(o in want)) order[++k] = o; want[o] = $0; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { o = $2
		if (!(o in want)) order[++k] = o; want[o] = "# " o " is not set"; next }
	END {
		for (i = 1; i <= k; i++) { o = order[i]; w = want[o]
			g = (o in got) ? got[o] : (("# " o " is not set") in cfg) ? "# " o " is not set" : "absent from .config: unknown symbol or unmet dependency"
			if (w ~ /^#/) { if (o in got) printf "option %s did not stick (got: %s)\n", w, g }
			else if (!(w in cfg)) printf "option %s did not stick (got: %s)\n", w, g
		}
	}' "$OUT/.config" ${frags[@]+"${frags[@]}"})
if [ -n "$misses" ]; then
	printf '%s\n' "$misses" | sed "s/^/$PROG: /" >&2
	die_rc "$E_BADNESS" "scenario $SCENARIO: $(printf '%s\n' "$misses" | wc -l) requested option(s) did not survive olddefconfig" \
		"missing dependency or option not in this tree (series applied? see 'make series'); check with: make -C $TREE O=$OUT menuconfig"
fi
echo "$want" >"$stamp"
info "config ok: $SCENARIO, all requested options present ($OUT/.config)"
