/* store_group_test.c - rows held by table (pq_store_group_rows) are the rows given, with the ids
 * writing them one by one gives. The reference is the same calls made on a store that writes each
 * row at once; the other expectations are hand-worked. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"
#include "store_files.h"
#include "tap.h"

static unsigned seed;

static unsigned next_random(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

/* One of a few values, NULL among them. */
static int64_t pick_int(void)
{
	static const int64_t v[5] = { PQ_NULL, 0, 7, -3, 1LL << 40 };

	return v[next_random() % 5];
}

static const char *pick_name(void)
{
	static const char *const v[6] = { "gemm", "ac2g", "aten::mm", "cudaLaunchKernel",
					  "a name longer than the forty-eight bytes a column keeps",
					  NULL };

	return v[next_random() % 6];
}

/* An args text in buf, which the caller overwrites after each row: sometimes NULL, sometimes
 * with bytes that are not UTF-8, sometimes longer than a page. */
static const char *make_args(char *buf, size_t size, int i)
{
	unsigned r = next_random() % 8;
	size_t n;

	if (r == 0)
		return NULL;
	n = (size_t)snprintf(buf, size, "{\"i\": %d, \"bad\": \"%s\"}", i, r == 1 ? "\xff\xfe" : "ok");
	if (r == 2) {
		memset(buf + n, 'x', 5000);
		buf[n + 5000] = '\0';
	}
	return buf;
}

/* The same calls on s, from the same seed: 3000 rows given in turn to seven tables, some
 * refused, the id asked for every 97th. Writes each call's outcome (-1 refused, else the id
 * given or 0) into out. toggle: grouping is turned off for rows 1500-1799 (a grouped store). */
static void give_rows(pq_store *s, int64_t *out, int grouped)
{
	enum { ROWS = 3000 };
	char args[6000];
	pq_error err;
	int64_t pid = 0;

	seed = 4242;
	pq_store_group_rows(s, grouped);
	pq_store_process(s, 17, "python", &pid, &err);
	for (int i = 0; i < ROWS; i++) {
		int64_t id = 0, *want = i % 97 == 0 ? &id : NULL;
		int rc = -1;

		if (grouped && (i == 1500 || i == 1800))
			pq_store_group_rows(s, i == 1800);
		switch (next_random() % 7) {
		case 0: {
			pq_kernel k;

			pq_kernel_init(&k);
			k.process_id = next_random() % 2 ? pid : PQ_NULL;
			k.start_ns = next_random() % 23 == 0 ? PQ_NULL : 1000 + i; /* refused */
			k.end_ns = 2000 + i;
			k.grid_x = pick_int();
			k.name = pick_name();
			k.short_name = pick_name();
			k.est_occupancy_pct = next_random() % 3 ? 12.5 * i : 0.0 / 0.0;
			k.args = make_args(args, sizeof(args), i);
			rc = pq_store_kernel(s, &k, want, &err);
			break;
		}
		case 1: {
			pq_api_call a;

			pq_api_call_init(&a);
			a.start_ns = 1000 + i;
			a.end_ns = 1500 + i;
			a.api_kind = PQ_API_RUNTIME;
			a.cbid = pick_int();
			a.name = pick_name(); /* NULL: refused */
			a.correlation_id = pick_int();
			a.args = make_args(args, sizeof(args), i);
			rc = pq_store_api_call(s, &a, want, &err);
			break;
		}
		case 2: {
			pq_range r;

			pq_range_init(&r);
			r.start_ns = 1000 + i;
			r.end_ns = pick_int();
			r.kind = PQ_RANGE_CPU_OP;
			r.name = pick_name();
			r.category = pick_name();
			r.payload.type = next_random() % 2 ? PQ_VALUE_REAL : PQ_VALUE_INT;
			r.payload.i = i;
			r.payload.d = i / 4.0;
			r.args = make_args(args, sizeof(args), i);
			rc = pq_store_range(s, &r, want, &err);
			break;
		}
		case 3: {
			pq_flow f;

			pq_flow_init(&f);
			f.ts_ns = 1000 + i;
			f.flow_key = i / 2;
			f.phase = i % 2 ? "s" : "f";
			f.name = pick_name();
			f.category = pick_name();
			rc = pq_store_flow(s, &f, want, &err);
			break;
		}
		case 4: {
			pq_mark m;

			pq_mark_init(&m);
			m.ts_ns = 1000 + i;
			m.kind = PQ_MARK_INSTANT;
			m.name = pick_name();
			m.scope = next_random() % 2 ? "t" : NULL;
			m.args = make_args(args, sizeof(args), i);
			rc = pq_store_mark(s, &m, want, &err);
			break;
		}
		case 5: {
			pq_memcpy m;

			pq_memcpy_init(&m);
			m.start_ns = 1000 + i;
			m.end_ns = 1100 + i;
			m.bytes = pick_int();
			m.copy_kind = next_random() % 11 == 0 ? PQ_NULL : 1; /* refused */
			m.args = make_args(args, sizeof(args), i);
			rc = pq_store_memcpy(s, &m, want, &err);
			break;
		}
		default: {
			pq_counter c;

			pq_counter_init(&c);
			c.ts_ns = 1000 + i;
			c.name = pick_name();
			c.value = i * 0.5;
			rc = pq_store_counter(s, &c, want, &err);
			break;
		}
		}
		memset(args, '?', sizeof(args)); /* the texts given are the caller's to reuse */
		out[i] = rc != 0 ? -1 : id;
	}
}

static const char *const tables[] = {
	"kernels", "api_calls", "ranges", "flows", "marks", "memcpys", "counters", "strings",
	"run_metadata",
};

/* Rows of table in one file and not in the other, either way (every column, ids included). */
static int64_t differing(const char *a, const char *b, const char *table)
{
	char sql[1024];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int64_t n = -1;

	snprintf(sql, sizeof(sql),
		 "SELECT (SELECT count(*) FROM (SELECT * FROM main.%s EXCEPT SELECT * FROM b.%s)) + "
		 "(SELECT count(*) FROM (SELECT * FROM b.%s EXCEPT SELECT * FROM main.%s))",
		 table, table, table, table);
	if (sqlite3_open_v2(a, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		char *attach = sqlite3_mprintf("ATTACH %Q AS b", b);

		if (sqlite3_exec(db, attach, NULL, NULL, NULL) == SQLITE_OK &&
		    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_free(attach);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* Interleaved rows, held and written a table at a time, are those written one by one. */
static void test_same_rows(void)
{
	static int64_t one[3000], held[3000];
	const char *a = path_in("one_by_one.db"), *b = path_in("grouped.db");
	pq_store *s;
	pq_error err;
	int same_outcomes = 1, refused = 0, asked = 0;
	char sql[128];

	s = open_with_run(a, -1, "one-by-one");
	give_rows(s, one, 0);
	ok(pq_store_finish_run(s, &err) == 0, "one by one: finished");
	pq_store_close(s);
	s = open_with_run(b, -1, "grouped");
	give_rows(s, held, 1);
	ok(pq_store_finish_run(s, &err) == 0, "grouped: finished");
	pq_store_close(s);

	for (int i = 0; i < 3000; i++) {
		same_outcomes &= one[i] == held[i];
		refused += one[i] == -1;
		asked += one[i] > 0;
	}
	ok(same_outcomes && refused > 100 && asked > 20,
	   "every call has the same outcome (%d refused), every id asked for is the same (%d)",
	   refused, asked);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		int64_t n = query_int(a, (snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s",
						   tables[t]), sql));

		ok(n > 0 && differing(a, b, tables[t]) == 0 &&
		   query_int(b, sql) == n, "%s: the same %lld rows, ids and values", tables[t],
		   (long long)n);
	}
	ok(query_int(b, "SELECT count(*) FROM kernels WHERE length(args) > 5000") > 10 &&
	   query_int(b, "SELECT count(*) FROM ranges WHERE args LIKE '%?%'") == 0,
	   "texts are those given, long ones whole, not the caller's buffer reused after");
	ok(query_int(b, "SELECT value FROM run_metadata WHERE key = 'invalid_utf8_replaced'") ==
	   query_int(a, "SELECT value FROM run_metadata WHERE key = 'invalid_utf8_replaced'") &&
	   query_int(b, "SELECT count(*) FROM kernels WHERE args LIKE '%' || char(65533) || '%'") > 0,
	   "invalid UTF-8 is replaced and counted as when written at once");
}

/* A commit, a range's end and closing the store write what is held; aborting forgets it. */
static void test_held_rows_written_or_dropped(void)
{
	const char *path = path_in("points.db");
	pq_store *s;
	pq_error err;
	pq_range r;
	pq_kernel k;
	int rc;

	/* batch_rows 0: committed only when asked */
	s = open_with_run(path, 0, "points");
	pq_store_group_rows(s, 1);
	pq_range_init(&r);
	r.kind = PQ_RANGE_CPU_OP;
	r.name = "op";
	for (int i = 0; i < 5; i++) {
		r.start_ns = 100 * i;
		pq_store_range(s, &r, NULL, &err);
	}
	ok(query_int(path, "SELECT count(*) FROM ranges") == 0, "held ranges are not seen");
	rc = pq_store_range_end(s, 4, 999, PQ_NULL, &err);
	ok(rc == 0, "the end of a held range (id 4) is found: %s", rc ? err.msg : "ok");
	pq_store_commit(s, &err);
	ok(query_int(path, "SELECT count(*) FROM ranges") == 5 &&
	   query_int(path, "SELECT end_ns FROM ranges WHERE id = 4 AND start_ns = 300") == 999,
	   "committed: the five ranges, the fourth ended at 999");
	for (int i = 5; i < 7; i++) {
		r.start_ns = 100 * i;
		pq_store_range(s, &r, NULL, &err);
	}
	pq_store_commit(s, &err);
	ok(query_int(path, "SELECT count(*) FROM ranges") == 7, "a commit writes the held ranges");

	pq_kernel_init(&k);
	k.name = "k";
	k.end_ns = 10;
	for (int i = 0; i < 3; i++) {
		k.start_ns = i;
		pq_store_kernel(s, &k, NULL, &err);
	}
	pq_store_abort_run(s, &err);
	{
		pq_run_info run;
		int64_t run_id = 0;

		pq_run_info_init(&run);
		run.source = "after";
		pq_store_begin_run(s, &run, &run_id, &err);
		k.start_ns = 7;
		pq_store_kernel(s, &k, NULL, &err);
		rc = pq_store_finish_run(s, &err);
		ok(rc == 0 && query_int(path, "SELECT count(*) FROM kernels") == 1 &&
		   query_int(path, "SELECT start_ns FROM kernels WHERE run_id = "
			     "(SELECT max(id) FROM runs)") == 7,
		   "aborted: its held kernels are gone; the next run has its one");
	}
	pq_store_close(s);

	/* closing commits what is held */
	s = open_with_run(path_in("close.db"), 0, "close");
	pq_store_group_rows(s, 1);
	for (int i = 0; i < 3; i++) {
		k.start_ns = i;
		pq_store_kernel(s, &k, NULL, &err);
	}
	pq_store_close(s);
	ok(query_int(path_in("close.db"), "SELECT count(*) FROM kernels") == 3,
	   "closed: the three held kernels are in the file");
}

/* What SQLite refuses in a held row is reported by the call that writes it, and the run is
 * not committed with part of its rows. */
static void test_refused_when_written(void)
{
	const char *path = path_in("refused.db");
	pq_store *s;
	pq_error err;
	pq_flow f;
	int given, rc;

	s = open_with_run(path, -1, "refused");
	pq_store_group_rows(s, 1);
	pq_flow_init(&f);
	f.ts_ns = 1;
	f.flow_key = 1;
	f.phase = "x"; /* the table's CHECK allows s, t and f */
	given = pq_store_flow(s, &f, NULL, &err);
	rc = pq_store_finish_run(s, &err);
	ok(given == 0 && rc != 0 && strstr(err.msg, "CHECK") != NULL,
	   "the flow is taken, its CHECK fails when the run is finished: %s", err.msg);
	pq_store_abort_run(s, &err);
	pq_store_close(s);
	ok(query_int(path, "SELECT count(*) FROM flows") == 0 &&
	   query_int(path, "SELECT count(*) FROM runs") == 0, "nothing of the run is in the file");
}

int main(void)
{
	if (make_dir("profq-store-group") != 0)
		return 1;
	test_same_rows();
	test_held_rows_written_or_dropped();
	test_refused_when_written();
	remove_dir();
	return done_testing();
}
