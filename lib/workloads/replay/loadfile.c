// SPDX-License-Identifier: GPL-2.0-only
/*
 * loadfile.c - dbench NBENCH loadfiles into a compact array
 *
 * client.txt is 458k lines and 26 MB; every client replays the same
 * lines, so they are parsed once, before any client starts, into fixed
 * 56-byte records.  Paths and fnums repeat a lot (a few thousand distinct
 * of each), so both become small dense numbers: a client finds its open
 * file by indexing an array, and builds its own path from a shared one by
 * swapping a single component.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blkqual_replay.h"
#include "internal.h"
#include "replay_int.h"

/* SMB reads and writes are 64 KiB, SMB2 ones 8 MiB at most. */
#define MAX_IO_SIZE (16u << 20)
#define CLIENT_NAME "client1"
#define CLIENT_NAME_LEN 7
#define MAX_TOKENS 12

static const struct {
	const char *name;
	uint32_t code;
} nt_statuses[] = {
	{ "NT_STATUS_OK", BQ_NT_STATUS_OK },
	{ "NT_STATUS_NO_MORE_FILES", BQ_NT_STATUS_NO_MORE_FILES },
	{ "NT_STATUS_UNSUCCESSFUL", BQ_NT_STATUS_UNSUCCESSFUL },
	{ "NT_STATUS_NOT_IMPLEMENTED", 0xC0000002u },
	{ "NT_STATUS_INVALID_HANDLE", BQ_NT_STATUS_INVALID_HANDLE },
	{ "NT_STATUS_INVALID_PARAMETER", BQ_NT_STATUS_INVALID_PARAMETER },
	{ "NT_STATUS_NO_SUCH_FILE", BQ_NT_STATUS_NO_SUCH_FILE },
	{ "NT_STATUS_INVALID_DEVICE_REQUEST", 0xC0000010u },
	{ "NT_STATUS_END_OF_FILE", 0xC0000011u },
	{ "NT_STATUS_NO_MEMORY", BQ_NT_STATUS_NO_MEMORY },
	{ "NT_STATUS_ACCESS_DENIED", BQ_NT_STATUS_ACCESS_DENIED },
	{ "NT_STATUS_OBJECT_NAME_INVALID", BQ_NT_STATUS_OBJECT_NAME_INVALID },
	{ "NT_STATUS_OBJECT_NAME_NOT_FOUND", BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND },
	{ "NT_STATUS_OBJECT_NAME_COLLISION", BQ_NT_STATUS_OBJECT_NAME_COLLISION },
	{ "NT_STATUS_OBJECT_PATH_INVALID", 0xC0000039u },
	{ "NT_STATUS_OBJECT_PATH_NOT_FOUND", BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND },
	{ "NT_STATUS_OBJECT_PATH_SYNTAX_BAD", 0xC000003Bu },
	{ "NT_STATUS_SHARING_VIOLATION", BQ_NT_STATUS_SHARING_VIOLATION },
	{ "NT_STATUS_QUOTA_EXCEEDED", BQ_NT_STATUS_QUOTA_EXCEEDED },
	{ "NT_STATUS_FILE_LOCK_CONFLICT", 0xC0000054u },
	{ "NT_STATUS_LOCK_NOT_GRANTED", BQ_NT_STATUS_LOCK_NOT_GRANTED },
	{ "NT_STATUS_DELETE_PENDING", 0xC0000056u },
	{ "NT_STATUS_RANGE_NOT_LOCKED", BQ_NT_STATUS_RANGE_NOT_LOCKED },
	{ "NT_STATUS_DISK_FULL", BQ_NT_STATUS_DISK_FULL },
	{ "NT_STATUS_MEDIA_WRITE_PROTECTED", BQ_NT_STATUS_MEDIA_WRITE_PROTECTED },
	{ "NT_STATUS_FILE_IS_A_DIRECTORY", BQ_NT_STATUS_FILE_IS_A_DIRECTORY },
	{ "NT_STATUS_NOT_SUPPORTED", BQ_NT_STATUS_NOT_SUPPORTED },
	{ "NT_STATUS_NOT_SAME_DEVICE", BQ_NT_STATUS_NOT_SAME_DEVICE },
	{ "NT_STATUS_DIRECTORY_NOT_EMPTY", BQ_NT_STATUS_DIRECTORY_NOT_EMPTY },
	{ "NT_STATUS_NOT_A_DIRECTORY", BQ_NT_STATUS_NOT_A_DIRECTORY },
	{ "NT_STATUS_NAME_TOO_LONG", BQ_NT_STATUS_NAME_TOO_LONG },
	{ "NT_STATUS_TOO_MANY_OPENED_FILES", BQ_NT_STATUS_TOO_MANY_OPENED_FILES },
	{ "NT_STATUS_CANNOT_DELETE", 0xC0000121u },
	{ "NT_STATUS_FILE_CLOSED", 0xC0000128u },
	{ "NT_STATUS_INVALID_LEVEL", 0xC0000148u },
	{ "NT_STATUS_IO_DEVICE_ERROR", BQ_NT_STATUS_IO_DEVICE_ERROR },
	{ "NT_STATUS_TOO_MANY_LINKS", BQ_NT_STATUS_TOO_MANY_LINKS },
};

/*
 * Loadfile name, table name, fields before the status.  The table names
 * are dbench's; Rmdir and Sleep are dbench 4 operations the list
 * leaves out, kept so dbench 4 loadfiles that use them still run.
 */
static const struct {
	const char *op;
	const char *row;
	int nr_args;
	const char *args;
} kinds[] = {
	[BQ_REPLAY_NTCREATEX] = { "NTCreateX", "NTCreateX", 4,
				  "path create_options create_disposition fnum" },
	[BQ_REPLAY_CLOSE] = { "Close", "Close", 1, "fnum" },
	[BQ_REPLAY_RENAME] = { "Rename", "Rename", 2, "old new" },
	[BQ_REPLAY_UNLINK] = { "Unlink", "Unlink", 2, "path attributes" },
	[BQ_REPLAY_DELTREE] = { "Deltree", "Deltree", 1, "path" },
	[BQ_REPLAY_RMDIR] = { "Rmdir", "Rmdir", 1, "path" },
	[BQ_REPLAY_MKDIR] = { "Mkdir", "Mkdir", 1, "path" },
	[BQ_REPLAY_QPATHINFO] = { "QUERY_PATH_INFORMATION", "Qpathinfo", 2, "path level" },
	[BQ_REPLAY_QFILEINFO] = { "QUERY_FILE_INFORMATION", "Qfileinfo", 2, "fnum level" },
	[BQ_REPLAY_QFSINFO] = { "QUERY_FS_INFORMATION", "Qfsinfo", 1, "level" },
	[BQ_REPLAY_SFILEINFO] = { "SET_FILE_INFORMATION", "Sfileinfo", 2, "fnum level" },
	[BQ_REPLAY_FIND] = { "FIND_FIRST", "Find", 4, "pattern level maxcnt count" },
	[BQ_REPLAY_WRITEX] = { "WriteX", "WriteX", 4, "fnum offset size ret" },
	[BQ_REPLAY_READX] = { "ReadX", "ReadX", 4, "fnum offset size ret" },
	[BQ_REPLAY_LOCKX] = { "LockX", "LockX", 3, "fnum offset size" },
	[BQ_REPLAY_UNLOCKX] = { "UnlockX", "UnlockX", 3, "fnum offset size" },
	[BQ_REPLAY_FLUSH] = { "Flush", "Flush", 1, "fnum" },
	[BQ_REPLAY_SLEEP] = { "Sleep", "Sleep", 1, "usec" },
};

const char *bq_replay_kind_name(int kind)
{
	return kind >= 0 && kind <= BQ_REPLAY_SLEEP ? kinds[kind].row : "?";
}

const char *bq_replay_op_name(int kind)
{
	return kind >= 0 && kind <= BQ_REPLAY_SLEEP ? kinds[kind].op : "?";
}

const char *bq_nt_status_name(uint32_t code, char *buf, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(nt_statuses); i++)
		if (nt_statuses[i].code == code)
			return nt_statuses[i].name;
	snprintf(buf, len, "0x%08x", code);
	return buf;
}

uint32_t bq_nt_status_from_errno(int err)
{
	switch (err) {
	case 0:
		return BQ_NT_STATUS_OK;
	case EPERM:
	case EACCES:
		return BQ_NT_STATUS_ACCESS_DENIED;
	case ENOENT:
		return BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND;
	case ENOTDIR:
	case ELOOP:
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	case EEXIST:
		return BQ_NT_STATUS_OBJECT_NAME_COLLISION;
	case ENOTEMPTY:
		return BQ_NT_STATUS_DIRECTORY_NOT_EMPTY;
	case EISDIR:
		return BQ_NT_STATUS_FILE_IS_A_DIRECTORY;
	case ENOSPC:
		return BQ_NT_STATUS_DISK_FULL;
	case EDQUOT:
		return BQ_NT_STATUS_QUOTA_EXCEEDED;
	case EMFILE:
	case ENFILE:
		return BQ_NT_STATUS_TOO_MANY_OPENED_FILES;
	case ENAMETOOLONG:
		return BQ_NT_STATUS_NAME_TOO_LONG;
	case EROFS:
		return BQ_NT_STATUS_MEDIA_WRITE_PROTECTED;
	case EXDEV:
		return BQ_NT_STATUS_NOT_SAME_DEVICE;
	case EBADF:
		return BQ_NT_STATUS_INVALID_HANDLE;
	case EINVAL:
		return BQ_NT_STATUS_INVALID_PARAMETER;
	case ENOMEM:
		return BQ_NT_STATUS_NO_MEMORY;
	case EAGAIN:
		return BQ_NT_STATUS_LOCK_NOT_GRANTED;
	case EBUSY:
	case ETXTBSY:
		return BQ_NT_STATUS_SHARING_VIOLATION;
	case EIO:
		return BQ_NT_STATUS_IO_DEVICE_ERROR;
	case EMLINK:
		return BQ_NT_STATUS_TOO_MANY_LINKS;
	case EOPNOTSUPP:
		return BQ_NT_STATUS_NOT_SUPPORTED;
	default:
		return BQ_NT_STATUS_UNSUCCESSFUL;
	}
}

/* ---- the parser's own state ---------------------------------------------- */

struct tok {
	const char *s;
	size_t len;
};

/* Open addressing; slots hold index + 1, 0 is empty. */
struct table {
	uint32_t *slot;
	size_t mask;
};

struct parser {
	struct bq_loadfile *lf;
	struct bq_parse_error *err;
	const char *file;
	uint32_t line;
	size_t cap_ops;
	size_t cap_paths;
	size_t cap_statuses;
	struct table paths;
	struct table fnums;
	int64_t *fnum_vals;
	size_t cap_fnums;
	char scratch[4096];
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->err)
		return -EINVAL;
	snprintf(p->err->where, sizeof(p->err->where), "%s:%u", p->file, p->line);
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t hash_u64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return v;
}

static int table_init(struct table *t, size_t size)
{
	t->slot = calloc(size, sizeof(*t->slot));
	t->mask = size - 1;
	return t->slot ? 0 : -ENOMEM;
}

/* Double when half full; @hash_of gives the hash of an index. */
static int table_grow(struct table *t, size_t used, const void *ctx,
		      uint64_t (*hash_of)(const void *ctx, uint32_t idx))
{
	struct table n;

	if (used * 2 < t->mask + 1)
		return 0;
	if (table_init(&n, (t->mask + 1) * 2))
		return -ENOMEM;
	for (size_t i = 0; i <= t->mask; i++) {
		uint32_t v = t->slot[i];
		size_t j;

		if (!v)
			continue;
		for (j = hash_of(ctx, v - 1) & n.mask; n.slot[j]; j = (j + 1) & n.mask)
			;
		n.slot[j] = v;
	}
	free(t->slot);
	*t = n;
	return 0;
}

static uint64_t path_hash_of(const void *ctx, uint32_t idx)
{
	const struct bq_loadfile *lf = ctx;

	return hash_bytes(lf->paths[idx].name, lf->paths[idx].len);
}

static uint64_t fnum_hash_of(const void *ctx, uint32_t idx)
{
	const struct parser *p = ctx;

	return hash_u64((uint64_t)p->fnum_vals[idx]);
}

/* ---- fields ----------------------------------------------------------------- */

/* strtoull(s, NULL, 0) on a token that is not NUL-terminated, strictly. */
static bool tok_number(const struct tok *t, uint64_t *val)
{
	const char *s = t->s, *end = t->s + t->len;
	unsigned int base = 10;
	uint64_t v = 0;

	if (s == end)
		return false;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (end - s > 1 && s[0] == '0') {
		base = 8;
		s++;
	}
	for (; s < end; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*val = v;
	return true;
}

static int field_u64(struct parser *p, int kind, const struct tok *t, int field, uint64_t max,
		     uint64_t *val)
{
	if (tok_number(t, val) && *val <= max)
		return 0;
	if (tok_number(t, val))
		return fail(p, "%s: %.*s is too large for field %d (at most %llu)",
			    kinds[kind].op, (int)t->len, t->s, field, (unsigned long long)max);
	return fail(p, "%s: bad number '%.*s' in field %d (%s)", kinds[kind].op,
		    (int)t->len, t->s, field, kinds[kind].args);
}

static int field_u32(struct parser *p, int kind, const struct tok *t, int field, uint32_t *val)
{
	uint64_t v;
	int ret = field_u64(p, kind, t, field, UINT32_MAX, &v);

	*val = (uint32_t)v;
	return ret;
}

static int handle_index(struct parser *p, int kind, const struct tok *t, int field, uint32_t *idx)
{
	struct bq_loadfile *lf = p->lf;
	uint64_t v;
	size_t j;
	int ret;

	ret = field_u64(p, kind, t, field, INT64_MAX, &v);
	if (ret)
		return ret;
	for (j = hash_u64(v) & p->fnums.mask; p->fnums.slot[j]; j = (j + 1) & p->fnums.mask) {
		if ((uint64_t)p->fnum_vals[p->fnums.slot[j] - 1] == v) {
			*idx = p->fnums.slot[j] - 1;
			return 0;
		}
	}
	if (lf->nr_handles == p->cap_fnums) {
		size_t cap = p->cap_fnums ? p->cap_fnums * 2 : 256;
		int64_t *n = realloc(p->fnum_vals, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->fnum_vals = n;
		p->cap_fnums = cap;
	}
	p->fnum_vals[lf->nr_handles] = (int64_t)v;
	p->fnums.slot[j] = lf->nr_handles + 1;
	*idx = lf->nr_handles++;
	return table_grow(&p->fnums, lf->nr_handles, p, fnum_hash_of);
}

/*
 * "\clients\client1\~dmtmp" -> "clients/client1/~dmtmp": slashes turned,
 * the leading one dropped, "." and empty components gone; ".." refused,
 * as it could leave the run's directory.
 */
static int normalize(struct parser *p, const struct tok *t, char *out, size_t size, size_t *len)
{
	size_t o = 0, i = 0;

	while (i < t->len) {
		size_t start, n;

		while (i < t->len && (t->s[i] == '\\' || t->s[i] == '/'))
			i++;
		start = i;
		while (i < t->len && t->s[i] != '\\' && t->s[i] != '/')
			i++;
		n = i - start;
		if (!n || (n == 1 && t->s[start] == '.'))
			continue;
		if (n == 2 && t->s[start] == '.' && t->s[start + 1] == '.')
			return fail(p, "path '%.*s' goes up with '..'", (int)t->len, t->s);
		if (memchr(t->s + start, '\0', n))
			return fail(p, "path has a NUL byte");
		if (o + n + 2 > size)
			return fail(p, "path '%.*s...' is too long", 40, t->s);
		if (o)
			out[o++] = '/';
		memcpy(out + o, t->s + start, n);
		o += n;
	}
	out[o] = '\0';
	*len = o;
	return 0;
}

static int path_index(struct parser *p, const struct tok *t, uint32_t *idx)
{
	struct bq_loadfile *lf = p->lf;
	struct bq_replay_path *bp;
	const char *last;
	size_t len = 0, j;
	uint64_t h;
	int ret;

	ret = normalize(p, t, p->scratch, sizeof(p->scratch), &len);
	if (ret)
		return ret;
	h = hash_bytes(p->scratch, len);
	for (j = h & p->paths.mask; p->paths.slot[j]; j = (j + 1) & p->paths.mask) {
		bp = &lf->paths[p->paths.slot[j] - 1];
		if (bp->len == len && !memcmp(bp->name, p->scratch, len)) {
			*idx = p->paths.slot[j] - 1;
			return 0;
		}
	}
	if (lf->nr_paths == p->cap_paths) {
		size_t cap = p->cap_paths ? p->cap_paths * 2 : 256;
		struct bq_replay_path *n = realloc(lf->paths, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		lf->paths = n;
		p->cap_paths = cap;
	}
	bp = &lf->paths[lf->nr_paths];
	bp->name = strndup(p->scratch, len);
	if (!bp->name)
		return -ENOMEM;
	bp->len = (uint32_t)len;
	bp->client_at = -1;
	/* The first component named client1 is the client's own. */
	for (size_t k = 0; k + CLIENT_NAME_LEN <= len; k++) {
		if ((k == 0 || p->scratch[k - 1] == '/') &&
		    !memcmp(p->scratch + k, CLIENT_NAME, CLIENT_NAME_LEN) &&
		    (k + CLIENT_NAME_LEN == len || p->scratch[k + CLIENT_NAME_LEN] == '/')) {
			bp->client_at = (int32_t)k;
			break;
		}
	}
	last = strrchr(bp->name, '/');
	last = last ? last + 1 : bp->name;
	bp->wildcard = strpbrk(last, "*?<>\"") != NULL;
	p->paths.slot[j] = lf->nr_paths + 1;
	*idx = lf->nr_paths++;
	return table_grow(&p->paths, lf->nr_paths, lf, path_hash_of);
}

static bool is_status(const struct tok *t)
{
	return (t->len > 10 && !memcmp(t->s, "NT_STATUS_", 10)) ||
	       (t->len > 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) ||
	       (t->len == 7 && !memcmp(t->s, "SUCCESS", 7)) ||
	       (t->len == 5 && !memcmp(t->s, "ERROR", 5)) ||
	       (t->len == 1 && t->s[0] == '*');
}

static int status_index(struct parser *p, const struct tok *t, uint16_t *idx)
{
	struct bq_loadfile *lf = p->lf;
	struct bq_replay_status st = { 0 };
	uint64_t code;

	for (uint32_t i = 0; i < lf->nr_statuses; i++) {
		if (strlen(lf->statuses[i].name) == t->len &&
		    !memcmp(lf->statuses[i].name, t->s, t->len)) {
			*idx = (uint16_t)i;
			return 0;
		}
	}
	if (t->len >= sizeof(st.name))
		return fail(p, "status '%.*s' is too long", (int)t->len, t->s);
	memcpy(st.name, t->s, t->len);
	st.expect = BQ_REPLAY_EXPECT_FAILURE;
	if (t->s[0] == '0') {
		if (!tok_number(t, &code) || code > UINT32_MAX)
			return fail(p, "bad status '%.*s'", (int)t->len, t->s);
		st.code = (uint32_t)code;
		st.expect = BQ_REPLAY_EXPECT_CODE;
	} else if (!strcmp(st.name, "SUCCESS")) {
		st.expect = BQ_REPLAY_EXPECT_CODE;
	} else if (!strcmp(st.name, "*")) {
		st.expect = BQ_REPLAY_EXPECT_ANY;
	} else {
		/* Names not known here still mean "it failed". */
		for (size_t i = 0; i < ARRAY_SIZE(nt_statuses); i++) {
			if (!strcmp(st.name, nt_statuses[i].name)) {
				st.code = nt_statuses[i].code;
				st.expect = BQ_REPLAY_EXPECT_CODE;
			}
		}
	}
	if (lf->nr_statuses >= 1024)
		return fail(p, "more than 1024 distinct statuses");
	if (lf->nr_statuses == p->cap_statuses) {
		size_t cap = p->cap_statuses ? p->cap_statuses * 2 : 8;
		struct bq_replay_status *n = realloc(lf->statuses, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		lf->statuses = n;
		p->cap_statuses = cap;
	}
	lf->statuses[lf->nr_statuses] = st;
	*idx = (uint16_t)lf->nr_statuses++;
	return 0;
}

static int kind_of(const struct tok *t)
{
	for (int k = 0; k <= BQ_REPLAY_SLEEP; k++)
		if (strlen(kinds[k].op) == t->len && !strncasecmp(kinds[k].op, t->s, t->len))
			return k;
	return -1;
}

/* Split a line at blanks; a double-quoted field may hold blanks. */
static int tokenize(const char *s, const char *end, struct tok *tok, int max)
{
	int n = 0;

	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s == end)
			break;
		if (n == max)
			return max + 1;
		if (*s == '"') {
			const char *q = memchr(s + 1, '"', (size_t)(end - s - 1));

			if (!q)
				return -1;
			tok[n].s = s + 1;
			tok[n].len = (size_t)(q - s - 1);
			s = q + 1;
		} else {
			tok[n].s = s;
			while (s < end && *s != ' ' && *s != '\t')
				s++;
			tok[n].len = (size_t)(s - tok[n].s);
		}
		n++;
	}
	return n;
}

static int add_time(struct parser *p, const struct tok *t)
{
	struct bq_loadfile *lf = p->lf;
	char num[64];
	char *end;
	double sec;

	if (t->len >= sizeof(num))
		return fail(p, "bad timestamp '%.*s'", (int)t->len, t->s);
	memcpy(num, t->s, t->len);
	num[t->len] = '\0';
	sec = strtod(num, &end);
	if (*end || !(sec >= 0) || sec > 1e9)
		return fail(p, "bad timestamp '%s'", num);
	if (!lf->time_ns) {
		lf->time_ns = calloc(p->cap_ops, sizeof(*lf->time_ns));
		if (!lf->time_ns)
			return -ENOMEM;
	}
	lf->time_ns[lf->nr_ops] = (uint64_t)(sec * 1e9);
	return 0;
}

static int grow_ops(struct parser *p)
{
	struct bq_loadfile *lf = p->lf;
	size_t cap = p->cap_ops * 2;
	struct bq_replay_op *n;

	n = realloc(lf->ops, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	lf->ops = n;
	if (lf->time_ns) {
		uint64_t *t = realloc(lf->time_ns, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		memset(t + p->cap_ops, 0, (cap - p->cap_ops) * sizeof(*t));
		lf->time_ns = t;
	}
	p->cap_ops = cap;
	return 0;
}

static int parse_line(struct parser *p, const char *s, const char *end)
{
	struct bq_loadfile *lf = p->lf;
	struct tok tok[MAX_TOKENS + 1], *arg;
	struct bq_replay_op *op;
	int n, kind, nargs, ret;
	bool timed = false;

	n = tokenize(s, end, tok, MAX_TOKENS);
	if (n < 0)
		return fail(p, "unbalanced '\"'");
	if (n == 0 || tok[0].s[0] == '#')
		return 0;
	if (n > MAX_TOKENS)
		return fail(p, "too many fields");
	if (lf->nr_ops == p->cap_ops) {
		ret = grow_ops(p);
		if (ret)
			return ret;
	}
	if (tok[0].s[0] >= '0' && tok[0].s[0] <= '9') {
		ret = add_time(p, &tok[0]);
		if (ret)
			return ret;
		timed = true;
		if (n == 1)
			return fail(p, "a timestamp and no operation");
	}
	kind = kind_of(&tok[timed]);
	if (kind < 0) {
		const struct tok *t = &tok[timed];

		if ((t->len == 4 && !memcmp(t->s, "LOOP", 4)) ||
		    (t->len == 7 && !memcmp(t->s, "ENDLOOP", 7)) ||
		    (t->len == 6 && !memcmp(t->s, "REPEAT", 6)) ||
		    (t->len == 12 && !memcmp(t->s, "RANDOMSTRING", 12)) ||
		    (t->len == 12 && !memcmp(t->s, "WRITEPATTERN", 12)))
			return fail(p, "unknown operation '%.*s' (a dbench 5 control line, "
				    "not supported)", (int)t->len, t->s);
		return fail(p, "unknown operation '%.*s'", (int)t->len, t->s);
	}
	if (n - timed < 2 || !is_status(&tok[n - 1]))
		return fail(p, "%s: missing status (the last field is NT_STATUS_..., 0x..., "
			    "SUCCESS, ERROR or *)", kinds[kind].op);
	nargs = n - timed - 2;
	if (nargs != kinds[kind].nr_args)
		return fail(p, "%s takes %d field%s before the status (%s), got %d",
			    kinds[kind].op, kinds[kind].nr_args,
			    kinds[kind].nr_args == 1 ? "" : "s", kinds[kind].args, nargs);
	op = &lf->ops[lf->nr_ops];
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->line = p->line;
	op->handle = BQ_REPLAY_NONE;
	op->path = BQ_REPLAY_NONE;
	op->path2 = BQ_REPLAY_NONE;
	ret = status_index(p, &tok[n - 1], &op->status);
	if (ret)
		return ret;
	arg = &tok[timed + 1];

	switch (kind) {
	case BQ_REPLAY_NTCREATEX:
		ret = path_index(p, &arg[0], &op->path);
		ret = ret ?: field_u32(p, kind, &arg[1], 2, &op->a);
		ret = ret ?: field_u32(p, kind, &arg[2], 3, &op->b);
		ret = ret ?: handle_index(p, kind, &arg[3], 4, &op->handle);
		if (!ret && op->b > BQ_NT_FILE_OVERWRITE_IF)
			ret = fail(p, "NTCreateX: create_disposition %u is not 0 to 5", op->b);
		break;
	case BQ_REPLAY_CLOSE:
	case BQ_REPLAY_FLUSH:
		ret = handle_index(p, kind, &arg[0], 1, &op->handle);
		break;
	case BQ_REPLAY_RENAME:
		ret = path_index(p, &arg[0], &op->path);
		ret = ret ?: path_index(p, &arg[1], &op->path2);
		break;
	case BQ_REPLAY_UNLINK:
		ret = path_index(p, &arg[0], &op->path);
		ret = ret ?: field_u32(p, kind, &arg[1], 2, &op->a);
		break;
	case BQ_REPLAY_DELTREE:
		ret = path_index(p, &arg[0], &op->path);
		/* Recursive removal stays inside the client's own subtree. */
		if (!ret && lf->paths[op->path].client_at < 0)
			ret = fail(p, "Deltree '%.*s' is outside the client's own subtree "
				   "(\\clients\\client1\\...)", (int)arg[0].len, arg[0].s);
		break;
	case BQ_REPLAY_RMDIR:
	case BQ_REPLAY_MKDIR:
		ret = path_index(p, &arg[0], &op->path);
		break;
	case BQ_REPLAY_QPATHINFO:
		ret = path_index(p, &arg[0], &op->path);
		ret = ret ?: field_u32(p, kind, &arg[1], 2, &op->a);
		break;
	case BQ_REPLAY_QFILEINFO:
	case BQ_REPLAY_SFILEINFO:
		ret = handle_index(p, kind, &arg[0], 1, &op->handle);
		ret = ret ?: field_u32(p, kind, &arg[1], 2, &op->a);
		break;
	case BQ_REPLAY_QFSINFO:
		ret = field_u32(p, kind, &arg[0], 1, &op->a);
		break;
	case BQ_REPLAY_FIND:
		ret = path_index(p, &arg[0], &op->path);
		ret = ret ?: field_u32(p, kind, &arg[1], 2, &op->a);
		ret = ret ?: field_u32(p, kind, &arg[2], 3, &op->b);
		ret = ret ?: field_u32(p, kind, &arg[3], 4, &op->c);
		break;
	case BQ_REPLAY_WRITEX:
	case BQ_REPLAY_READX:
		ret = handle_index(p, kind, &arg[0], 1, &op->handle);
		ret = ret ?: field_u64(p, kind, &arg[1], 2, INT64_MAX - MAX_IO_SIZE, &op->offset);
		ret = ret ?: field_u64(p, kind, &arg[2], 3, MAX_IO_SIZE, &op->size);
		ret = ret ?: field_u32(p, kind, &arg[3], 4, &op->c);
		if (!ret && op->size > lf->max_io)
			lf->max_io = op->size;
		break;
	case BQ_REPLAY_LOCKX:
	case BQ_REPLAY_UNLOCKX:
		ret = handle_index(p, kind, &arg[0], 1, &op->handle);
		ret = ret ?: field_u64(p, kind, &arg[1], 2, INT64_MAX, &op->offset);
		ret = ret ?: field_u64(p, kind, &arg[2], 3, INT64_MAX, &op->size);
		break;
	case BQ_REPLAY_SLEEP:
		ret = field_u64(p, kind, &arg[0], 1, 60000000, &op->size);
		break;
	}
	if (ret)
		return ret;
	lf->per_kind[kind]++;
	lf->nr_ops++;
	return 0;
}

int bq_loadfile_parse_buf(const char *name, const char *buf, size_t len, struct bq_loadfile *lf,
			  struct bq_parse_error *err)
{
	struct parser *p;
	const char *s = buf, *end = buf + len;
	int ret;

	memset(lf, 0, sizeof(*lf));
	p = calloc(1, sizeof(*p));
	lf->name = strdup(name);
	if (!p || !lf->name) {
		ret = -ENOMEM;
		goto out_free_parser;
	}
	p->lf = lf;
	p->err = err;
	p->file = name;
	/* About 57 bytes a line in client.txt: one allocation for the whole file. */
	p->cap_ops = len / 48 + 16;
	lf->ops = malloc(p->cap_ops * sizeof(*lf->ops));
	ret = lf->ops ? 0 : -ENOMEM;
	ret = ret ?: table_init(&p->paths, 1024);
	ret = ret ?: table_init(&p->fnums, 1024);
	while (!ret && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;

		p->line++;
		if (eol > s && eol[-1] == '\r')
			eol--;
		ret = parse_line(p, s, eol);
		s = nl ? nl + 1 : end;
	}
	if (!ret && !lf->nr_ops) {
		p->line = p->line ? p->line : 1;
		ret = fail(p, "no operations in the loadfile");
	}

	free(p->paths.slot);
	free(p->fnums.slot);
	free(p->fnum_vals);
out_free_parser:
	free(p);
	return ret;
}

int bq_loadfile_parse(const char *path, struct bq_loadfile *lf, struct bq_parse_error *err)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd, ret;

	memset(lf, 0, sizeof(*lf));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bq_fail_at(err, path, -errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		ret = bq_fail_at(err, path, -errno, "cannot stat: %s", strerror(errno));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = bq_fail_at(err, path, -EINVAL, "not a regular file");
		goto out_close;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = bq_fail_at(err, path, -errno, "cannot read: %s", strerror(errno));
			goto out_free_buf;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	ret = bq_loadfile_parse_buf(path, buf, got, lf, err);

out_free_buf:
	free(buf);
out_close:
	close(fd);
	return ret;
}

void bq_loadfile_free(struct bq_loadfile *lf)
{
	for (uint32_t i = 0; i < lf->nr_paths; i++)
		free(lf->paths[i].name);
	free(lf->paths);
	free(lf->ops);
	free(lf->time_ns);
	free(lf->statuses);
	free(lf->name);
	memset(lf, 0, sizeof(*lf));
}
