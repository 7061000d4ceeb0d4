// SPDX-License-Identifier: GPL-2.0
/*
 * Does the caller of a register-preserving C function keep its values in
 * the registers the callee preserves? A one-off compile, not a kernel
 * build: the same caller, calling a function marked with the attribute
 * and an unmarked one, with the kernel's x86-64 register flags.
 *
 *   gcc -O2 -mgeneral-regs-only -mno-red-zone -DATTR='no_caller_saved_registers' \
 *       -S -o - docs/data/caller-side-attributes.c
 *   clang-19 -O2 -mgeneral-regs-only -mno-red-zone -fno-pic \
 *       -DATTR='preserve_most' -S -o - docs/data/caller-side-attributes.c
 *
 * gcc (Debian 12.2.0-14+deb12u1) 12.2.0, 2026-12-06: caller_attr() and
 * caller_plain() are the same 13 instructions: %rsi, %rdx and %rcx are
 * moved into the callee-saved %rbx, %r12 and %rbp (pushed and popped)
 * around both calls. GCC's no_caller_saved_registers changes only the
 * callee's prologue and epilogue (it saves what it clobbers); its
 * callers still assume a C-ABI call. The kernel build agrees: with the
 * generic _raw_*() marked (scenario rival-preserve), fd_install() is
 * byte for byte stock's code, and the function text of the whole
 * minimal kernel grows (docs/results.md, "Rival designs").
 *
 * Debian clang version 19.1.7, same day: caller_attr() is 6
 * instructions and keeps %rsi, %rdx and %rcx live across the call
 * (the push/pop of %rax/%rcx only aligns the stack); caller_plain()
 * is 14. clang's preserve_most is a calling convention its callers use.
 */
void __attribute__((ATTR)) lockfn(int *l);
void plainfn(int *l);

long caller_attr(int *l, long a, long b, long c)
{
	lockfn(l);
	return a + b + c;
}

long caller_plain(int *l, long a, long b, long c)
{
	plainfn(l);
	return a + b + c;
}
