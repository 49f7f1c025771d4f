// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_queue.c - the values of fio's queueing options that are not
 * plain numbers or flags (those use jobopt.c's setters)
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_queue.h"

int bq_opt_set_submit_mode(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err)
{
	/* offload: what it needs of the engine is checked with the whole job (jobopt_fill.c) */
	if (!strcmp(val, "inline") || !strcmp(val, "offload")) {
		job->submit_offload = !strcmp(val, "offload");
		return 0;
	}
	return bq_parse_fail(err, -EINVAL, "%s=%s: one of inline, offload", key, val);
}

/*
 * prio=, prioclass= and priohint=: the thread's I/O priority, as
 * ioprio_set(2) takes it; any of them has the thread set it, as in fio.
 */
int bq_opt_set_ioprio(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	bool is_class = !strcmp(key, "prioclass"), is_hint = !strcmp(key, "priohint");
	unsigned int max = is_class ? 3 : is_hint ? BQ_IOPRIO_MAX_HINT : 7;
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (!*val || *end || errno || v < 0 || v > max)
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 to %u", key, val, max);
	if (is_class)
		job->ioprio_class = (unsigned int)v;
	else if (is_hint)
		job->ioprio_hint = (unsigned int)v;
	else
		job->ioprio = (unsigned int)v;
	job->ioprio_set = true;
	return 0;
}

/*
 * cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_hint: "N" for
 * both directions or "R,W", as fio takes them.
 */
int bq_opt_set_cmdprio(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	unsigned int lo = 0, max = 7;
	uint8_t *field = job->cmdprio_level;
	uint16_t v[BQ_NR_DIRS];
	const char *p = val;

	if (!strcmp(key, "cmdprio_hint")) {
		field = NULL;
		max = BQ_IOPRIO_MAX_HINT;
	} else if (!strcmp(key, "cmdprio_percentage")) {
		field = job->cmdprio_pct;
		max = 100;
	} else if (!strcmp(key, "cmdprio_class")) {
		field = job->cmdprio_class;
		lo = 1;
		max = 3;
	}
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		char *end;
		long n;

		errno = 0;
		n = strtol(p, &end, 10);
		if (end == p || errno || n < lo || n > max || (*end && *end != ','))
			return bq_parse_fail(err, -EINVAL, "%s=%s: %u to %u, or READ,WRITE", key,
					     val, lo, max);
		v[d] = (uint16_t)n;
		if (!*end) {
			/* One value is both directions'. */
			if (!d)
				v[BQ_WRITE] = v[BQ_READ];
			break;
		}
		if (d)
			return bq_parse_fail(err, -EINVAL, "%s=%s: at most two values", key, val);
		p = end + 1;
	}
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (field)
			field[d] = (uint8_t)v[d];
		else
			job->cmdprio_hint[d] = v[d];
	}
	return 0;
}

/*
 * fio's cpumask: a bit mask of the first 32 CPUs, the same thing as a
 * cpus_allowed list (the later of the two wins, as in fio).
 */
int bq_opt_set_cpumask(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char list[sizeof(job->cpus_allowed)];
	unsigned long long mask;
	size_t len = 0;
	char *end;

	errno = 0;
	mask = strtoull(val, &end, 0);
	if (!*val || *val == '-' || *end || errno || mask > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: a bit mask of CPUs 0 to 31, like 0x3",
				     key, val);
	if (!mask)
		return bq_parse_fail(err, -EINVAL, "%s=%s: no CPU set", key, val);
	list[0] = 0;
	for (int cpu = 0; cpu < 32; cpu++) {
		if (!(mask & 1ULL << cpu))
			continue;
		if (cpu >= ncpu)
			return bq_parse_fail(err, -EINVAL, "%s=%s: CPU %d is over the last, %ld",
					     key, val, cpu, ncpu - 1);
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", len ? "," : "",
					cpu);
	}
	memset(job->cpus_allowed, 0, sizeof(job->cpus_allowed));
	bq_strlcpy(job->cpus_allowed, list, sizeof(job->cpus_allowed));
	return 0;
}

int bq_opt_set_cpus_policy(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "shared"))
		job->cpus_policy = BQ_CPUS_SHARED;
	else if (!strcmp(val, "split"))
		job->cpus_policy = BQ_CPUS_SPLIT;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: one of shared, split", key, val);
	return 0;
}

/* A node list as fio takes it: "all", or ascending numbers and ranges. */
static int node_list(const char *key, const char *val, char *dst, size_t len,
		     struct bq_parse_error *err)
{
	int nodes[1024];

	if (strlen(val) >= len)
		return bq_parse_fail(err, -EINVAL, "%s: list is longer than %zu characters", key,
				     len - 1);
	if (strcmp(val, "all") && bq_cpulist_parse(val, nodes, 1024) <= 0)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a node list, like 0-1,3 or all",
				     key, val);
	memset(dst, 0, len);
	bq_strlcpy(dst, val, len);
	return 0;
}

/*
 * numa_cpu_nodes=LIST and numa_mem_policy=MODE[:LIST]; whether the nodes
 * exist is checked by the running thread (lib/io/numa_policy.c).
 */
int bq_opt_set_numa(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	static const char *const modes[] = {
		[BQ_NUMA_MEM_DEFAULT] = "default", [BQ_NUMA_MEM_PREFER] = "prefer",
		[BQ_NUMA_MEM_BIND] = "bind", [BQ_NUMA_MEM_INTERLEAVE] = "interleave",
		[BQ_NUMA_MEM_LOCAL] = "local",
	};
	const char *colon = strchr(val, ':');
	size_t mlen = colon ? (size_t)(colon - val) : strlen(val);
	int mode = 0, ret;

	if (!strcmp(key, "numa_cpu_nodes"))
		return node_list(key, val, job->numa_cpu_nodes, sizeof(job->numa_cpu_nodes), err);
	for (int m = BQ_NUMA_MEM_DEFAULT; m <= BQ_NUMA_MEM_LOCAL; m++)
		if (strlen(modes[m]) == mlen && !strncmp(val, modes[m], mlen))
			mode = m;
	if (!mode)
		return bq_parse_fail(err, -EINVAL, "%s=%s: one of default, prefer:N, bind:LIST, "
				     "interleave:LIST, local", key, val);
	/* As in fio: prefer, bind and interleave need nodes, the others take none. */
	if ((mode == BQ_NUMA_MEM_DEFAULT || mode == BQ_NUMA_MEM_LOCAL) != !colon)
		return bq_parse_fail(err, -EINVAL, "%s=%s: %s %s node list", key, val,
				     modes[mode], colon ? "takes no" : "needs a");
	if (colon) {
		ret = node_list(key, colon + 1, job->numa_mem_nodes, sizeof(job->numa_mem_nodes),
				err);
		if (ret)
			return ret;
		if (mode == BQ_NUMA_MEM_PREFER && strspn(colon + 1, "0123456789") !=
		    strlen(colon + 1))
			return bq_parse_fail(err, -EINVAL, "%s=%s: prefer takes one node", key,
					     val);
	} else {
		job->numa_mem_nodes[0] = 0;
	}
	job->numa_mem_mode = mode;
	return 0;
}

/*
 * flow_sleep: microseconds, as fio counts them.  flow_watermark is
 * deprecated in fio, which accepts and ignores it: so does blkqual.
 */
int bq_opt_set_flow_sleep(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(val, &end, 10);
	if (!*val || *val == '-' || *end || errno || v > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a whole number", key, val);
	if (!strcmp(key, "flow_sleep"))
		job->flow_sleep_ns = v * 1000;
	return 0;
}

/* fio has per-command priorities in its io_uring and libaio engines only. */
int bq_job_check_queue(const struct bq_job *job, struct bq_parse_error *err)
{
	bool cmdprio = job->cmdprio_pct[BQ_READ] || job->cmdprio_pct[BQ_WRITE];

	if (cmdprio && job->engine != BQ_ENGINE_IO_URING && job->engine != BQ_ENGINE_LIBAIO)
		return bq_parse_fail(err, -EINVAL, "cmdprio_percentage needs ioengine=io_uring "
				     "or libaio");
	/* Flow control is checked in the engines' loops; sg's has no check. */
	if (job->flow && job->engine == BQ_ENGINE_SG)
		return bq_parse_fail(err, -EINVAL, "flow is not implemented for ioengine=sg");
	return 0;
}
