// SPDX-License-Identifier: GPL-2.0
/*
 * lockload - lock-heavy kernel workloads for the caller-side measurement
 * of 'make bench' (section callers): each loop drives system calls whose
 * kernel paths take spinlocks (pipe and socket wait queues, the run
 * queue, the page cache, the futex hash bucket, fork's mm and pid locks).
 * Booted with -icount shift=0 on one vCPU, guest nanoseconds count the
 * instructions the whole guest ran, kernel included, so stock and COOL
 * compare on instruction counts.
 *
 * Usage: lockload [ITERATIONS]   (default 2000)
 * Prints one line per workload:
 *   # workload: name=NAME iters=N ns=NS ns_per_iter=X
 * or "# workload: name=NAME skipped: ..." when the kernel lacks the
 * system call (the minimal configs have no networking and may lack futex).
 * Exit status: 0 done, 1 a system call failed.
 * Built by qemu-boot/initramfs.sh with gcc -static -O2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

/* One byte there and back between two processes, through two fd pairs. */
static void ping_pong(int a[2], int b[2], long n)
{
	char c = 0;
	pid_t pid;
	long i;

	pid = fork();
	if (pid < 0)
		fail("fork");
	if (!pid) {
		for (i = 0; i < n; i++) {
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < n; i++) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			fail("ping-pong");
	}
	if (waitpid(pid, NULL, 0) != pid)
		fail("waitpid");
}

/* Each workload returns 0, or 1 when the kernel lacks its system call. */
static int w_pipe(long n)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		fail("pipe");
	ping_pong(a, b, n);
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
	return 0;
}

static int w_socketpair(long n)
{
	int a[2], b[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, a) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, b)) {
		if (errno == ENOSYS || errno == EAFNOSUPPORT)
			return 1;	/* no CONFIG_NET / CONFIG_UNIX */
		fail("socketpair");
	}
	ping_pong(a, b, n);
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
	return 0;
}

static int w_fork(long n)
{
	pid_t pid;
	long i;

	for (i = 0; i < n / 10; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (!pid)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			fail("waitpid");
	}
	return 0;
}

static int w_tmpfs(long n)
{
	char buf[512], name[64];
	long i;
	int fd;

	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "/tmp/lockload.%ld", i % 16);
		fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0600);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf))
			fail("tmpfs write");
		close(fd);
		if (unlink(name))
			fail("unlink");
	}
	return 0;
}

static int w_futex(long n)
{
	static int word;
	long i;

	/* FUTEX_WAKE with nobody waiting: the hash bucket's spinlock */
	for (i = 0; i < n * 10; i++) {
		if (syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0) < 0) {
			if (errno == ENOSYS)
				return 1;	/* no CONFIG_FUTEX */
			fail("futex");
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(long n);
		int per;		/* iterations per unit of n */
	} w[] = {
		{ "pipe", w_pipe, 1 },
		{ "socketpair", w_socketpair, 1 },
		{ "fork", w_fork, 0 },
		{ "tmpfs", w_tmpfs, 1 },
		{ "futex", w_futex, 10 },
	};
	long n = argc > 1 ? atol(argv[1]) : 2000, iters;
	long long t0, t;
	size_t i;

	if (n < 10)
		n = 10;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		iters = w[i].per ? n * w[i].per : n / 10;
		t0 = now_ns();
		if (w[i].fn(n)) {
			printf("# workload: name=%s skipped: the kernel lacks the system call\n",
			       w[i].name);
			continue;
		}
		t = now_ns() - t0;
		printf("# workload: name=%s iters=%ld ns=%lld ns_per_iter=%lld\n",
		       w[i].name, iters, t, t / iters);
		fflush(stdout);
	}
	return 0;
}
