// SPDX-License-Identifier: GPL-2.0
/*
 * What GCC makes of __no_caller_saved_registers (include/linux/
 * compiler_attributes.h, already used by stackleak_track_stack()) on a
 * lock function shaped like the generic _raw_spin_lock() and
 * _raw_spin_lock_irqsave(): a one-off compile, not a kernel build.
 *
 *   gcc -O2 -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -mno-80387 \
 *       -mno-red-zone -Wall -S -o - docs/data/no-caller-saved.c
 *
 * gcc (Debian 12.2.0-14+deb12u1) 12.2.0, 2026-12-06: builds without a
 * warning with these of the kernel's x86-64 flags (not -mcmodel=kernel or
 * -fno-pic: the call to slow() goes through the PLT here). lock() pushes and pops nine
 * registers (%rax %rcx %rdx %rsi %rdi %r8-%r11) around its uncontended
 * cmpxchg; lock_irqsave() nine (%rbx in place of %rax, which carries the
 * return value, correctly). So the callee pays on every call what its
 * callers save, as clang's __preserve_most does (docs/design.md).
 */
struct lk { int v; };
extern void slow(struct lk *l, int v);
#define A __attribute__((no_caller_saved_registers))

A void lock(struct lk *l)
{
	int o = 0;

	if (!__atomic_compare_exchange_n(&l->v, &o, 1, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		slow(l, o);
}

A unsigned long lock_irqsave(struct lk *l)
{
	unsigned long f;
	int o = 0;

	asm volatile("pushf; pop %0; cli" : "=r"(f) : : "memory");
	if (!__atomic_compare_exchange_n(&l->v, &o, 1, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		slow(l, o);
	return f;
}
