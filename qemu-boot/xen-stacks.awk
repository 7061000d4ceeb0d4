# xen-stacks.awk - the dom0 vCPU states that Xen's debug key '0' dumped
# into a console log, with the kernel's symbols: for each vCPU its RIP and
# the kernel text addresses on its stack, as symbol+offset. qemu-boot/boot.sh
# presses the key through Xen's serial console before it stops a hung
# HOST=xen guest, and runs this on the console log (hang-stacks.txt).
#
#   awk -f qemu-boot/xen-stacks.awk System.map console.log
#
# The stack words are every word of Xen's "Guest stack trace" that falls
# in kernel text: return addresses, and some stale ones (read it as
# "? symbol" in a Linux trace). Addresses are compared as 16-digit hex
# strings (awk numbers cannot hold 64 bits); offsets from their low 32
# bits. A kernel with KASLR would need its offset: dom0 kernels here have
# none (Xen loads a PV kernel where its ELF says).

function hex32(h,    i, v, c) {
	h = tolower(substr(h, length(h) - 7))
	v = 0
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", substr(h, i, 1)) - 1
		if (c < 0) return -1
		v = v * 16 + c
	}
	return v
}
# sym(A): "name+0xoff" of the text symbol at or below address A, "" if none
function sym(a,    lo, hi, mid, off) {
	a = tolower(a)
	if (n == 0 || a < addr[1] || a >= etext) return ""
	lo = 1; hi = n
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (addr[mid] <= a) lo = mid; else hi = mid - 1
	}
	off = hex32(a) - hex32(addr[lo])
	if (off < 0) off += 4294967296
	return name[lo] sprintf("+0x%x", off)
}
FNR == NR {
	# System.map: address type name, sorted by address
	if ($2 ~ /^[tTwW]$/ && length($1) == 16) { addr[++n] = tolower($1); name[n] = $3 }
	if ($3 == "_etext") etext = tolower($1)
	next
}
FNR == 1 && etext == "" { etext = "ffffffffffffffff" }
{ sub(/\r$/, "") }
/\*\*\* Dumping Dom0 vcpu#[0-9]+ state/ {
	match($0, /vcpu#[0-9]+/)
	vcpu = substr($0, RSTART + 5, RLENGTH - 5)
	instack = 0
	next
}
vcpu != "" && /RIP: +e0[0-9a-f]+:\[<[0-9a-f]+>\]/ {
	match($0, /\[<[0-9a-f]+>\]/)
	rip = substr($0, RSTART + 2, RLENGTH - 4)
	s = sym(rip)
	printf "dom0 vCPU %s: RIP %s%s\n", vcpu, rip, s == "" ? "" : " " s
	next
}
vcpu != "" && /Guest stack trace from/ { instack = 1; last = ""; next }
instack && /^\(XEN\)    [0-9a-f][0-9a-f]*( |$)/ {
	for (i = 2; i <= NF; i++) {
		s = sym($i)
		if (s != "" && s != last) { printf "  %s\n", s; last = s }
	}
	next
}
instack { instack = 0 }
