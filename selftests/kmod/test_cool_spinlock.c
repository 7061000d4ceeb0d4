// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for the spinlock and rwlock API under contention, for
 * interrupt-enabled waiting (CONFIG_SPINLOCK_IRQWAIT of the 7.3 series and
 * of its 6.12 backport) and the path-length and interrupt-latency
 * measurements of the cool-spinlock project.
 *
 * Built out of tree, as a module of the project rather than of the series
 * (the series' own tests are its KUnit suites and locktorture):
 *
 *   make -C <kernel build dir> M=<a copy of this directory> [W=1]
 *
 * It uses only what a module may use of any kernel it builds against:
 * the lock API, in_lock_functions() and, with CONFIG_COOL_SPINLOCK_CALLS,
 * the addresses of the exported lock routines. The register convention of
 * those routines is checked by the series' KUnit suite (spinlock_kunit's
 * registers* tests), not here.
 *
 * Runs every case at load time, prints KTAP (one line per case, each line
 * prefixed with "cool-ktap: " so that a runner can pick it out of the
 * kernel log) and fails the load with -EINVAL if any case failed.
 *
 * Parameters:
 *   cases=a,b     run only the named cases
 *   iterations=N  lock/unlock pairs per CPU in the contention cases
 *   bench=pathlen print instructions per uncontended lock+unlock pair
 *                 (under QEMU -icount shift=0) instead of testing
 *   bench=irqlat  print the IPI latency of a CPU waiting for an irqsave
 *                 lock held for 10 us, 100 us, 1 ms and 10 ms
 *   irqwait=N     the kernel's interrupt-enabled wait budget in us
 *                 (spinlock.irqwait_us; 0 or absent: irqsave waits
 *                 with interrupts off), which the irq_wait
 *                 case expects
 *   negative=X    run a negative control instead, which must fail:
 *                 "lock" runs the exclusion case on a deliberately broken
 *                 lock, "regs" is a SKIP here (the KUnit suite's
 *                 registers_clobbering_routine), "queue_irq" makes a waiter hold
 *                 its queue position with interrupts on while an IPI
 *                 takes the same lock: it must deadlock, and the runner
 *                 must catch the hang. "kasan" takes a spinlock in
 *                 freed memory: the runner wants a KASAN report.
 *
 * Workers only count; the thread that loaded the module checks the counts.
 */
#define pr_fmt(fmt) "cool-ktap: " fmt

#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/version.h>

/*
 * spin_until(cond, us): spin until cond holds or about @us microseconds
 * have passed; true if cond held. The bound is counted in udelay()s, not
 * read from ktime: with the jiffies clocksource (i386 once the TSC is
 * found unstable) time stands still while the CPU that updates jiffies
 * spins with interrupts off, as a waiter that queued behind a lock this
 * CPU holds does, and a ktime bound would never pass.
 */
#define spin_until(cond, us)						\
({									\
	unsigned long __n = (us);					\
	bool __ok;							\
									\
	while (!(__ok = (cond)) && __n--)				\
		udelay(1);						\
	__ok;								\
})

static char *cases;
module_param(cases, charp, 0444);
MODULE_PARM_DESC(cases, "comma-separated case names to run (default: all)");

static unsigned int iterations = 20000;
module_param(iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "lock/unlock pairs per CPU in contention cases");

static char *bench;
module_param(bench, charp, 0444);
MODULE_PARM_DESC(bench, "run a benchmark instead of the tests: pathlen or irqlat");

static unsigned int irqwait;
module_param(irqwait, uint, 0444);
MODULE_PARM_DESC(irqwait, "the interrupt-enabled wait budget of the kernel, us (spinlock.irqwait_us; 0: irqsave waits with interrupts off)");

static unsigned int starve_share = 2;
module_param(starve_share, uint, 0444);
MODULE_PARM_DESC(starve_share, "irq_starve, irq_starve_rw: an interrupt-enabled waiter must get 1/N of a queued waiter's acquisitions, and its worst wait must stay within STARVE_WORST_X times plus the budget (0: only measure, for guests whose vCPUs the host deschedules)");

static char *negative;
module_param(negative, charp, 0444);
MODULE_PARM_DESC(negative, "run a negative control that must fail: lock|regs|queue_irq");

/*
 * A lock that is not one: test, then set, with a window in between that is
 * long against the rest of an iteration, so that two CPUs that run at the
 * same time collide (with a 50 ns window, an i386 guest on a loaded host
 * ran 80000 writes without an overlap).
 */
struct broken_lock {
	int locked;
};

static void broken_lock_acquire(struct broken_lock *b)
{
	preempt_disable();
	while (READ_ONCE(b->locked))
		cpu_relax();
	ndelay(10 * NSEC_PER_USEC);	/* preemption is off: no sleeping */
	WRITE_ONCE(b->locked, 1);
}

static void broken_lock_release(struct broken_lock *b)
{
	WRITE_ONCE(b->locked, 0);
	preempt_enable();
}

struct excl_state {
	spinlock_t slock;		/* the locks under test */
	raw_spinlock_t rlock;
	rwlock_t rwlock;
	struct broken_lock blk;
	unsigned long counter;		/* written under the lock only */
	int inside;			/* writers inside the section */
	unsigned long writes;		/* expected counter */
};

enum lock_kind { K_SPIN, K_RAW, K_RW, K_BROKEN };

struct lock_ops {
	const char *name;
	enum lock_kind kind;
	bool irqs_off;			/* interrupts off while held */
	unsigned int pc_delta;		/* preempt count added while held */
	bool trylock;			/* spin on the trylock */
	void (*lock)(struct excl_state *st, bool write, unsigned long *flags);
	void (*unlock)(struct excl_state *st, bool write, unsigned long flags);
};

#define PC_LOCK		(IS_ENABLED(CONFIG_PREEMPT_COUNT) ? 1 : 0)
#define PC_BH		SOFTIRQ_LOCK_OFFSET

/*
 * The counted interrupt disabling of spin_lock_irq_disable() and
 * spin_unlock_irq_enable() (7.3; <linux/spinlock.h> defines
 * raw_spin_lock_irq_disable() with them): the count is in preempt_count.
 */
#ifdef raw_spin_lock_irq_disable
#define HAVE_IRQ_DISABLE	1
#define PC_IRQ_DISABLE	(HARDIRQ_DISABLE_OFFSET + PC_LOCK)
#endif

static void l_spin(struct excl_state *st, bool w, unsigned long *f)
{
	spin_lock(&st->slock);
}

static void u_spin(struct excl_state *st, bool w, unsigned long f)
{
	spin_unlock(&st->slock);
}

static void l_spin_bh(struct excl_state *st, bool w, unsigned long *f)
{
	spin_lock_bh(&st->slock);
}

static void u_spin_bh(struct excl_state *st, bool w, unsigned long f)
{
	spin_unlock_bh(&st->slock);
}

static void l_spin_irq(struct excl_state *st, bool w, unsigned long *f)
{
	spin_lock_irq(&st->slock);
}

static void u_spin_irq(struct excl_state *st, bool w, unsigned long f)
{
	spin_unlock_irq(&st->slock);
}

#ifdef HAVE_IRQ_DISABLE
static void l_spin_irq_disable(struct excl_state *st, bool w, unsigned long *f)
{
	spin_lock_irq_disable(&st->slock);
}

static void u_spin_irq_enable(struct excl_state *st, bool w, unsigned long f)
{
	spin_unlock_irq_enable(&st->slock);
}
#endif

static void l_spin_irqsave(struct excl_state *st, bool w, unsigned long *f)
{
	spin_lock_irqsave(&st->slock, *f);
}

static void u_spin_irqrestore(struct excl_state *st, bool w, unsigned long f)
{
	spin_unlock_irqrestore(&st->slock, f);
}

static void l_spin_try(struct excl_state *st, bool w, unsigned long *f)
{
	while (!spin_trylock(&st->slock))
		cpu_relax();
}

static void l_spin_try_bh(struct excl_state *st, bool w, unsigned long *f)
{
	while (!spin_trylock_bh(&st->slock))
		cpu_relax();
}

static void l_raw(struct excl_state *st, bool w, unsigned long *f)
{
	raw_spin_lock(&st->rlock);
}

static void u_raw(struct excl_state *st, bool w, unsigned long f)
{
	raw_spin_unlock(&st->rlock);
}

static void l_raw_irqsave(struct excl_state *st, bool w, unsigned long *f)
{
	raw_spin_lock_irqsave(&st->rlock, *f);
}

static void u_raw_irqrestore(struct excl_state *st, bool w, unsigned long f)
{
	raw_spin_unlock_irqrestore(&st->rlock, f);
}

/* l_rw<sfx>() and u_rw<sfx>(): the writer's or a reader's rwlock API <sfx> */
#define RW_OPS(sfx)							\
static void l_rw##sfx(struct excl_state *st, bool w, unsigned long *f)	\
{									\
	if (w)								\
		write_lock##sfx(&st->rwlock);				\
	else								\
		read_lock##sfx(&st->rwlock);				\
}									\
									\
static void u_rw##sfx(struct excl_state *st, bool w, unsigned long f)	\
{									\
	if (w)								\
		write_unlock##sfx(&st->rwlock);				\
	else								\
		read_unlock##sfx(&st->rwlock);				\
}

RW_OPS()
RW_OPS(_bh)
RW_OPS(_irq)

static void l_rw_irqsave(struct excl_state *st, bool w, unsigned long *f)
{
	if (w)
		write_lock_irqsave(&st->rwlock, *f);
	else
		read_lock_irqsave(&st->rwlock, *f);
}

static void u_rw_irqrestore(struct excl_state *st, bool w, unsigned long f)
{
	if (w)
		write_unlock_irqrestore(&st->rwlock, f);
	else
		read_unlock_irqrestore(&st->rwlock, f);
}

static void l_rw_try(struct excl_state *st, bool w, unsigned long *f)
{
	if (w) {
		while (!write_trylock(&st->rwlock))
			cpu_relax();
	} else {
		while (!read_trylock(&st->rwlock))
			cpu_relax();
	}
}

static void l_broken(struct excl_state *st, bool w, unsigned long *f)
{
	broken_lock_acquire(&st->blk);
}

static void u_broken(struct excl_state *st, bool w, unsigned long f)
{
	broken_lock_release(&st->blk);
}

static const struct lock_ops excl_ops[] = {
	{ "spin_lock", K_SPIN, false, PC_LOCK, false, l_spin, u_spin },
	{ "spin_lock_bh", K_SPIN, false, PC_BH, false, l_spin_bh, u_spin_bh },
	{ "spin_lock_irq", K_SPIN, true, PC_LOCK, false, l_spin_irq, u_spin_irq },
	{ "spin_lock_irqsave", K_SPIN, true, PC_LOCK, false,
	  l_spin_irqsave, u_spin_irqrestore },
#ifdef HAVE_IRQ_DISABLE
	{ "spin_lock_irq_disable", K_SPIN, true, PC_IRQ_DISABLE, false,
	  l_spin_irq_disable, u_spin_irq_enable },
#endif
	{ "spin_trylock", K_SPIN, false, PC_LOCK, true, l_spin_try, u_spin },
	{ "spin_trylock_bh", K_SPIN, false, PC_BH, true,
	  l_spin_try_bh, u_spin_bh },
	{ "raw_spin_lock", K_RAW, false, PC_LOCK, false, l_raw, u_raw },
	{ "raw_spin_lock_irqsave", K_RAW, true, PC_LOCK, false,
	  l_raw_irqsave, u_raw_irqrestore },
	{ "rwlock", K_RW, false, PC_LOCK, false, l_rw, u_rw },
	{ "rwlock_bh", K_RW, false, PC_BH, false, l_rw_bh, u_rw_bh },
	{ "rwlock_irq", K_RW, true, PC_LOCK, false, l_rw_irq, u_rw_irq },
	{ "rwlock_irqsave", K_RW, true, PC_LOCK, false,
	  l_rw_irqsave, u_rw_irqrestore },
	{ "rwlock_trylock", K_RW, false, PC_LOCK, true, l_rw_try, u_rw },
};

static const struct lock_ops broken_ops = {
	"broken_lock", K_BROKEN, false, PC_LOCK, false, l_broken, u_broken
};

struct excl_worker {
	struct excl_state *st;
	const struct lock_ops *ops;
	struct completion done;
	unsigned long writes;
	unsigned long overlaps;		/* exclusion violated */
	unsigned long state_errors;	/* irq state or preempt count wrong */
};

static int excl_worker_fn(void *arg)
{
	struct excl_worker *w = arg;
	struct excl_state *st = w->st;
	const struct lock_ops *ops = w->ops;
	unsigned int i;

	for (i = 0; i < iterations; i++) {
		/* rwlocks: one write in four, so that readers overlap */
		bool write = ops->kind != K_RW || (i & 3) == 0;
		unsigned int pc = preempt_count();
		bool irqs = irqs_disabled();
		unsigned long flags = 0, v;

		ops->lock(st, write, &flags);
		if (preempt_count() != pc + ops->pc_delta ||
		    (ops->irqs_off && !irqs_disabled()))
			w->state_errors++;
		if (write) {
			if (READ_ONCE(st->inside))
				w->overlaps++;
			WRITE_ONCE(st->inside, 1);
			v = READ_ONCE(st->counter);
			cpu_relax();
			WRITE_ONCE(st->counter, v + 1);
			WRITE_ONCE(st->inside, 0);
			w->writes++;
		} else {
			v = READ_ONCE(st->counter);
			if (READ_ONCE(st->inside))
				w->overlaps++;
			cpu_relax();
			if (READ_ONCE(st->counter) != v)
				w->overlaps++;
		}
		ops->unlock(st, write, flags);
		if (preempt_count() != pc || irqs_disabled() != irqs)
			w->state_errors++;
		/*
		 * Often: on a host that deschedules vCPUs, a queued lock
		 * hand-off waits for the next waiter's vCPU, 256 iterations
		 * took over 20 s on an i386 guest, and the RCU kthread bound
		 * to this CPU stalled (PREEMPT_VOLUNTARY).
		 */
		if ((i & 15) == 0)
			cond_resched();
	}
	complete(&w->done);
	return 0;
}

static int failed_cases;
static int case_number;

static void ktap_result(bool ok, const char *name, const char *skip)
{
	case_number++;
	if (skip)
		pr_info("ok %d %s # SKIP %s\n", case_number, name, skip);
	else
		pr_info("%sok %d %s\n", ok ? "" : "not ", case_number, name);
	if (!ok && !skip)
		failed_cases++;
}

/* Run @ops on a kthread bound to every online CPU. Returns pass/fail. */
static bool run_exclusion(const struct lock_ops *ops)
{
	struct excl_worker *workers;
	struct excl_state *st;
	unsigned long writes = 0, overlaps = 0, state_errors = 0;
	unsigned int n = 0, cpu;
	bool ok = true;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	workers = kcalloc(nr_cpu_ids, sizeof(*workers), GFP_KERNEL);
	if (!st || !workers) {
		pr_info("# %s: out of memory\n", ops->name);
		kfree(st);
		kfree(workers);
		return false;
	}
	spin_lock_init(&st->slock);
	raw_spin_lock_init(&st->rlock);
	rwlock_init(&st->rwlock);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct excl_worker *w = &workers[n];
		struct task_struct *t;

		w->st = st;
		w->ops = ops;
		init_completion(&w->done);
		t = kthread_create_on_cpu(excl_worker_fn, w, cpu, "cool_test/%u");
		if (IS_ERR(t)) {
			pr_info("# %s: kthread on CPU %u: %ld\n", ops->name, cpu,
				PTR_ERR(t));
			ok = false;
			continue;
		}
		wake_up_process(t);
		n++;
	}
	cpus_read_unlock();

	for (cpu = 0; cpu < n; cpu++) {
		wait_for_completion(&workers[cpu].done);
		writes += workers[cpu].writes;
		overlaps += workers[cpu].overlaps;
		state_errors += workers[cpu].state_errors;
	}
	if (st->counter != writes || overlaps || state_errors)
		ok = false;
	pr_info("# %s: cpus=%u iterations=%u writes=%lu counter=%lu overlaps=%lu state_errors=%lu\n",
		ops->name, n, iterations, writes, st->counter, overlaps,
		state_errors);
	kfree(workers);
	kfree(st);
	return ok;
}

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			pr_info("# %s:%d: failed: %s\n", __func__,	\
				__LINE__, #cond);			\
			ok = false;					\
		}							\
	} while (0)

/* Locks taken in softirq and hardirq context while the task holds others. */
static DEFINE_SPINLOCK(ctx_task_lock);		/* taken in task context */
static DEFINE_SPINLOCK(ctx_irq_lock);		/* taken in softirq */
static DEFINE_RAW_SPINLOCK(ctx_raw_lock);	/* taken in hardirq */
static int ctx_hits;

static void ctx_tasklet_fn(struct tasklet_struct *t)
{
	spin_lock(&ctx_irq_lock);
	ctx_hits++;
	spin_unlock(&ctx_irq_lock);
}

static DECLARE_TASKLET(ctx_tasklet, ctx_tasklet_fn);

static void ctx_ipi_fn(void *arg)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx_raw_lock, flags);
	ctx_hits++;
	raw_spin_unlock_irqrestore(&ctx_raw_lock, flags);
}

static bool case_contexts(void)
{
	unsigned int pc = preempt_count();
	bool ok = true;
	int cpu;

	spin_lock(&ctx_task_lock);
	spin_unlock(&ctx_task_lock);

	/* softirq: runs at the local_bh_enable() below */
	local_bh_disable();
	spin_lock(&ctx_task_lock);
	tasklet_schedule(&ctx_tasklet);
	spin_unlock(&ctx_task_lock);
	local_bh_enable();
	tasklet_kill(&ctx_tasklet);
	CHECK(ctx_hits == 1);

	/* hardirq: an IPI to this CPU, then to another one */
	cpu = get_cpu();
	spin_lock(&ctx_task_lock);
	smp_call_function_single(cpu, ctx_ipi_fn, NULL, 1);
	spin_unlock(&ctx_task_lock);
	put_cpu();
	CHECK(ctx_hits == 2);
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu < nr_cpu_ids) {
		smp_call_function_single(cpu, ctx_ipi_fn, NULL, 1);
		CHECK(ctx_hits == 3);
	}
	CHECK(preempt_count() == pc);
	CHECK(!irqs_disabled());
	return ok;
}

static bool case_lock_functions(void)
{
	bool ok = true;

#ifdef CONFIG_COOL_SPINLOCK_CALLS
	CHECK(in_lock_functions((unsigned long)__cool_spin_lock));
	CHECK(in_lock_functions((unsigned long)__cool_spin_unlock_irqrestore));
	CHECK(in_lock_functions((unsigned long)__cool_spin_trylock));
#else
	/*
	 * Inlined (ARCH_INLINE_*: the rival designs of
	 * qemu-boot/variants/rivals), the functions do not exist.
	 */
#ifndef CONFIG_INLINE_SPIN_LOCK
	CHECK(in_lock_functions((unsigned long)_raw_spin_lock));
#endif
#ifndef CONFIG_INLINE_SPIN_LOCK_IRQSAVE
	CHECK(in_lock_functions((unsigned long)_raw_spin_lock_irqsave));
#endif
#endif
	CHECK(!in_lock_functions((unsigned long)case_lock_functions));
	return ok;
}

/*
 * The register convention of the COOL routines needs the series' own
 * check routines: the KUnit suite (spinlock_kunit) has it.
 */
#define REGS_SKIP	"the register convention is checked by the KUnit suite (spinlock_kunit: registers*, negative=1)"

/*
 * Path length: nanoseconds of guest time per uncontended lock+unlock pair,
 * less the same loop calling an empty function. Under QEMU -icount
 * shift=0 a guest nanosecond is one instruction, so this counts
 * instructions. Interrupts stay on (irq variants need them on entry); the
 * minimum over the rounds drops the rounds that took a timer tick.
 */
#define BENCH_PAIRS	100000
#define BENCH_ROUNDS	7

static DEFINE_SPINLOCK(bench_slock);		/* only the benchmark takes it */
static DEFINE_RAW_SPINLOCK(bench_rlock);	/* likewise */
static DEFINE_RWLOCK(bench_rwlock);		/* likewise */

static noinline void pair_none(void)
{
	barrier();
}

static noinline void pair_spin_lock(void)
{
	spin_lock(&bench_slock);
	spin_unlock(&bench_slock);
}

static noinline void pair_spin_lock_bh(void)
{
	spin_lock_bh(&bench_slock);
	spin_unlock_bh(&bench_slock);
}

static noinline void pair_spin_lock_irq(void)
{
	spin_lock_irq(&bench_slock);
	spin_unlock_irq(&bench_slock);
}

static noinline void pair_spin_lock_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&bench_slock, flags);
	spin_unlock_irqrestore(&bench_slock, flags);
}

#ifdef HAVE_IRQ_DISABLE
static noinline void pair_spin_lock_irq_disable(void)
{
	spin_lock_irq_disable(&bench_slock);
	spin_unlock_irq_enable(&bench_slock);
}
#endif

static noinline void pair_spin_trylock(void)
{
	if (spin_trylock(&bench_slock))
		spin_unlock(&bench_slock);
}

static noinline void pair_raw_spin_lock(void)
{
	raw_spin_lock(&bench_rlock);
	raw_spin_unlock(&bench_rlock);
}

static noinline void pair_read_lock(void)
{
	read_lock(&bench_rwlock);
	read_unlock(&bench_rwlock);
}

static noinline void pair_write_lock(void)
{
	write_lock(&bench_rwlock);
	write_unlock(&bench_rwlock);
}

static noinline void pair_write_lock_irqsave(void)
{
	unsigned long flags;

	write_lock_irqsave(&bench_rwlock, flags);
	write_unlock_irqrestore(&bench_rwlock, flags);
}

static const struct {
	const char *api;
	void (*pair)(void);
} bench_pairs[] = {
	{ "spin_lock", pair_spin_lock },
	{ "spin_lock_bh", pair_spin_lock_bh },
	{ "spin_lock_irq", pair_spin_lock_irq },
	{ "spin_lock_irqsave", pair_spin_lock_irqsave },
#ifdef HAVE_IRQ_DISABLE
	{ "spin_lock_irq_disable", pair_spin_lock_irq_disable },
#endif
	{ "spin_trylock", pair_spin_trylock },
	{ "raw_spin_lock", pair_raw_spin_lock },
	{ "read_lock", pair_read_lock },
	{ "write_lock", pair_write_lock },
	{ "write_lock_irqsave", pair_write_lock_irqsave },
};

static u64 bench_loop(void (*pair)(void))
{
	u64 best = U64_MAX, t;
	int r, i;

	for (r = 0; r < BENCH_ROUNDS; r++) {
		t = ktime_get_ns();
		for (i = 0; i < BENCH_PAIRS; i++)
			pair();
		t = ktime_get_ns() - t;
		best = min(best, t);
	}
	return best;
}

static int bench_pathlen(void)
{
	u64 empty = bench_loop(pair_none), ns, net;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bench_pairs); i++) {
		ns = bench_loop(bench_pairs[i].pair);
		net = ns > empty ? ns - empty : 0;
		/* hundredths of a nanosecond per pair */
		pr_info("pathlen api=%s per_pair=%llu.%02llu empty_call=%llu.%02llu\n",
			bench_pairs[i].api, div_u64(net, BENCH_PAIRS),
			div_u64(net * 100, BENCH_PAIRS) % 100,
			div_u64(empty, BENCH_PAIRS),
			div_u64(empty * 100, BENCH_PAIRS) % 100);
	}
	return 0;
}

/*
 * Interrupts while waiting for an irqsave lock. A holder on CPU a takes
 * the lock; a waiter bound to CPU b calls spin_lock_irqsave() with
 * interrupts on or off and records what CPU b serviced before it took the
 * lock. This thread, kept off a and b, starts the hold clock once the
 * waiter is at the lock (creating a kthread can take longer than any hold
 * on an emulated machine), sends b an IPI a quarter of the hold (at most
 * 5 ms) later and notes the latency to its handler. The holder lets go
 * hold_us after the clock started or, with until_serviced, once CPU b has
 * serviced both the IPI and a tick of a pinned periodic hrtimer since the
 * call, or hold_us after the IPI was sent: a correct lock passes however
 * slow the host is. Counts are taken from just before the lock call, so
 * that interrupts serviced before it do not count.
 */
#define IRQWAIT_TICK_NS		(1 * NSEC_PER_MSEC)
#define IRQWAIT_CAP_NS		(5ULL * NSEC_PER_SEC)

enum irqwait_api {
	IW_SPIN_IRQSAVE,
	IW_SPIN_IRQ,
	IW_RAW_SPIN_IRQSAVE,
	IW_READ_IRQSAVE,
	IW_WRITE_IRQSAVE,
	IW_NR,
};

static const char * const irqwait_api_names[IW_NR] = {
	[IW_SPIN_IRQSAVE]	= "spin_lock_irqsave",
	[IW_SPIN_IRQ]		= "spin_lock_irq",
	[IW_RAW_SPIN_IRQSAVE]	= "raw_spin_lock_irqsave",
	[IW_READ_IRQSAVE]	= "read_lock_irqsave",
	[IW_WRITE_IRQSAVE]	= "write_lock_irqsave",
};

struct irqwait_run {
	enum irqwait_api api;		/* how the waiter takes it */
	spinlock_t lock;		/* the contended lock, one of */
	raw_spinlock_t raw_lock;
	rwlock_t rwlock;		/* (write-held for both rwlock APIs) */
	unsigned int hold_us;
	bool irqs_off;			/* waiter calls with interrupts off */
	bool until_serviced;		/* let go once the irqs are serviced */
	u64 hold_from;			/* the waiter is at the lock */
	bool at_call;			/* counts taken, lock call next */
	int ipis_at_call, timers_at_call;
	struct completion held, waiting, done;
	struct hrtimer timer;
	atomic_t ipis, timers;		/* serviced on the waiter's CPU */
	int ipis_before, timers_before;	/* ... while it waited */
	u64 ipi_sent, ipi_latency;
};

static void irqwait_ipi(void *arg)
{
	struct irqwait_run *r = arg;

	if (!r->ipi_latency)
		r->ipi_latency = ktime_get_ns() - r->ipi_sent;
	atomic_inc(&r->ipis);
}

static enum hrtimer_restart irqwait_timer(struct hrtimer *t)
{
	struct irqwait_run *r = container_of(t, struct irqwait_run, timer);

	atomic_inc(&r->timers);
	hrtimer_forward_now(t, ns_to_ktime(IRQWAIT_TICK_NS));
	return HRTIMER_RESTART;
}

static void park(void)
{
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
}

static int irqwait_holder(void *arg)
{
	struct irqwait_run *r = arg;
	u64 start, from, sent, now;
	unsigned long us = 0;

	if (r->api == IW_RAW_SPIN_IRQSAVE)
		raw_spin_lock(&r->raw_lock);
	else if (r->api >= IW_READ_IRQSAVE)
		write_lock(&r->rwlock);
	else
		spin_lock(&r->lock);
	complete(&r->held);
	start = ktime_get_ns();
	for (;;) {
		/* the stamps first: now must not be older than them */
		from = READ_ONCE(r->hold_from);
		sent = READ_ONCE(r->ipi_sent);
		now = ktime_get_ns();
		if (!r->until_serviced && from &&
		    now - from >= r->hold_us * NSEC_PER_USEC)
			break;
		if (r->until_serviced && READ_ONCE(r->at_call) &&
		    atomic_read(&r->ipis) > r->ipis_at_call &&
		    atomic_read(&r->timers) > r->timers_at_call)
			break;
		if (r->until_serviced && sent &&
		    now - sent >= r->hold_us * NSEC_PER_USEC)
			break;
		/* the cap counts from the waiter's call once it made it */
		if (now - (from ? from : start) >= IRQWAIT_CAP_NS)
			break;
		/* and in udelay()s, should ktime stand still (spin_until()) */
		if (++us >= 2 * IRQWAIT_CAP_NS / NSEC_PER_USEC)
			break;
		udelay(1);
	}
	if (r->api == IW_RAW_SPIN_IRQSAVE)
		raw_spin_unlock(&r->raw_lock);
	else if (r->api >= IW_READ_IRQSAVE)
		write_unlock(&r->rwlock);
	else
		spin_unlock(&r->lock);
	park();
	return 0;
}

static int irqwait_waiter(void *arg)
{
	struct irqwait_run *r = arg;
	unsigned long flags;

	if (r->until_serviced)
		hrtimer_start(&r->timer, ns_to_ktime(IRQWAIT_TICK_NS),
			      HRTIMER_MODE_REL_PINNED);
	if (r->irqs_off)
		local_irq_disable();
	complete(&r->waiting);
	r->ipis_at_call = atomic_read(&r->ipis);
	r->timers_at_call = atomic_read(&r->timers);
	/* publish the counts before the flag: pairs with irqwait_once() */
	smp_store_release(&r->at_call, true);
	switch (r->api) {
	case IW_SPIN_IRQSAVE:
		spin_lock_irqsave(&r->lock, flags);
		break;
	case IW_SPIN_IRQ:
		spin_lock_irq(&r->lock);
		break;
	case IW_RAW_SPIN_IRQSAVE:
		raw_spin_lock_irqsave(&r->raw_lock, flags);
		break;
	case IW_READ_IRQSAVE:
		read_lock_irqsave(&r->rwlock, flags);
		break;
	default:
		write_lock_irqsave(&r->rwlock, flags);
		break;
	}
	r->ipis_before = atomic_read(&r->ipis) - r->ipis_at_call;
	r->timers_before = atomic_read(&r->timers) - r->timers_at_call;
	switch (r->api) {
	case IW_SPIN_IRQSAVE:
		spin_unlock_irqrestore(&r->lock, flags);
		break;
	case IW_SPIN_IRQ:
		spin_unlock_irq(&r->lock);
		break;
	case IW_RAW_SPIN_IRQSAVE:
		raw_spin_unlock_irqrestore(&r->raw_lock, flags);
		break;
	case IW_READ_IRQSAVE:
		read_unlock_irqrestore(&r->rwlock, flags);
		break;
	default:
		write_unlock_irqrestore(&r->rwlock, flags);
		break;
	}
	if (r->irqs_off)
		local_irq_enable();
	hrtimer_cancel(&r->timer);
	complete(&r->done);
	park();
	return 0;
}

/* One run: 0, or -ENODEV without three online CPUs. */
static int irqwait_once(struct irqwait_run *r, enum irqwait_api api,
			unsigned int hold_us, bool irqs_off,
			bool until_serviced)
{
	struct task_struct *holder = NULL, *waiter = NULL;
	int self, a, b, ret = 0;

	memset(r, 0, sizeof(*r));
	r->api = api;
	spin_lock_init(&r->lock);
	raw_spin_lock_init(&r->raw_lock);
	rwlock_init(&r->rwlock);
	r->hold_us = hold_us;
	r->irqs_off = irqs_off;
	r->until_serviced = until_serviced;
	init_completion(&r->held);
	init_completion(&r->waiting);
	init_completion(&r->done);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&r->timer, irqwait_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_PINNED);
#else
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	r->timer.function = irqwait_timer;
#endif

	migrate_disable();
	self = raw_smp_processor_id();
	a = cpumask_any_but(cpu_online_mask, self);
	for (b = cpumask_first(cpu_online_mask); b < nr_cpu_ids;
	     b = cpumask_next(b, cpu_online_mask))
		if (b != self && b != a)
			break;
	if (a >= nr_cpu_ids || b >= nr_cpu_ids) {
		ret = -ENODEV;
		goto out;
	}
	/*
	 * Create the waiter before the holder spins: kthreadd may need the
	 * holder's CPU, and a slow creation must not eat the hold time.
	 */
	waiter = kthread_create_on_cpu(irqwait_waiter, r, b, "cool_wait/%u");
	if (IS_ERR(waiter)) {
		ret = PTR_ERR(waiter);
		waiter = NULL;
		goto out;
	}
	holder = kthread_run_on_cpu(irqwait_holder, r, a, "cool_hold/%u");
	if (IS_ERR(holder)) {
		ret = PTR_ERR(holder);
		holder = NULL;
		goto out;
	}
	wait_for_completion(&r->held);
	wake_up_process(waiter);
	wait_for_completion(&r->waiting);
	/* the waiter's counts are taken: pairs with irqwait_waiter() */
	while (!smp_load_acquire(&r->at_call))
		cpu_relax();
	WRITE_ONCE(r->hold_from, ktime_get_ns());
	/*
	 * Let the waiter reach the lock, then interrupt it mid-wait: the
	 * irq_wait case (until_serviced) within the time it may wait with
	 * interrupts on (the irqwait budget, in us), to see that it does; the
	 * latency benchmark a quarter of the hold in, wherever the budget
	 * ends, to measure what an interrupt meets.
	 */
	udelay(min3(hold_us / 4, 5000U,
		    until_serviced && irqwait ? irqwait / 4 : 5000U));
	WRITE_ONCE(r->ipi_sent, ktime_get_ns());
	smp_call_function_single(b, irqwait_ipi, r, 0);
	wait_for_completion(&r->done);
out:
	migrate_enable();
	if (waiter)
		kthread_stop(waiter);
	if (holder)
		kthread_stop(holder);
	/* the async IPI may still be in flight: it uses r */
	while (r->ipi_sent && !atomic_read(&r->ipis))
		cpu_relax();
	return ret;
}

/*
 * With interrupts on at the call, interrupt-enabled waiting services the IPI
 * and the timer while waiting; stock (and a budget of 0) services none
 * before the lock is taken. With interrupts off, nobody may service one.
 */
/* One irq_wait measurement: print it, and say whether it is as expected. */
static bool irq_wait_verdict(struct irqwait_run *r, enum irqwait_api api,
			     int off, bool expect)
{
	/*
	 * Serviced while waiting: the IPI, or two ticks (one may fire
	 * between the counts and the cli in the lock call). The IPI is sent
	 * a quarter into the budget, but a host that deschedules the vCPUs
	 * can deliver it after the budget ran out and the waiter queued;
	 * the ticks then show that interrupts were on in the wait.
	 */
	bool serviced = r->ipis_before || r->timers_before >= 2;

	pr_info("# irq_wait: %s, irqs %s at call: ipi %d timer %d serviced while waiting, ipi latency %llu ns (expected %s)\n",
		irqwait_api_names[api], off ? "off" : "on",
		r->ipis_before, r->timers_before, r->ipi_latency,
		off ? "none serviced" :
		expect ? "serviced" :
		"at most one tick, or the IPI before the cli");
	if (off)
		return !r->ipis_before && !r->timers_before;
	/*
	 * Waiting with interrupts off (stock, a budget of 0) may still see
	 * the IPI, serviced before the cli, when the host deschedules the
	 * vCPU between the counts and the lock call for the 5 ms until the
	 * IPI: then no tick follows in the 200 ms the holder keeps the
	 * lock. A wait with interrupts on services the IPI and ticks.
	 */
	if (!expect)
		return r->ipis_before ? !r->timers_before : r->timers_before <= 1;
	return serviced;
}

static const char *case_irq_wait(bool *ok)
{
	struct irqwait_run *r = kmalloc(sizeof(*r), GFP_KERNEL);
	bool expect = irqwait > 0;
	enum irqwait_api api;
	int off;

	*ok = true;
	if (!r)
		return "out of memory";
	for (api = 0; api < IW_NR; api++) {
		for (off = 0; off <= 1; off++) {
			bool good = false;
			int try;

			/* spin_lock_irq() is for callers with irqs on */
			if (off && api == IW_SPIN_IRQ)
				continue;
			/*
			 * A host that deschedules the waiter's vCPU between the
			 * counts and the lock call lets interrupts in before it
			 * (seen on stock: the IPI and a tick before the cli of
			 * spin_lock_irq()). A failed verdict is measured again,
			 * twice: a kernel that waits the wrong way fails each
			 * time, a descheduled vCPU does not repeat itself.
			 */
			for (try = 0; try < 3 && !good; try++) {
				if (irqwait_once(r, api, 200000, off, true)) {
					kfree(r);
					return "needs three online CPUs";
				}
				good = irq_wait_verdict(r, api, off, expect);
			}
			*ok &= good;
		}
	}
	kfree(r);
	return NULL;
}

/*
 * The same lock from hardirq: every CPU takes a spinlock and an rwlock
 * (read and write) with irqsave while IPIs from its neighbour take the
 * same locks in their handler. An interrupt-enabled waiter that held a
 * queue position, a reader count or the wait_lock would deadlock.
 */
static DEFINE_SPINLOCK(same_lock);	/* taken in task and hardirq */
static DEFINE_RWLOCK(same_rwlock);	/* likewise, read and write */
static atomic_t same_irq_hits;

static void same_lock_ipi(void *arg)
{
	spin_lock(&same_lock);
	atomic_inc(&same_irq_hits);
	spin_unlock(&same_lock);
	if (atomic_read(&same_irq_hits) & 1) {
		write_lock(&same_rwlock);
		write_unlock(&same_rwlock);
	} else {
		read_lock(&same_rwlock);
		read_unlock(&same_rwlock);
	}
}

static int same_lock_worker(void *arg)
{
	struct excl_worker *w = arg;
	unsigned long flags;
	unsigned int i;
	int next;

	next = cpumask_next(raw_smp_processor_id(), cpu_online_mask);
	if (next >= nr_cpu_ids)
		next = cpumask_first(cpu_online_mask);
	for (i = 0; i < iterations / 4; i++) {
		switch (i % 3) {
		case 0:
			spin_lock_irqsave(&same_lock, flags);
			w->writes++;
			udelay(2);
			spin_unlock_irqrestore(&same_lock, flags);
			break;
		case 1:
			write_lock_irqsave(&same_rwlock, flags);
			w->writes++;
			udelay(2);
			write_unlock_irqrestore(&same_rwlock, flags);
			break;
		default:
			read_lock_irqsave(&same_rwlock, flags);
			w->writes++;
			udelay(2);
			read_unlock_irqrestore(&same_rwlock, flags);
			break;
		}
		if ((i & 7) == 0 && next != raw_smp_processor_id())
			smp_call_function_single(next, same_lock_ipi, NULL, 1);
		/*
		 * Often: on a host that deschedules vCPUs, a queued lock
		 * hand-off waits for the next waiter's vCPU, 256 iterations
		 * took over 20 s on an i386 guest, and the RCU kthread bound
		 * to this CPU stalled (PREEMPT_VOLUNTARY).
		 */
		if ((i & 15) == 0)
			cond_resched();
	}
	complete(&w->done);
	return 0;
}

static bool case_irq_same_lock(void)
{
	struct excl_worker *workers;
	unsigned long total = 0;
	unsigned int n = 0, cpu;
	bool ok = true;

	workers = kcalloc(nr_cpu_ids, sizeof(*workers), GFP_KERNEL);
	if (!workers)
		return false;
	atomic_set(&same_irq_hits, 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		init_completion(&workers[n].done);
		t = kthread_create_on_cpu(same_lock_worker, &workers[n], cpu,
					  "cool_same/%u");
		if (IS_ERR(t)) {
			ok = false;
			continue;
		}
		wake_up_process(t);
		n++;
	}
	cpus_read_unlock();
	for (cpu = 0; cpu < n; cpu++) {
		wait_for_completion(&workers[cpu].done);
		total += workers[cpu].writes;
	}
	pr_info("# irq_same_lock: cpus=%u task acquisitions=%lu hardirq acquisitions=%d\n",
		n, total, atomic_read(&same_irq_hits));
	kfree(workers);
	return ok && total == (unsigned long)n * (iterations / 4);
}

/*
 * The queue_irq negative control, the bug that interrupt-enabled waiting
 * must not have: a waiter that holds a queue position (here the pending
 * bit) with interrupts on. A kthread on one CPU holds same_lock; a kthread
 * on another CPU waits for it with spin_lock() and interrupts on. Once the
 * lock word shows the waiter, the holder sends that CPU an IPI whose
 * handler takes same_lock, waits until the handler has queued behind its
 * own CPU's waiter, and lets go. The handler can never get the lock: a
 * certain deadlock, which the runner must report as a hang. Every step
 * is bounded, so a setup that does not reach the deadlock fails the case
 * instead (the control then "passes" nothing).
 */
#define QUEUE_IRQ_WAIT_US	(2 * USEC_PER_SEC)

struct queue_irq_ctl {
	struct task_struct *waiter;
	unsigned int waiter_cpu;
	struct completion done;
	bool queued, irq_queued;
};

static bool lock_word_shows(spinlock_t *lock, u32 mask)
{
	return spin_until(atomic_read(&lock->rlock.raw_lock.val) & mask,
			  QUEUE_IRQ_WAIT_US);
}

static int queue_irq_waiter(void *arg)
{
	struct queue_irq_ctl *c = arg;

	spin_lock(&same_lock);
	spin_unlock(&same_lock);
	complete(&c->done);
	return 0;
}

static int queue_irq_holder(void *arg)
{
	struct queue_irq_ctl *c = arg;

	spin_lock(&same_lock);
	wake_up_process(c->waiter);
	c->queued = lock_word_shows(&same_lock, _Q_PENDING_MASK | _Q_TAIL_MASK);
	if (c->queued) {
		smp_call_function_single(c->waiter_cpu, same_lock_ipi, NULL, 0);
		c->irq_queued = lock_word_shows(&same_lock, _Q_TAIL_MASK);
	}
	spin_unlock(&same_lock);
	complete(&c->done);
	return 0;
}

static bool negative_queue_irq(void)
{
	struct task_struct *holder;
	struct queue_irq_ctl c = { };
	unsigned int cpu;

	cpu = cpumask_first(cpu_online_mask);
	c.waiter_cpu = cpumask_next(cpu, cpu_online_mask);
	if (c.waiter_cpu >= nr_cpu_ids) {
		pr_info("# queue_irq: needs two online CPUs\n");
		return false;
	}
	init_completion(&c.done);
	c.waiter = kthread_create_on_cpu(queue_irq_waiter, &c, c.waiter_cpu,
					 "cool_qirq_w/%u");
	if (IS_ERR(c.waiter))
		return false;
	holder = kthread_create_on_cpu(queue_irq_holder, &c, cpu,
				       "cool_qirq_h/%u");
	if (IS_ERR(holder)) {
		kthread_stop(c.waiter);
		return false;
	}
	wake_up_process(holder);
	/* The holder's completion, then the waiter's: neither comes. */
	wait_for_completion(&c.done);
	wait_for_completion(&c.done);
	pr_info("# queue_irq: no deadlock: waiter queued %d, handler queued %d\n",
		c.queued, c.irq_queued);
	return true;
}

/*
 * Starvation: every other CPU takes and drops a lock back to back for
 * STARVE_MS while this CPU takes it with spin_lock_irqsave(), interrupts
 * on, and then with spin_lock(), queueing fairly. An interrupt-enabled
 * waiter gives way to queued waiters until its time budget runs out; the
 * case fails if some wait lasted the whole run, i.e. the waiter got the
 * lock only once the others had stopped (in a guest's test-and-set lock
 * only a wait of the interrupt-enabled waiter). Passes three and four have
 * a single other CPU relock back to back, the pattern that starved the
 * waiter when its bound counted changes of the lock word: the
 * interrupt-enabled waiter (pass three) must get at least 1/starve_share
 * of the acquisitions of a waiter that queues with interrupts off (pass
 * four, as spin_lock_irqsave() without interrupt-enabled waiting), and its
 * worst wait must stay within STARVE_WORST_X times that waiter's plus the
 * time budget (the bound of the design: the budget, then a fair queued
 * wait; under TCG the worst waits of both are dominated by descheduled
 * vCPUs). Without interrupt-enabled waiting both passes queue and only
 * measure. Prints the worst and mean wait of each pass, the numbers behind
 * the trade-off.
 */
#define STARVE_MS	1000
#define STARVE_WORST_X	4

/*
 * Whether a contended spin_lock() queues. A CPU that runs as a guest
 * (X86_FEATURE_HYPERVISOR) without paravirt spinlocks waits in
 * virt_spin_lock()'s test-and-set lock instead (native_pv_lock_init() in
 * arch/x86/kernel/paravirt.c, arch/x86/include/asm/qspinlock.h), which
 * bounds no wait: there the spin_lock() passes only measure.
 */
static bool starve_queues(void)
{
#ifdef CONFIG_X86
	return !boot_cpu_has(X86_FEATURE_HYPERVISOR);
#else
	return true;
#endif
}

static DEFINE_SPINLOCK(starve_lock);
static DEFINE_RWLOCK(starve_rwlock);
static bool starve_stop;

/* What the other CPUs do: relock the spinlock, the rwlock for write, or read. */
enum starve_kind { STARVE_SPIN, STARVE_WRITER, STARVE_READERS };
static enum starve_kind starve_kind;

static int starve_hammer(void *arg)
{
	struct excl_worker *w = arg;

	while (!READ_ONCE(starve_stop)) {
		switch (starve_kind) {
		case STARVE_SPIN:
			spin_lock(&starve_lock);
			w->writes++;
			ndelay(200);
			spin_unlock(&starve_lock);
			break;
		case STARVE_WRITER:
			write_lock(&starve_rwlock);
			w->writes++;
			ndelay(200);
			write_unlock(&starve_rwlock);
			break;
		case STARVE_READERS:
			read_lock(&starve_rwlock);
			w->writes++;
			ndelay(200);
			read_unlock(&starve_rwlock);
			break;
		}
		/*
		 * A stop_machine() (a clocksource switch at boot) must get
		 * this CPU: its stopper on the waiting CPU keeps the waiter
		 * from ever setting starve_stop.
		 */
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

struct starve_stats {
	unsigned long n;
	u64 max_ns, sum_ns;
};

enum starve_how { STARVE_IRQSAVE, STARVE_QUEUED, STARVE_QUEUED_IRQOFF };

static void starve_wait(struct starve_stats *st, enum starve_how how, u64 until)
{
	unsigned long flags;
	u64 t0, t;

	memset(st, 0, sizeof(*st));
	do {
		t0 = ktime_get_ns();
		if (starve_kind != STARVE_SPIN) {
			/* the writer: irqsave, or queued with interrupts off */
			if (how == STARVE_IRQSAVE) {
				write_lock_irqsave(&starve_rwlock, flags);
			} else {
				local_irq_save(flags);
				write_lock(&starve_rwlock);
			}
			t = ktime_get_ns() - t0;
			if (how == STARVE_IRQSAVE) {
				write_unlock_irqrestore(&starve_rwlock, flags);
			} else {
				write_unlock(&starve_rwlock);
				local_irq_restore(flags);
			}
			goto count;
		}
		switch (how) {
		case STARVE_IRQSAVE:
			spin_lock_irqsave(&starve_lock, flags);
			break;
		case STARVE_QUEUED:
			spin_lock(&starve_lock);
			break;
		case STARVE_QUEUED_IRQOFF:
			local_irq_save(flags);
			spin_lock(&starve_lock);
			break;
		}
		t = ktime_get_ns() - t0;
		switch (how) {
		case STARVE_IRQSAVE:
			spin_unlock_irqrestore(&starve_lock, flags);
			break;
		case STARVE_QUEUED:
			spin_unlock(&starve_lock);
			break;
		case STARVE_QUEUED_IRQOFF:
			spin_unlock(&starve_lock);
			local_irq_restore(flags);
			break;
		}
count:
		st->n++;
		st->sum_ns += t;
		st->max_ns = max(st->max_ns, t);
		usleep_range(20, 40);
	} while (ktime_get_ns() < until);
}

/*
 * One pass: other CPUs (all, or one) run starve_hammer() for STARVE_MS
 * while this CPU waits as \how says. Returns the number of other CPUs,
 * their acquisitions added to *total; -1 if a hammer could not start.
 */
static int starve_pass(struct excl_worker *workers, enum starve_how how,
		       bool one, struct starve_stats *st, unsigned long *total)
{
	unsigned int n = 0, cpu, self;
	int ret = 0;

	WRITE_ONCE(starve_stop, false);
	migrate_disable();
	self = raw_smp_processor_id();
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (cpu == self || (one && n))
			continue;
		init_completion(&workers[n].done);
		workers[n].writes = 0;
		t = kthread_run_on_cpu(starve_hammer, &workers[n], cpu,
				       "cool_starve/%u");
		if (IS_ERR(t)) {
			ret = -1;
			continue;
		}
		n++;
	}
	cpus_read_unlock();
	msleep(20);
	starve_wait(st, how, ktime_get_ns() + STARVE_MS * NSEC_PER_MSEC);
	WRITE_ONCE(starve_stop, true);
	migrate_enable();
	for (cpu = 0; cpu < n; cpu++) {
		wait_for_completion(&workers[cpu].done);
		*total += workers[cpu].writes;
	}
	return ret ? ret : n;
}

/*
 * The verdict on an interrupt-enabled waiter (\iw) against one that
 * queues with interrupts off (\q) in the same run: at least
 * 1/starve_share of its acquisitions, and a worst wait within
 * STARVE_WORST_X times its worst plus the budget.
 */
static bool starve_fair(const char *name, const char *what,
			const struct starve_stats *iw,
			const struct starve_stats *q)
{
	bool ok = true;

	pr_info("# %s: %s: irqsave(irqs on): n=%lu max_ns=%llu mean_ns=%llu queued(irqs off): n=%lu max_ns=%llu mean_ns=%llu\n",
		name, what, iw->n, iw->max_ns,
		div64_u64(iw->sum_ns, max(iw->n, 1UL)), q->n, q->max_ns,
		div64_u64(q->sum_ns, max(q->n, 1UL)));
	/* without interrupt-enabled waiting both passes queue: nothing to compare */
	if (!irqwait)
		return true;
	/* starve_share=0: measure only (wall-clock guests, see the parameter) */
	if (!starve_share)
		return true;
	if (iw->n * starve_share < q->n) {
		pr_info("# %s: %s: the interrupt-enabled waiter got %lu acquisitions, under 1/%u of the queued waiter's %lu\n",
			name, what, iw->n, starve_share, q->n);
		ok = false;
	}
	if (iw->max_ns > STARVE_WORST_X * q->max_ns +
			 (u64)irqwait * NSEC_PER_USEC) {
		pr_info("# %s: %s: the interrupt-enabled waiter's worst wait %llu ns is over %d times the queued waiter's %llu ns plus the %u us budget\n",
			name, what, iw->max_ns, STARVE_WORST_X, q->max_ns,
			irqwait);
		ok = false;
	}
	return ok;
}

static bool case_irq_starve(void)
{
	static const enum starve_how how[] = {
		STARVE_IRQSAVE, STARVE_QUEUED, STARVE_IRQSAVE, STARVE_QUEUED_IRQOFF,
	};
	struct starve_stats st[ARRAY_SIZE(how)];
	struct excl_worker *workers;
	unsigned long total = 0;
	unsigned int pass, cpus = 1;
	bool ok = true, starved;
	int n;

	workers = kcalloc(nr_cpu_ids, sizeof(*workers), GFP_KERNEL);
	if (!workers)
		return false;
	starve_kind = STARVE_SPIN;
	for (pass = 0; pass < ARRAY_SIZE(st); pass++) {
		/* passes 2 and 3: one relocking CPU */
		n = starve_pass(workers, how[pass], pass >= 2, &st[pass], &total);
		if (n <= 0) {
			kfree(workers);
			return false;
		}
		/* a wait as long as the run: starved until the others stopped */
		starved = st[pass].max_ns >= STARVE_MS * NSEC_PER_MSEC;
		if (starved && how[pass] != STARVE_IRQSAVE && !starve_queues()) {
			pr_info("# irq_starve: pass %u: spin_lock() waited the whole pass in virt_spin_lock()'s test-and-set lock (not judged)\n",
				pass + 1);
			starved = false;
		}
		ok &= !starved;
		if (!pass)
			cpus = n + 1;
	}
	pr_info("# irq_starve: cpus=%u irqwait=%u spin_lock_irqsave(irqs on): n=%lu max_ns=%llu mean_ns=%llu spin_lock(queued): n=%lu max_ns=%llu mean_ns=%llu others=%lu\n",
		cpus, irqwait, st[0].n, st[0].max_ns,
		div64_u64(st[0].sum_ns, max(st[0].n, 1UL)), st[1].n,
		st[1].max_ns, div64_u64(st[1].sum_ns, max(st[1].n, 1UL)),
		total);
	ok &= starve_fair("irq_starve", "one relocking CPU", &st[2], &st[3]);
	kfree(workers);
	return ok;
}

/*
 * The same for write_lock_irqsave(): against one CPU that relocks the
 * rwlock for write back to back, and against every other CPU taking it
 * for read back to back (with two or more of them the readers overlap
 * and the lock word never falls to zero). The interrupt-enabled writer
 * is compared with one that queues with interrupts off, as
 * write_lock_irqsave() does without interrupt-enabled waiting.
 */
static bool case_irq_starve_rw(void)
{
	static const struct {
		enum starve_kind kind;
		const char *what;
	} runs[] = {
		{ STARVE_WRITER, "one relocking writer" },
		{ STARVE_READERS, "readers" },
	};
	struct starve_stats iw, q;
	struct excl_worker *workers;
	unsigned long total = 0;
	char what[48];
	bool ok = true;
	unsigned int i;
	int n;

	workers = kcalloc(nr_cpu_ids, sizeof(*workers), GFP_KERNEL);
	if (!workers)
		return false;
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		bool one = runs[i].kind == STARVE_WRITER;

		starve_kind = runs[i].kind;
		n = starve_pass(workers, STARVE_IRQSAVE, one, &iw, &total);
		if (n > 0)
			n = starve_pass(workers, STARVE_QUEUED_IRQOFF, one, &q,
					&total);
		if (n <= 0) {
			ok = false;
			break;
		}
		snprintf(what, sizeof(what), "%s (%d CPU%s)", runs[i].what, n,
			 n > 1 ? "s" : "");
		ok &= iw.max_ns < STARVE_MS * NSEC_PER_MSEC;
		ok &= starve_fair("irq_starve_rw", what, &iw, &q);
	}
	starve_kind = STARVE_SPIN;
	kfree(workers);
	return ok;
}

/*
 * Visible waiting: while a CPU waits in spin_lock_irqsave() or
 * write_lock_irqsave() with interrupts enabled, the holder's
 * spin_needbreak() and rwlock_needbreak() (so cond_resched_lock() and
 * cond_resched_rwlock_write()) must see it, as they see a queued waiter;
 * outside the preemptible models, where those return 0, the test asks
 * spin_is_contended() and rwlock_is_contended(), which they return. The
 * holder polls for up to a second. With interrupt-enabled waiting it then
 * sends the waiter's CPU an IPI and must see it serviced before letting
 * go: proof that the waiter was still in its interrupt-enabled wait (a
 * waiter whose budget ran out queues with interrupts off, and would be
 * seen as any queued waiter). Three tries, for a host that deschedules
 * the waiter's vCPU past its budget.
 */
static DEFINE_SPINLOCK(visible_lock);	/* held by the test, waited for */
static DEFINE_RWLOCK(visible_rwlock);	/* likewise, for write */

struct visible_ctl {
	bool rw;
	struct completion done;
	call_single_data_t csd;
	atomic_t ipis;
};

static void visible_ipi(void *arg)
{
	struct visible_ctl *c = arg;

	atomic_inc(&c->ipis);
}

static int visible_waiter(void *arg)
{
	struct visible_ctl *c = arg;
	unsigned long flags;

	if (c->rw) {
		write_lock_irqsave(&visible_rwlock, flags);
		write_unlock_irqrestore(&visible_rwlock, flags);
	} else {
		spin_lock_irqsave(&visible_lock, flags);
		spin_unlock_irqrestore(&visible_lock, flags);
	}
	complete(&c->done);
	park();
	return 0;
}

static bool visible_seen(bool rw)
{
	if (preempt_model_preemptible())
		return rw ? rwlock_needbreak(&visible_rwlock) :
			    spin_needbreak(&visible_lock);
	return rw ? rwlock_is_contended(&visible_rwlock) :
		    spin_is_contended(&visible_lock);
}

/* 1: seen while waiting with interrupts enabled, 0: not seen, -1: seen late */
static int visible_once(bool rw, unsigned int cpu)
{
	struct visible_ctl c = { .rw = rw };
	struct task_struct *t;
	bool seen = false, sent = false;
	int ret;

	init_completion(&c.done);
	atomic_set(&c.ipis, 0);
	INIT_CSD(&c.csd, visible_ipi, &c);
	t = kthread_create_on_cpu(visible_waiter, &c, cpu, "cool_vis/%u");
	if (IS_ERR(t))
		return 0;
	if (rw)
		write_lock(&visible_rwlock);
	else
		spin_lock(&visible_lock);
	wake_up_process(t);
	seen = spin_until(visible_seen(rw), USEC_PER_SEC);
	ret = seen;
	if (seen && irqwait) {
		sent = !smp_call_function_single_async(cpu, &c.csd);
		spin_until(!sent || atomic_read(&c.ipis), 100 * USEC_PER_MSEC);
		if (!atomic_read(&c.ipis))
			ret = -1;
	}
	if (rw)
		write_unlock(&visible_rwlock);
	else
		spin_unlock(&visible_lock);
	wait_for_completion(&c.done);
	/* the csd is on this stack: wait until the IPI has run */
	while (sent && !atomic_read(&c.ipis))
		cpu_relax();
	kthread_stop(t);
	return ret;
}

static bool case_irq_visible(void)
{
	static const char * const lock_name[] = { "spinlock", "rwlock" };
	unsigned int cpu, rw, try;
	bool ok = true;
	int ret = 0;

	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		pr_info("# irq_visible: needs a second online CPU\n");
		return false;
	}
	for (rw = 0; rw < 2; rw++) {
		for (try = 0; try < 3; try++) {
			ret = visible_once(rw, cpu);
			if (ret > 0)
				break;
		}
		if (ret <= 0) {
			pr_info("# irq_visible: %s: %s\n", lock_name[rw],
				ret ? "seen only after the waiter queued with interrupts off" :
				      "the waiter was never seen");
			ok = false;
		}
	}
	migrate_enable();
	return ok;
}

/* Interrupt latency of a CPU that waits for a contended irqsave lock. */
#define LAT_RUNS	100

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int bench_irqlat(void)
{
	static const unsigned int holds[] = { 10, 100, 1000, 10000 };
	struct irqwait_run *r = kmalloc(sizeof(*r), GFP_KERNEL);
	u64 *lat = kcalloc(LAT_RUNS, sizeof(*lat), GFP_KERNEL);
	size_t h;
	int i, ret = 0;

	if (!r || !lat) {
		ret = -ENOMEM;
		goto out;
	}
	for (h = 0; h < ARRAY_SIZE(holds); h++) {
		for (i = 0; i < LAT_RUNS; i++) {
			ret = irqwait_once(r, IW_SPIN_IRQSAVE, holds[h],
					   false, false);
			if (ret)
				goto out;
			lat[i] = r->ipi_latency;
		}
		sort(lat, LAT_RUNS, sizeof(*lat), cmp_u64, NULL);
		pr_info("irqlat hold_us=%u runs=%d median_ns=%llu p90_ns=%llu p99_ns=%llu max_ns=%llu irqwait=%u\n",
			holds[h], LAT_RUNS, lat[LAT_RUNS / 2],
			lat[LAT_RUNS * 90 / 100 - 1], lat[LAT_RUNS * 99 / 100 - 1],
			lat[LAT_RUNS - 1], irqwait);
	}
out:
	kfree(lat);
	kfree(r);
	return ret;
}

/*
 * qrwlock's contract for readers in interrupt context (see
 * queued_read_lock_slowpath()): when in_interrupt(), a reader waits only
 * for a writer that holds the lock, not for one that waits, so a CPU that
 * holds the lock for read can take it for read again from softirq or with
 * bottom halves disabled while a writer queues elsewhere. The writer here
 * waits on another CPU; this CPU nests read_lock_irqsave() and
 * read_lock_irq() inside its read_lock() with bottom halves disabled
 * (in_interrupt() is true). A lock that waits for the writer spins here
 * forever: the runner sees the hang.
 */
static DEFINE_RWLOCK(irq_reader_rw);	/* read-nested with a writer waiting */

struct irq_reader_ctl {
	struct completion done;
};

static int irq_reader_writer(void *arg)
{
	struct irq_reader_ctl *c = arg;

	write_lock(&irq_reader_rw);
	write_unlock(&irq_reader_rw);
	complete(&c->done);
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static bool rw_shows_waiting_writer(void)
{
	return spin_until(atomic_read(&irq_reader_rw.raw_lock.cnts) & _QW_WAITING,
			  2 * USEC_PER_SEC);
}

static bool case_rw_irq_reader(void)
{
	struct irq_reader_ctl c;
	struct task_struct *t;
	unsigned long flags;
	unsigned int cpu;
	bool ok = true, waiting;

	init_completion(&c.done);
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		pr_info("# rw_irq_reader: needs a second online CPU\n");
		return false;
	}
	t = kthread_create_on_cpu(irq_reader_writer, &c, cpu, "cool_rwirq/%u");
	if (IS_ERR(t)) {
		migrate_enable();
		return false;
	}
	read_lock(&irq_reader_rw);
	wake_up_process(t);
	waiting = rw_shows_waiting_writer();
	local_bh_disable();
	read_lock_irqsave(&irq_reader_rw, flags);
	read_unlock_irqrestore(&irq_reader_rw, flags);
	read_lock_irq(&irq_reader_rw);
	read_unlock_irq(&irq_reader_rw);
	local_bh_enable();
	read_unlock(&irq_reader_rw);
	migrate_enable();
	CHECK(waiting);
	CHECK(wait_for_completion_timeout(&c.done, 5 * HZ));
	kthread_stop(t);
	return ok;
}

#ifdef CONFIG_STACKTRACE
/*
 * Unwinding from inside a lock wait: a CPU waits in spin_lock() (and, with
 * interrupt-enabled waiting, in spin_lock_irqsave()) called from
 * trace_waiter_lock(); an IPI to that CPU saves the stack trace, which
 * must name trace_waiter_lock(). A lock routine that calls out or waits
 * without a frame hides its caller from the frame-pointer unwinder.
 */
#define TRACE_DEPTH	48

static DEFINE_SPINLOCK(trace_lock);	/* waited for in trace_waiter_lock() */

struct trace_ctl {
	bool irqsave;
	bool waiting;		/* the waiter is about to take the lock */
	bool sampled;		/* the IPI saved the trace */
	unsigned long entries[TRACE_DEPTH];
	unsigned int nr;
	struct completion done;
};

static noinline void trace_waiter_lock(struct trace_ctl *c)
{
	unsigned long flags;

	WRITE_ONCE(c->waiting, true);
	if (c->irqsave) {
		spin_lock_irqsave(&trace_lock, flags);
		spin_unlock_irqrestore(&trace_lock, flags);
	} else {
		spin_lock(&trace_lock);
		spin_unlock(&trace_lock);
	}
	barrier();	/* no tail call: trace_waiter_lock() stays a frame */
}

static int trace_waiter(void *arg)
{
	struct trace_ctl *c = arg;

	trace_waiter_lock(c);
	complete(&c->done);
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static void trace_ipi(void *arg)
{
	struct trace_ctl *c = arg;

	c->nr = stack_trace_save(c->entries, TRACE_DEPTH, 0);
	/* the trace is complete before the main thread reads it */
	smp_store_release(&c->sampled, true);
}

/* Returns NULL and sets *found, or a reason to skip. */
static const char *trace_once(bool irqsave, bool *found)
{
	struct trace_ctl *c;
	struct task_struct *t;
	char sym[KSYM_SYMBOL_LEN];
	unsigned int cpu, i;

	*found = false;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return "out of memory";
	c->irqsave = irqsave;
	init_completion(&c->done);
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		kfree(c);
		return "needs a second online CPU";
	}
	t = kthread_create_on_cpu(trace_waiter, c, cpu, "cool_trace/%u");
	if (IS_ERR(t)) {
		migrate_enable();
		kfree(c);
		return "no kthread";
	}
	spin_lock(&trace_lock);
	wake_up_process(t);
	spin_until(READ_ONCE(c->waiting), 2 * USEC_PER_SEC);
	/*
	 * Let it reach the wait (the lock is held, so no sleeping), and
	 * interrupt it within the time it may wait with interrupts on.
	 */
	udelay(irqsave ? min(2000U, irqwait / 4) : 2000);
	smp_call_function_single(cpu, trace_ipi, c, 0);
	/* pairs with the release in trace_ipi(): the entries are written */
	spin_until(smp_load_acquire(&c->sampled), USEC_PER_SEC);
	spin_unlock(&trace_lock);
	migrate_enable();
	wait_for_completion(&c->done);
	/* an IPI that found interrupts off ran once the lock was taken */
	while (!smp_load_acquire(&c->sampled))	/* as above */
		usleep_range(100, 200);
	kthread_stop(t);
	for (i = 0; i < c->nr; i++) {
		sprint_symbol(sym, c->entries[i]);
		if (strstr(sym, "trace_waiter_lock+"))
			*found = true;
	}
	if (!*found) {
		pr_info("# stack_trace: %s: trace_waiter_lock() missing from:\n",
			irqsave ? "spin_lock_irqsave" : "spin_lock");
		for (i = 0; i < c->nr; i++)
			pr_info("#   %pS\n", (void *)c->entries[i]);
	}
	kfree(c);
	return NULL;
}

static bool case_stack_trace(void)
{
	bool ok = true, found;

	CHECK(!trace_once(false, &found) && found);
	if (irqwait)
		CHECK(!trace_once(true, &found) && found);
	return ok;
}

#define STACK_TRACE_SKIP	NULL
#else
/* stack_trace_save() exists only with it (an in-tree module selects it) */
#define STACK_TRACE_SKIP	"no CONFIG_STACKTRACE in this kernel"

static bool case_stack_trace(void)
{
	return false;
}
#endif

/*
 * Negative control for the sanitizers: take and drop a spinlock that lies
 * in freed memory. Under KASAN the lock functions are instrumented, so
 * this must produce a KASAN report, which the runner looks for. The lock
 * sits past the allocator's and KASAN's free metadata, so that the write
 * corrupts nothing.
 */
static bool negative_kasan(void)
{
	spinlock_t *lock;	/* in freed memory */
	char *p;

	p = kmalloc(128, GFP_KERNEL);
	if (!p)
		return false;
	lock = (spinlock_t *)(p + 96);
	spin_lock_init(lock);
	kfree(p);
	OPTIMIZER_HIDE_VAR(lock);
	spin_lock(lock);
	spin_unlock(lock);
	pr_info("# kasan: took and dropped a spinlock in freed memory\n");
	return true;
}

static bool wanted(const char *name)
{
	const char *p = cases;
	size_t len = strlen(name);

	if (!p || !*p)
		return true;
	while ((p = strstr(p, name))) {
		if ((p == cases || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
		p += len;
	}
	return false;
}

static void run_case(const char *name, bool (*fn)(void))
{
	unsigned int pc;
	bool irqs, ok;

	if (!wanted(name))
		return;
	pc = preempt_count();
	irqs = irqs_disabled();
	ok = fn();
	if (preempt_count() != pc || irqs_disabled() != irqs) {
		pr_info("# %s: leaked state: preempt_count %u -> %u, irqs_disabled %d -> %d\n",
			name, pc, preempt_count(), irqs, irqs_disabled());
		ok = false;
	}
	ktap_result(ok, name, NULL);
}

/* Run a negative control; -EINVAL for an unknown one. */
static int run_negative(const char *what)
{
	char name[64];

	if (!strcmp(what, "lock")) {
		pr_info("1..1\n");
		snprintf(name, sizeof(name), "exclusion_%s", broken_ops.name);
		ktap_result(run_exclusion(&broken_ops), name, NULL);
		return 0;
	}
	if (!strcmp(what, "regs")) {
		pr_info("1..1\n");
		ktap_result(true, "registers_clobbering_routine", REGS_SKIP);
		return 0;
	}
	if (!strcmp(what, "queue_irq")) {
		pr_info("1..1\n");
		pr_info("# queue_irq: waiting in the queue with interrupts on; this should hang\n");
		ktap_result(negative_queue_irq(), "irq_same_lock_queue_irq",
			    NULL);
		return 0;
	}
	if (!strcmp(what, "kasan")) {
		pr_info("1..1\n");
		ktap_result(negative_kasan(), "kasan_use_after_free_lock", NULL);
		return 0;
	}
	pr_info("# unknown negative control '%s'\n", what);
	return -EINVAL;
}

static void run_all(void)
{
	static const char * const other[] = {
		"contexts", "lock_functions",
		"irq_wait", "irq_same_lock", "irq_starve", "irq_starve_rw",
		"irq_visible",
		"rw_irq_reader",
		"stack_trace",
	};
	char name[64];
	int plan = 0;
	bool ok;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(excl_ops); i++) {
		snprintf(name, sizeof(name), "exclusion_%s", excl_ops[i].name);
		plan += wanted(name);
	}
	for (i = 0; i < ARRAY_SIZE(other); i++)
		plan += wanted(other[i]);
	pr_info("1..%d\n", plan);
	for (i = 0; i < ARRAY_SIZE(excl_ops); i++) {
		snprintf(name, sizeof(name), "exclusion_%s", excl_ops[i].name);
		if (wanted(name))
			ktap_result(run_exclusion(&excl_ops[i]), name, NULL);
	}
	run_case("contexts", case_contexts);
	run_case("lock_functions", case_lock_functions);
	if (wanted("irq_wait")) {
		const char *skip = case_irq_wait(&ok);

		ktap_result(ok, "irq_wait", skip);
	}
	run_case("irq_same_lock", case_irq_same_lock);
	run_case("irq_starve", case_irq_starve);
	run_case("irq_starve_rw", case_irq_starve_rw);
	run_case("irq_visible", case_irq_visible);
	run_case("rw_irq_reader", case_rw_irq_reader);
	if (STACK_TRACE_SKIP && wanted("stack_trace"))
		ktap_result(true, "stack_trace", STACK_TRACE_SKIP);
	else
		run_case("stack_trace", case_stack_trace);
}

static int __init test_cool_spinlock_init(void)
{
	if (bench) {
		if (!strcmp(bench, "pathlen"))
			return bench_pathlen();
		if (!strcmp(bench, "irqlat"))
			return bench_irqlat();
		pr_info("# unknown benchmark '%s'\n", bench);
		return -EINVAL;
	}
	add_taint(TAINT_TEST, LOCKDEP_STILL_OK);
	pr_info("KTAP version 1\n");
	pr_info("# cool_spinlock: COOL_SPINLOCK_CALLS=%d cpus=%u\n",
		IS_ENABLED(CONFIG_COOL_SPINLOCK_CALLS), num_online_cpus());

	if (negative && *negative) {
		if (run_negative(negative))
			return -EINVAL;
	} else {
		run_all();
	}
	pr_info("# Totals: pass:%d fail:%d\n", case_number - failed_cases,
		failed_cases);
	return failed_cases ? -EINVAL : 0;
}

static void __exit test_cool_spinlock_exit(void)
{
}

module_init(test_cool_spinlock_init);
module_exit(test_cool_spinlock_exit);

MODULE_DESCRIPTION("Test and measure the spinlock API, CONFIG_COOL_SPINLOCK and interrupt-enabled waiting");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
