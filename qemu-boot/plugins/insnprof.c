// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest instructions executed
 * per translation-block start address, for scripts/bench.sh's profile
 * section: which guest functions a locktorture run spends its
 * instructions in (mapped to symbols with the vmlinux of a nokaslr boot).
 *
 * Usage: qemu-system-x86_64 ... -plugin PATH/insnprof.so,out=FILE
 * FILE gets one line per block start: "ADDR INSTRUCTIONS" (hex, decimal),
 * written when QEMU exits.
 *
 * Built against QEMU's plugin API version 1 (QEMU 7.2, Debian 12), whose
 * few declarations used here are repeated below: Debian ships no
 * qemu-plugin.h. The inline add is not atomic, so counts are exact only
 * with one TCG thread (-icount, as the profile boots run).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct { int min, cur; } version;
	bool system_emulation;
	union { struct { int smp_vcpus, max_vcpus; } system; };
} qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
		enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t, void *), void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

EXPORT int qemu_plugin_version = 1;

/* Open addressing on the block's start address; slots never move. */
#define SLOTS (1u << 20)
struct slot {
	uint64_t vaddr;
	uint64_t insns;
};
static struct slot *slots;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_path;

static struct slot *slot_of(uint64_t vaddr)
{
	uint64_t h = (vaddr * 0x9e3779b97f4a7c15ull) >> 44;
	unsigned int i;

	for (i = 0; i < SLOTS; i++) {
		struct slot *s = &slots[(h + i) & (SLOTS - 1)];

		if (s->vaddr == vaddr)
			return s;
		if (!s->vaddr) {
			s->vaddr = vaddr;
			return s;
		}
	}
	return NULL;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct slot *s;

	(void)id;
	if (!vaddr)
		return;
	pthread_mutex_lock(&lock);
	s = slot_of(vaddr);
	pthread_mutex_unlock(&lock);
	if (s)
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &s->insns,
				qemu_plugin_tb_n_insns(tb));
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");
	unsigned int i;

	(void)id;
	(void)p;
	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < SLOTS; i++)
		if (slots[i].insns)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", slots[i].vaddr,
				slots[i].insns);
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	if (!out_path) {
		fprintf(stderr, "insnprof: out=FILE is required\n");
		return -1;
	}
	slots = calloc(SLOTS, sizeof(*slots));
	if (!slots)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
