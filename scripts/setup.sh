#!/bin/bash
# setup.sh - check, and as root install, everything the harness needs, before
# any build starts.  Every make target that builds, boots or checks runs it
# first (make setup), and so does .ci/run.  Fast no-op when all is there.
#
# Usage: scripts/setup.sh [--for WHAT] [--kernel VER] [--scenario A,B] [--dry-run] [--help]
#   --for WHAT   run|xen|matrix|check|bench|send|all: which package set (default
#                run; env COOL_SETUP_FOR).  run = build + boot + test (make,
#                make test); xen adds the Xen hypervisor (below); matrix adds
#                clang, lld and llvm (scenarios with LLVM=1) and Xen; check
#                adds checkpatch's python modules, b4 and Xen (check-bisect
#                boots Xen PV); bench adds gnuplot, the clang tools and
#                Xen; send adds b4; all is everything. A --scenario built
#                with LLVM=-NN adds clang-NN, lld-NN and llvm-NN.
#   --kernel VER the kernel to set up (env KERNEL, as make KERNEL=VER passes
#                it; default: every kernel, 7.3 and 6.12)
#   --scenario A,B  the scenarios about to run (make: SCENARIO; make test:
#                its runs, VER:SCENARIO): one with HOST=xen adds the Xen
#                hypervisor to the set
#   --dry-run    print what is missing and the apt-get command, change nothing
#
# Per kernel: its Debian packages (6.12: linux-source-6.12 and
# linux-config-6.12, installed like the other packages; 7.3: fetched into
# $COOL_CACHE/pkg/ by scripts/fetch-kernel.sh with an apt state of its own,
# nothing installed, the host's apt untouched) and its pristine tree
# (scripts/tree.sh). Also the i386 busybox (busybox-static:i386, unpacked
# into $COOL_CACHE/i386/).
# Xen (for the HOST=xen scenarios): Debian's xen-hypervisor-4.17-amd64 is
# fetched with apt-get download and unpacked with dpkg-deb -x into
# $COOL_CACHE/xen/, its xen-4.17-amd64.gz gunzipped there (what QEMU's
# -kernel loads); it is never installed, since installing it pulls in
# Recommends that change GRUB and start daemons on the host.
# One apt-get update per call (a second try if it fails; a failed update
# does not stop the install), only when something is missing.
#
# Exit codes: 0 everything present, 1 installing failed, 7 packages missing
# and not root (one line with the exact apt-get command on stderr), 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

what=${COOL_SETUP_FOR:-run} dry_run=0 kernels=${KERNEL_ASKED:-$COOL_KERNELS} scenarios=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; kernels=$2; shift ;;
	--kernel=*) kernels=${1#*=} ;;
	--for) [ $# -ge 2 ] || usage_error "--for needs a value"; what=$2; shift ;;
	--for=*) what=${1#*=} ;;
	--scenario | --scenarios) [ $# -ge 2 ] || usage_error "$1 needs a value"; scenarios=$2; shift ;;
	--scenario=* | --scenarios=*) scenarios=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done

for k in $kernels; do select_kernel "$k"; done
# The packages, by use; the kernels' own: the source and config packages
# of a kernel of the host's release (linux-config-6.12: the 'debian'
# scenario's config). clang-19: the clang of 7.3's LLVM=1 builds (7.3
# wants clang >= 17) and of the LLVM=-19 scenarios. A --scenario with
# LLVM=-NN adds clang-NN, lld-NN and llvm-NN (the clang22 rivals: Debian
# 12's security suite).
kernel_pkgs=()
for k in $kernels; do
	select_kernel "$k"
	[ -n "$KFETCH_SUITE" ] || kernel_pkgs+=("$KPKG" "$KCFGPKG")
done
run_pkgs=(${kernel_pkgs[@]+"${kernel_pkgs[@]}"} qemu-system-x86 busybox-static ccache
	gcc libc6-dev make flex bison libelf-dev libssl-dev bc cpio xz-utils kmod perl python3
	git rsync shellcheck)
check_pkgs=(python3-ply python3-git b4)
bench_pkgs=(gnuplot-nox)
llvm_pkgs=(clang lld llvm clang-19 lld-19 llvm-19)
need_xen=0
case $what in
run) pkgs=("${run_pkgs[@]}") ;;
xen) pkgs=("${run_pkgs[@]}") need_xen=1 ;;
matrix) pkgs=("${run_pkgs[@]}" "${llvm_pkgs[@]}") need_xen=1 ;;
check) pkgs=("${run_pkgs[@]}" "${check_pkgs[@]}") need_xen=1 ;; # check-bisect boots Xen PV
send) pkgs=("${run_pkgs[@]}" "${check_pkgs[@]}") ;;
bench) pkgs=("${run_pkgs[@]}" "${bench_pkgs[@]}" "${llvm_pkgs[@]}") need_xen=1 ;;
all) pkgs=("${run_pkgs[@]}" "${check_pkgs[@]}" "${bench_pkgs[@]}" "${llvm_pkgs[@]}") need_xen=1 ;;
*) usage_error "--for wants run, xen, matrix, check, bench, send or all, got '$what'" ;;
esac
IFS=', ' read -r -a scenario_list <<<"$scenarios"
for s in ${scenario_list[@]+"${scenario_list[@]}"}; do
	case $s in
	*:*) k=${s%%:*} s=${s#*:} ;;
	*) k=$KVER ;;
	esac
	hl=$(select_kernel "$k" && load_scenario "$s" && echo "$HOST:$LLVM_SUFFIX") || exit "$E_USAGE"
	IFS=: read -r h l <<<"$hl"
	[ "$h" != xen ] || need_xen=1
	[ -z "$l" ] || case " ${pkgs[*]} " in
		*" clang$l "*) ;;
		*) pkgs+=("clang$l" "lld$l" "llvm$l") ;;
		esac
done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
i386_bb=$COOL_CACHE/i386/busybox

if [ "$dry_run" = 1 ]; then
	if [ "${#missing[@]}" -gt 0 ]; then
		echo "setup: apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
	else
		echo "setup: all ${#pkgs[@]} packages of '$what' installed"
	fi
	[ -x "$i386_bb" ] || echo "setup: busybox-static:i386 -> $i386_bb"
	[ "$need_xen" = 0 ] || [ -s "$XEN_IMAGE" ] || echo "setup: $XEN_PKG (apt-get download, dpkg-deb -x) -> $XEN_IMAGE"
	for k in $kernels; do
		select_kernel "$k"
		[ -z "$KFETCH_SUITE" ] || "$REPO_ROOT/scripts/fetch-kernel.sh" --kernel "$k" --dry-run
		"$REPO_ROOT/scripts/tree.sh" --kernel "$k" --dry-run 2>/dev/null || echo "setup: make tree KERNEL=$k"
	done
	exit 0
fi

# apt_update: apt-get update, once more after a pause if it fails. A
# failure is not fatal: apt-get exits non-zero when a single index could
# not be fetched (a mirror mid-sync: "File has unexpected size"), and the
# lists it already has usually hold the packages; apt-get install decides.
apt_update() {
	apt-get update >&2 && return 0
	warn "apt-get update failed; trying again in 20 s"
	sleep 20
	apt-get update >&2 && return 0
	warn "apt-get update failed twice; installing from the package lists there are"
}

if [ "${#missing[@]}" -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		printf '%s: error: missing packages; as root: apt-get update && apt-get install -y --no-install-recommends %s\n' \
			"$PROG" "${missing[*]}" >&2
		exit "$E_SETUP"
	fi
	info "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_update
	apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
		die "apt-get install ${missing[*]} failed"
fi

# The i386 guest's userland: a 32-bit static busybox.
if [ ! -x "$i386_bb" ]; then
	if [ "$(id -u)" != 0 ]; then
		printf '%s: error: no 32-bit busybox; as root: dpkg --add-architecture i386 && apt-get update, then rerun make setup\n' "$PROG" >&2
		exit "$E_SETUP"
	fi
	info "fetching busybox-static:i386 into $COOL_CACHE/i386/"
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		dpkg --add-architecture i386
		apt_update
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "${tmp:-}" "${xtmp:-}"' EXIT
	chmod 755 "$tmp" # apt-get download runs as _apt
	(cd "$tmp" && apt-get download busybox-static:i386 >&2 && dpkg -x busybox-static_*_i386.deb x) ||
		die "could not fetch busybox-static:i386"
	mkdir -p "$COOL_CACHE/i386"
	cp "$tmp/x/bin/busybox" "$i386_bb"
fi

# The hypervisor of the HOST=xen scenarios, downloaded and unpacked, never
# installed (its Recommends change GRUB and add daemons).
if [ "$need_xen" = 1 ] && [ ! -s "$XEN_IMAGE" ]; then
	# apt-get download and dpkg-deb -x need no root
	xdir=${XEN_IMAGE%/*}
	info "fetching $XEN_PKG (download and unpack only) into $xdir/"
	xtmp=$(mktemp -d)
	trap 'rm -rf "${tmp:-}" "${xtmp:-}"' EXIT
	chmod 755 "$xtmp" # as root, apt-get download runs as _apt
	if ! (cd "$xtmp" && apt-get download "$XEN_PKG" >&2 && dpkg-deb -x "$XEN_PKG"_*.deb pkg &&
		gunzip -c pkg/boot/xen-4.17-amd64.gz >xen.elf); then
		rm -rf "$xtmp"
		die_rc "$E_SETUP" "could not fetch $XEN_PKG" "apt-get download $XEN_PKG needs a bookworm package list (apt-get update)"
	fi
	mkdir -p "$xdir"
	for f in "$xtmp"/"$XEN_PKG"_*.deb; do echo "${f##*/}"; done >"$xdir/package"
	cp "$xtmp/pkg/boot/xen-4.17-amd64.config" "$xdir/" 2>/dev/null || true
	mv "$xtmp/xen.elf" "$XEN_IMAGE"
	rm -rf "$xtmp"
	info "Xen: $XEN_IMAGE ($(cat "$xdir/package"))"
fi

for k in $kernels; do
	select_kernel "$k"
	[ -z "$KFETCH_SUITE" ] || "$REPO_ROOT/scripts/fetch-kernel.sh" --kernel "$k"
	"$REPO_ROOT/scripts/tree.sh" --kernel "$k"
done
