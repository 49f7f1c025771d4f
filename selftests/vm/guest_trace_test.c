// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_trace_test.c - run --trace=block on real drivers (VM guest):
 * polled NVMe completions run on the submitting CPU; one queue with
 * rq_affinity=0 completes a node-0 job's requests on the other node, and
 * rq_affinity=2 brings them back; an md RAID0's requests are its
 * members'; a scsi_debug delay shows in the device stage and nowhere else
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/attr.h"
#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme0n1", F_OK) || access("/sys/block/nullb3", F_OK) || \
	    access("/sys/block/sda", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
	if (access("/sys/kernel/btf/vmlinux", F_OK)) \
		SKIP(return, "the guest kernel has no BTF"); \
} while (0)

#define SDEBUG "/sys/bus/pseudo/drivers/scsi_debug"

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/* A traced 4 KiB random-read job on @dev, on @cpu, with @extra (or NULL). */
static json_object *traced(struct __test_metadata *_metadata, struct run_result *r,
			   const char *dev, int cpu, const char *io_size, const char *extra)
{
	char filename[64], cpus[32], size[32];
	const char *args[] = { filename, "--name=tr", "--rw=randread", "--bs=4k", "--direct=1",
			       "--iodepth=4", size, cpus, "--trace=block", extra, NULL };
	json_object *root;

	snprintf(filename, sizeof(filename), "--filename=%s", dev);
	snprintf(cpus, sizeof(cpus), "--cpus_allowed=%d", cpu);
	snprintf(size, sizeof(size), "--io_size=%s", io_size);
	root = blkqual_run_json(r, args);
	if (!root)
		TH_LOG("%s: exit %d: %s", dev, r->status, r->err);
	return root;
}

static json_object *trace_dev(json_object *job, const char *name)
{
	json_object *devs = json_object_object_get(json_object_object_get(job, "block_trace"),
						   "devices");

	for (size_t i = 0; devs && i < json_object_array_length(devs); i++) {
		json_object *d = json_object_array_get_idx(devs, i);

		if (!strcmp(json_str(d, "device"), name))
			return d;
	}
	return NULL;
}

/* Polled completions are reaped by the submitting thread, on its CPU. */
TEST(polled_nvme_completes_on_the_submitter)
{
	struct run_result r;
	json_object *root, *j, *d;

	NEED_GUEST();
	root = traced(_metadata, &r, "/dev/nvme0n1", 1, "2m", "--poll=on");
	ASSERT_NE(NULL, root);
	j = job0(root);
	d = trace_dev(j, "nvme0n1");
	ASSERT_NE(NULL, d);
	EXPECT_EQ(512, json_int(d, "requests.read", -1));
	EXPECT_EQ(512, json_int(j, "block_trace.completions.total", -1));
	TH_LOG("polled: %.1f%% on the submitting CPU",
	       json_dbl(j, "block_trace.completions.on_submitter_cpu_pct", -1));
	EXPECT_EQ(100, json_dbl(j, "block_trace.completions.on_submitter_cpu_pct", -1));
	json_object_put(root);
	run_result_free(&r);
	/* With interrupts too, every completion is in the map. */
	root = traced(_metadata, &r, "/dev/nvme0n1", 1, "2m", NULL);
	ASSERT_NE(NULL, root);
	j = job0(root);
	EXPECT_EQ(512, json_int(j, "block_trace.completions.total", -1));
	TH_LOG("interrupts: %.1f%% on the submitting CPU",
	       json_dbl(j, "block_trace.completions.on_submitter_cpu_pct", -1));
	json_object_put(root);
	run_result_free(&r);
}

/* The namespace of the controller whose serial is @serial, in @name. */
static int nvme_by_serial(const char *serial, char *name, size_t len)
{
	for (int c = 0; c < 16; c++) {
		char path[96], s[64];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/nvme/nvme%d/serial", c);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(s, sizeof(s), f))
			s[0] = 0;
		fclose(f);
		if (strncmp(s, serial, strlen(serial)) || (s[strlen(serial)] != ' ' &&
		    s[strlen(serial)] != '\n' && s[strlen(serial)]))
			continue;
		snprintf(name, len, "nvme%dn1", c);
		snprintf(path, sizeof(path), "/sys/block/%s", name);
		return access(path, F_OK) ? -1 : 0;
	}
	return -1;
}

/* The CPU the interrupt of @name's one I/O queue (@irq) is delivered to, or -1. */
static int queue_irq_cpu(const char *name, int *irq)
{
	char ctrl[16], want[32], line[512], path[96];
	int cpu = -1;
	FILE *f;

	snprintf(ctrl, sizeof(ctrl), "%.*s", (int)(strchr(name + 4, 'n') - name), name);
	snprintf(want, sizeof(want), "%sq1", ctrl);
	f = fopen("/proc/interrupts", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *end = line + strlen(line);

		while (end > line && (end[-1] == '\n' || end[-1] == ' '))
			*--end = 0;
		if (end - line < (long)strlen(want) || strcmp(end - strlen(want), want))
			continue;
		*irq = atoi(line);
		snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list", *irq);
		fclose(f);
		f = fopen(path, "r");
		if (f && fscanf(f, "%d", &cpu) != 1)
			cpu = -1;
		break;
	}
	if (f)
		fclose(f);
	return cpu;
}

/*
 * A controller with one I/O queue on node 1: its interrupt goes to one
 * CPU.  A job on the other CPU (the other node) with rq_affinity=0 has
 * its requests completed where the interrupt lands, across the nodes;
 * rq_affinity=2 completes them on the submitting CPU.
 */
TEST(one_queue_completes_across_nodes_until_rq_affinity_2)
{
	char name[32], attr[96], dev[48], want[16];
	json_object *root, *j, *irqs;
	struct run_result r;
	int irq = -1, irq_cpu, cpu;
	bool reported = false;

	NEED_GUEST();
	if (nvme_by_serial("BQNVMEQ1", name, sizeof(name)))
		SKIP(return, "no one-queue controller BQNVMEQ1 (vm.sh)");
	irq_cpu = queue_irq_cpu(name, &irq);
	ASSERT_LE(0, irq_cpu) TH_LOG("no interrupt found for %s's queue", name);
	cpu = irq_cpu ? 0 : 1;
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	snprintf(attr, sizeof(attr), "/sys/block/%s/queue/rq_affinity", name);
	ASSERT_EQ(0, attr_write(attr, "0"));
	root = traced(_metadata, &r, dev, cpu, "2m", NULL);
	ASSERT_NE(NULL, root);
	j = job0(root);
	TH_LOG("%s: interrupt on CPU %d, job on CPU %d, rq_affinity=0: %.1f%% on the "
	       "submitter's node", name, irq_cpu, cpu,
	       json_dbl(j, "block_trace.completions.on_submitter_node_pct", -1));
	EXPECT_EQ(1, json_int(trace_dev(j, name), "numa_node", -1));
	EXPECT_EQ(0, json_int(trace_dev(j, name), "rq_affinity", -1));
	/* The report names the queue's interrupt and where it goes. */
	irqs = json_object_object_get(trace_dev(j, name), "interrupts");
	snprintf(want, sizeof(want), "%d", irq_cpu);
	for (size_t i = 0; irqs && i < json_object_array_length(irqs); i++) {
		json_object *e = json_object_array_get_idx(irqs, i);

		reported |= json_int(e, "irq", -1) == irq &&
			    !strcmp(json_str(e, "effective_cpus"), want);
	}
	EXPECT_TRUE(reported) TH_LOG("irq %d on CPU %d not in the report", irq, irq_cpu);
	EXPECT_GE(5, json_dbl(j, "block_trace.completions.on_submitter_node_pct", -1));
	json_object_put(root);
	run_result_free(&r);
	ASSERT_EQ(0, attr_write(attr, "2"));
	root = traced(_metadata, &r, dev, cpu, "2m", NULL);
	ASSERT_NE(NULL, root);
	j = job0(root);
	TH_LOG("rq_affinity=2: %.1f%% on the submitter's node",
	       json_dbl(j, "block_trace.completions.on_submitter_node_pct", -1));
	EXPECT_LE(95, json_dbl(j, "block_trace.completions.on_submitter_node_pct", -1));
	json_object_put(root);
	run_result_free(&r);
	attr_write(attr, "1");
}

/* An md RAID0 issues no requests: its members do, one per 4 KiB read. */
TEST(md_raid0_requests_are_its_members)
{
	struct run_result r;
	json_object *root, *j, *md, *m[2];
	long long ios, sum = 0;

	NEED_GUEST();
	if (run_quiet("mdadm --create /dev/md9 --run --level=0 --chunk=64 --raid-devices=2 "
		      "/dev/nullb2 /dev/nullb3"))
		SKIP(return, "mdadm cannot create /dev/md9 here");
	attr_write("/sys/block/nullb2/queue/nomerges", "2");
	attr_write("/sys/block/nullb3/queue/nomerges", "2");
	root = traced(_metadata, &r, "/dev/md9", 0, "4m", NULL);
	run_quiet("mdadm --stop /dev/md9");
	run_quiet("mdadm --zero-superblock /dev/nullb2");
	run_quiet("mdadm --zero-superblock /dev/nullb3");
	attr_write("/sys/block/nullb2/queue/nomerges", "0");
	attr_write("/sys/block/nullb3/queue/nomerges", "0");
	ASSERT_NE(NULL, root);
	j = job0(root);
	ios = json_int(j, "total.read.ios", -1);
	md = trace_dev(j, "md9");
	m[0] = trace_dev(j, "nullb2");
	m[1] = trace_dev(j, "nullb3");
	ASSERT_NE(NULL, md);
	ASSERT_NE(NULL, m[0]);
	ASSERT_NE(NULL, m[1]);
	EXPECT_EQ(0, json_int(md, "requests.read", -1));
	for (int i = 0; i < 2; i++) {
		EXPECT_STREQ("md9", json_str(m[i], "member_of"));
		EXPECT_LT(0, json_int(m[i], "requests.read", -1));
		sum += json_int(m[i], "requests.read", 0);
	}
	TH_LOG("%lld reads of md9: %lld and %lld requests on its members", ios,
	       json_int(m[0], "requests.read", 0), json_int(m[1], "requests.read", 0));
	EXPECT_EQ(ios, sum);
	json_object_put(root);
	run_result_free(&r);
}

/* The first scsi_debug disk's device stage mean and queue stage mean, in ns. */
static int sdebug_stages(struct __test_metadata *_metadata, double *queue, double *device)
{
	struct run_result r;
	json_object *root, *d;

	root = traced(_metadata, &r, "/dev/sda", 0, "200k", "--iodepth=1");
	if (!root)
		return -1;
	d = trace_dev(job0(root), "sda");
	*queue = json_dbl(d, "stages.read.queue.mean", -1);
	*device = json_dbl(d, "stages.read.device.mean", -1);
	json_object_put(root);
	run_result_free(&r);
	return d ? 0 : -1;
}

/*
 * scsi_debug's delay is the device's time: from 5 to 20 ms, the device
 * stage takes all of the 15 ms, the queued stage none.  (Without a delay
 * the guest still sees about 4 ms, a tick of its emulated clock.)
 */
TEST(scsi_debug_delay_is_in_the_device_stage)
{
	double q0, d0, q1, d1;
	long long ndelay = -1;

	NEED_GUEST();
	if (attr_read_ll(SDEBUG "/ndelay", &ndelay))
		SKIP(return, "scsi_debug has no ndelay here");
	ASSERT_EQ(0, attr_write(SDEBUG "/ndelay", "5000000"));
	ASSERT_EQ(0, sdebug_stages(_metadata, &q0, &d0));
	ASSERT_EQ(0, attr_write(SDEBUG "/ndelay", "20000000"));
	ASSERT_EQ(0, sdebug_stages(_metadata, &q1, &d1));
	attr_write(SDEBUG "/ndelay", "%lld", ndelay);
	TH_LOG("queued %.1f -> %.1f us, device %.1f -> %.1f us, the delay 5 -> 20 ms",
	       q0 / 1e3, q1 / 1e3, d0 / 1e3, d1 / 1e3);
	EXPECT_LE(13.5e6, d1 - d0);
	EXPECT_GE(16.5e6, d1 - d0);
	EXPECT_GE(1e6, fabs(q1 - q0));
}

TEST_HARNESS_MAIN
