/* fuzz_sqlfn.c - libFuzzer harness: every SQL function and table-valued function the profq
 * extension registers, called with arbitrary arguments (NULL, integers, reals, text with NULs
 * and invalid UTF-8, blobs), as a scalar, an aggregate over up to 8 rows, or a window function.
 *
 * The list is read from SQLite (pragma_function_list, pragma_module_list, minus what a
 * connection without the extension has), so a new function is fuzzed without editing this file.
 * The database holds PQ_FUZZ_TRACE (a Chrome trace run.sh names) imported by the real importer,
 * or only the empty schema, so the functions that read tables (nvtx_gpu_proj, device peaks) see rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include <unistd.h>

#include "db.h"
#include "import.h"
#include "profq.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FUNCS 256
#define MAX_ARGS 8
#define MAX_ROWS 8

typedef struct target {
	char name[64];
	int narg;      /* -1: any number */
	char type;     /* 's' scalar, 'a' aggregate, 'w' window, 't' table-valued */
} target;

static sqlite3 *db;
static target targets[MAX_FUNCS];
static int ntargets;

/* The input, consumed front to back; reads past its end give zeros. */
typedef struct cursor {
	const uint8_t *p;
	size_t n;
} cursor;

static uint8_t byte(cursor *c)
{
	uint8_t b = 0;

	if (c->n > 0) {
		b = *c->p++;
		c->n--;
	}
	return b;
}

static uint64_t word(cursor *c)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | byte(c);
	return v;
}

/* Names (and argument counts) of what sql lists on a connection; `names` rows are "name/narg/t". */
static int list(sqlite3 *conn, const char *sql, char rows[][80], int max)
{
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK)
		abort();
	while (n < max && sqlite3_step(st) == SQLITE_ROW)
		snprintf(rows[n++], 80, "%s/%d/%s", (const char *)sqlite3_column_text(st, 0),
			 sqlite3_column_int(st, 1), (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	return n;
}

static void collect(void)
{
	static const char fsql[] = "SELECT name, narg, type FROM pragma_function_list ORDER BY 1, 2";
	static const char msql[] = "SELECT name, -1, 't' FROM pragma_module_list ORDER BY 1";
	static char plain[1024][80], with[1024][80];
	sqlite3 *bare;
	int np, nw;

	if (sqlite3_open(":memory:", &bare) != SQLITE_OK)
		abort();
	for (int pass = 0; pass < 2; pass++) {
		const char *sql = pass == 0 ? fsql : msql;

		np = list(bare, sql, plain, 1024);
		nw = list(db, sql, with, 1024);
		for (int i = 0; i < nw && ntargets < MAX_FUNCS; i++) {
			int seen = 0;
			char name[64], type;
			int narg;

			for (int j = 0; j < np && !seen; j++)
				seen = strcmp(plain[j], with[i]) == 0;
			if (seen || sscanf(with[i], "%63[^/]/%d/%c", name, &narg, &type) != 3)
				continue;
			snprintf(targets[ntargets].name, sizeof(targets[0].name), "%s", name);
			targets[ntargets].narg = narg;
			targets[ntargets].type = type;
			ntargets++;
		}
	}
	sqlite3_close(bare);
	if (ntargets == 0)
		abort();
}

/* Stops runaway statements (a recursive CTE handed to interval_join): not a finding. */
static int progress(void *ctx)
{
	(void)ctx;
	return 1;
}

/* A temporary profq file holding the trace, opened read-only (and removed at once). */
static void open_trace(const char *trace)
{
	char path[] = "/tmp/pq_fuzz_sqlfn.XXXXXX";
	pq_import_stats stats;
	pq_store *s;
	pq_error err;
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	close(fd);
	if (pq_store_open(path, -1, &s, &err) != 0 ||
	    pq_import_chrome(s, trace, NULL, &stats, &err) != 0) {
		fprintf(stderr, "fuzz_sqlfn: %s: %s\n", trace, err.msg);
		abort();
	}
	pq_store_close(s);
	if (pq_db_open(path, PQ_OPEN_READ, &db, NULL, &err) != 0)
		abort();
	unlink(path);
}

static void init(void)
{
	const char *trace = getenv("PQ_FUZZ_TRACE");
	pq_error err;

	if (trace != NULL && *trace != '\0')
		open_trace(trace);
	else if (sqlite3_open(":memory:", &db) != SQLITE_OK || pq_db_create_schema(db, &err) != 0)
		abort();
	if (sqlite3_profq_init(db, NULL, NULL) != SQLITE_OK)
		abort();
	sqlite3_progress_handler(db, 2000000, progress, NULL);
	collect();
}

static void bind_value(sqlite3_stmt *st, int i, cursor *c)
{
	static const char *const texts[] = {
		"[1,2,3]", "[[2,3],[3,4]]", "[]", "{}", "same", "valid", "fp16", "bf16", "H100", "A100",
		"mm", "addmm", "conv2d", "_ZN2at6native18elementwise_kernelILi128ELi4EEEviT1_",
		"SELECT id, start_ns, end_ns FROM kernels", "SELECT id, ts_ns FROM marks",
		"overlap", "contains", "point", "[-1, 9223372036854775807]",
	};
	uint8_t t = byte(c);
	size_t len;
	char buf[256];

	switch (t % 8) {
	case 0: sqlite3_bind_null(st, i); break;
	case 1: sqlite3_bind_int64(st, i, (int64_t)word(c)); break;
	case 2: sqlite3_bind_int64(st, i, (int8_t)byte(c)); break;
	case 3: {
		uint64_t bits = word(c);
		double d;

		memcpy(&d, &bits, sizeof(d));
		sqlite3_bind_double(st, i, d);
		break;
	}
	case 4:
		sqlite3_bind_text(st, i, texts[byte(c) % (sizeof(texts) / sizeof(texts[0]))], -1,
				  SQLITE_STATIC);
		break;
	case 5:
	case 6:
		len = byte(c);
		if (len > c->n)
			len = c->n;
		memcpy(buf, c->p, len);
		c->p += len;
		c->n -= len;
		if (t % 8 == 5)
			sqlite3_bind_text(st, i, buf, (int)len, SQLITE_TRANSIENT);
		else
			sqlite3_bind_blob(st, i, buf, (int)len, SQLITE_TRANSIENT);
		break;
	default: sqlite3_bind_double(st, i, (double)(int8_t)byte(c) / 4.0); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cursor c = { data, size };
	const target *t;
	char sql[1024], args[256];
	sqlite3_stmt *st = NULL;
	int nargs, rows = 1, mode, used;

	if (db == NULL)
		init();
	t = &targets[byte(&c) % ntargets];
	mode = byte(&c);
	nargs = t->narg >= 0 ? t->narg : mode % (MAX_ARGS + 1);
	args[0] = '\0';
	used = 0;
	if (t->type == 't' || t->type == 's') {
		for (int a = 0; a < nargs; a++)
			used += snprintf(args + used, sizeof(args) - (size_t)used, "%s?", a ? "," : "");
		if (t->type == 't')
			snprintf(sql, sizeof(sql), "SELECT * FROM %s(%s) LIMIT 1000", t->name, args);
		else
			snprintf(sql, sizeof(sql), "SELECT %s(%s)", t->name, args);
	} else {
		char values[640];
		int vused = 0;

		rows = 1 + (mode >> 4) % MAX_ROWS;
		for (int a = 0; a < nargs; a++)
			used += snprintf(args + used, sizeof(args) - (size_t)used, "%scolumn%d",
					 a ? "," : "", a + 1);
		for (int r = 0; r < rows; r++) {
			vused += snprintf(values + vused, sizeof(values) - (size_t)vused, "%s(",
					  r ? "," : "");
			for (int a = 0; a < (nargs ? nargs : 1); a++)
				vused += snprintf(values + vused, sizeof(values) - (size_t)vused,
						  "%s?", a ? "," : "");
			vused += snprintf(values + vused, sizeof(values) - (size_t)vused, ")");
		}
		if (t->type == 'w' && (mode & 8))
			snprintf(sql, sizeof(sql), "SELECT %s(%s) OVER (ROWS BETWEEN %d PRECEDING AND "
				 "CURRENT ROW) FROM (VALUES %s)", t->name, args, mode & 3, values);
		else
			snprintf(sql, sizeof(sql), "SELECT %s(%s) FROM (VALUES %s)", t->name, args,
				 values);
		if (nargs == 0)
			nargs = 1;  /* the VALUES rows still need one column */
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++)
			bind_value(st, i, &c);
		while (sqlite3_step(st) == SQLITE_ROW)
			for (int col = 0; col < sqlite3_column_count(st); col++)
				(void)sqlite3_column_text(st, col);
	}
	sqlite3_finalize(st);
	return 0;
}
