// SPDX-License-Identifier: GPL-2.0
/*
 * A __preserve_most function that clang 19 miscompiles: the shape of the
 * kernel's _raw_read_lock_irqsave() (native_save_flags()'s "=rm" output
 * on the stack, cli, the qrwlock reader fast path, a __preserve_most slow
 * path call). A one-off compile, not a kernel build:
 *
 *   clang-19 -O2 -mgeneral-regs-only -mno-red-zone -fno-pic -S -o - \
 *       docs/data/preserve-most-epilogue.c
 *
 * Debian clang version 19.1.7 (3~deb12u1), 2026-12-06: the function
 * allocates the flags' stack slot with "pushq %rax" and frees it with
 * "popq %rcx" before "retq". __preserve_most makes %rcx callee-saved
 * (only %r11 and the return value may change), so every caller that
 * keeps a value in %rcx across the call loses it. The kernel built so
 * (scenario clang19-preserve, variant rivals) has exactly this code in
 * _raw_read_lock_irqsave(), and its KUnit test l_read_lock_irqsave(),
 * which kept its flags pointer in %rcx, found the flags in %rcx after
 * the call and stored them through it: "BUG: kernel NULL pointer
 * dereference, address: 0000000000000246" (held_state,
 * read_lock_irqsave; docs/data/clang19-preserve-oops.txt, booted
 * 2026-12-06 20:09 UTC). _raw_spin_lock_irqsave() of the same kernel
 * pushes and pops %rcx itself and is correct.
 *
 * Debian clang version 22.1.8 (1~deb12u1), same source and flags: the
 * same code but "popq %r11", which __preserve_most leaves to the callee.
 */
struct rw {
	int cnts;
};

void __attribute__((preserve_most)) slow(struct rw *l);

unsigned long __attribute__((preserve_most)) lock_irqsave(struct rw *l)
{
	unsigned long flags;

	asm volatile("pushf ; pop %0" : "=rm" (flags) : : "memory");
	asm volatile("cli" : : : "memory");
	if (__atomic_fetch_add(&l->cnts, 0x200, __ATOMIC_ACQUIRE) & 0x1ff)
		slow(l);
	return flags;
}
