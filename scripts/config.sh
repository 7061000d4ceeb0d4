#!/bin/bash
# config.sh - configure a scenario's kernel and check that every requested
# option stuck.
#
# Usage: scripts/config.sh [--kernel VER] [--scenario NAME] [--force] [--dry-run] [--help]
#   --kernel VER     7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                    COOL_DEFAULT_KERNEL)
#   --scenario NAME  qemu-boot/scenarios/NAME.conf (env SCENARIO, default cool)
#   --force          reconfigure even if the stamp says nothing changed
#
# In $COOL_CACHE/out/VER/NAME: make tinyconfig (or defconfig, or for
# BASE=debian-F Debian's config.amd64_none_F of linux-config-VER made
# built-in-only with make mod2noconfig),
# scripts/kconfig/merge_config.sh -m the scenario's FRAGMENTS, each followed
# by its companion for the kernel (qemu-boot/configs/VER/<same name>, when
# there is one: scripts/lib.sh fragment_paths), make olddefconfig, then
# check: every 'CONFIG_X=val' requested (last fragment wins) must appear
# exactly in .config, every '# CONFIG_X is not set' must not be set.
# Kconfig.fragment, the options the series adds, and its companion are left out (and said so)
# on the harness's tree of a kernel whose series is empty (as 7.3's was
# before it landed): that tree cannot have them, and a scenario that
# wants COOL on fails the check on cool-on.config's CONFIG_COOL_SPINLOCK=y.
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
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
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
dropped=''
if [ "$USER_TREE" = 0 ] && ! kernel_has_series; then
	kept=()
	for f in ${frags[@]+"${frags[@]}"}; do
		case $f in
		"$REPO_ROOT/Kconfig.fragment" | "$CONFIG_DIR/$KVER/Kconfig.fragment") dropped=Kconfig.fragment ;;
		*) kept+=("$f") ;;
		esac
	done
	frags=(${kept[@]+"${kept[@]}"})
fi
rel_frags=$(for f in ${frags[@]+"${frags[@]}"}; do printf '%s ' "${f#"$REPO_ROOT"/}"; done)
drop_note="Kconfig.fragment left out: the $KVER series (${PATCH_DIR#"$REPO_ROOT"/}/) is empty, so the tree has none of its options"

if [ "$dry_run" = 1 ]; then
	"$REPO_ROOT/scripts/series.sh" ${VARIANT:+--variant "$VARIANT"} --dry-run
	echo "config: kernel $KVER, scenario $SCENARIO in $OUT:"
	case $BASE in
	debian-*) echo "  $KCONFIG_DIR/config.amd64_none_${BASE#debian-}.xz, make olddefconfig, make mod2noconfig" ;;
	*) echo "  make -C $TREE O=$OUT ARCH=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }$BASE" ;;
	esac
	[ -z "$dropped" ] || echo "  ($drop_note)"
	echo "  merge_config.sh -m -O $OUT $OUT/.config ${rel_frags% }"
	echo "  make -C $TREE O=$OUT ARCH=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }olddefconfig"
	echo "  check every requested option of: ${rel_frags% }"
	exit 0
fi
out_migrate
"$REPO_ROOT/scripts/series.sh" ${VARIANT:+--variant "$VARIANT"}

stamp=$OUT/.cool-config.stamp
want=$({
	echo "base=$BASE arch=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }head=$(tree_git rev-parse HEAD)"
	[ "$BASE" = "${BASE#debian-}" ] || xz -dc "$KCONFIG_DIR/config.amd64_none_${BASE#debian-}.xz" 2>/dev/null | hash_stdin
	for f in ${frags[@]+"${frags[@]}"}; do echo "== ${f#"$REPO_ROOT"/}"; cat "$f"; done
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
[ -z "$dropped" ] || info "$drop_note"
info "configuring $KVER $SCENARIO ($BASE + ${#frags[@]} fragment(s)) in $OUT"
kmake() { make -C "$TREE" O="$OUT" ARCH="$KARCH" ${KMAKE_LLVM[@]+"${KMAKE_LLVM[@]}"} "$@" >>"$log" 2>&1; }
: >"$log"
case $BASE in
debian-*)
	# Debian's own config of that flavour, built-in only: make mod2noconfig
	dcfg=$KCONFIG_DIR/config.amd64_none_${BASE#debian-}.xz
	[ -r "$dcfg" ] || die "no $dcfg" "run make setup KERNEL=$KVER ($([ -n "$KFETCH_SUITE" ] && echo fetches || echo installs) $KCFGPKG)"
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
	hint="missing dependency or option not in this tree (series applied? see 'make series'); check with: make -C $TREE O=$OUT menuconfig"
	if [ -n "$dropped" ] && printf '%s\n' "$misses" | grep -q 'CONFIG_COOL_'; then
		hint="the $KVER series (${PATCH_DIR#"$REPO_ROOT"/}/) is empty: a scenario with COOL on has nothing to build on $KVER yet"
	elif printf '%s\n' "$misses" | grep -q 'absent from .config'; then
		hint="$hint; a symbol kernel $KVER does not have is said per kernel, in qemu-boot/configs/$KVER/<fragment name>"
	fi
	die_rc "$E_BADNESS" "scenario $SCENARIO on $KVER: $(printf '%s\n' "$misses" | wc -l) requested option(s) did not survive olddefconfig" "$hint"
fi
echo "$want" >"$stamp"
info "config ok: $KVER $SCENARIO, all requested options present ($OUT/.config)"
