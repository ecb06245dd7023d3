/* store_test.c - the store writes what it is given, batches commits, and never damages a file
 * that is not a profq database. Expected values are the inputs themselves or hand-worked. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "store.h"
#include "store_files.h"
#include "tap.h"
#include "version.h"

static char *query_text(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void write_file(const char *path, const char *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");

	fwrite(bytes, 1, n, f);
	fclose(f);
}

static char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	*n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

static void test_new_database(void)
{
	const char *path = path_in("new.db");
	pq_store *s;
	pq_error err;

	ok(pq_store_open(path, 0, &s, &err) == 0, "a store opens on a missing file");
	ok(pq_store_created(s), "and says it created the file");
	pq_store_close(s);
	is_int(query_int(path, "PRAGMA application_id"), PQ_APPLICATION_ID,
	       "application_id marks it as profq");
	is_int(query_int(path, "PRAGMA user_version"), PQ_SCHEMA_VERSION, "schema version set");
	is_int(query_int(path, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN "
			       "('runs','kernels','memcpys','memsets','api_calls','ranges','marks',"
			       "'memory_events','counters','synchronizations','flows','strings',"
			       "'processes','threads','devices','streams')"),
	       16, "the event and dimension tables exist");
	is_int(query_int(path, "SELECT count(*) FROM copy_kinds"), 14,
	       "copy kinds follow nsys's 14 values");
	ok(pq_store_open(path, 0, &s, &err) == 0 && !pq_store_created(s),
	   "reopening an existing profq database does not recreate it");
	pq_store_close(s);
}

static void test_rows_round_trip(void)
{
	const char *path = path_in("rows.db");
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_device dev;
	pq_kernel k;
	pq_api_call a;
	pq_range r;
	pq_memcpy m;
	pq_counter c;
	int64_t run_id, proc, thread, device, stream, api_id, name1, name2;
	char *text;

	pq_store_open(path, 0, &s, &err);
	pq_run_info_init(&run);
	run.source = "test";
	run.source_path = "store_test";
	ok(pq_store_begin_run(s, &run, &run_id, &err) == 0, "begin a run");
	is_int(run_id, 1, "first run is run 1");
	is_int(query_int(path, "SELECT count(*) FROM runs WHERE status = 'open'"), 1,
	       "a begun run is visible to other readers at once");

	ok(pq_store_process(s, 100, "python", &proc, &err) == 0, "add a process");
	ok(pq_store_thread(s, 100, 101, "main", &thread, &err) == 0, "add a thread");
	pq_device_init(&dev);
	dev.ordinal = 0;
	dev.name = "NVIDIA A100-SXM4-40GB";
	dev.sm_count = 108;
	dev.compute_major = 8;
	dev.compute_minor = 0;
	ok(pq_store_device(s, &dev, &device, &err) == 0, "add a device");
	ok(pq_store_stream(s, proc, device, 7, &stream, &err) == 0, "add a stream");

	pq_api_call_init(&a);
	a.process_id = proc;
	a.thread_id = thread;
	a.start_ns = 1000;
	a.end_ns = 1500;
	a.api_kind = PQ_API_RUNTIME;
	a.name = "cudaLaunchKernel";
	a.correlation_id = 42;
	ok(pq_store_api_call(s, &a, &api_id, &err) == 0, "store an API call");

	pq_kernel_init(&k);
	k.process_id = proc;
	k.device_id = device;
	k.stream_id = stream;
	k.start_ns = 2000;
	k.end_ns = 2750;
	k.correlation_id = 42;
	k.name = "_Z6kernelv";
	k.demangled_name = "kernel()";
	k.grid_x = 80;
	k.block_x = 256;
	k.est_occupancy_pct = 62.5;
	ok(pq_store_kernel(s, &k, NULL, &err) == 0, "store a kernel");

	pq_range_init(&r);
	r.process_id = proc;
	r.thread_id = thread;
	r.start_ns = 900;
	r.end_ns = 3000;
	r.kind = PQ_RANGE_NVTX_PUSH_POP;
	r.name = "step 1";
	r.payload.type = PQ_VALUE_REAL;
	r.payload.d = 0.25;
	ok(pq_store_range(s, &r, NULL, &err) == 0, "store a range");

	pq_memcpy_init(&m);
	m.device_id = device;
	m.start_ns = 500;
	m.end_ns = 800;
	m.bytes = 4096;
	m.copy_kind = 1;
	ok(pq_store_memcpy(s, &m, NULL, &err) == 0, "store a memcpy");

	pq_counter_init(&c);
	c.name = "gpu_mem";
	c.ts_ns = 3100;
	c.value = 1.5;
	ok(pq_store_counter(s, &c, NULL, &err) == 0, "store a counter");
	ok(pq_store_finish_run(s, &err) == 0, "finish the run");
	pq_store_close(s);

	is_int(query_int(path, "SELECT start_ns FROM runs"), 500,
	       "run span starts at the earliest event (the memcpy)");
	is_int(query_int(path, "SELECT end_ns FROM runs"), 3100,
	       "run span ends at the latest event (the counter)");
	text = query_text(path, "SELECT status FROM runs");
	is_str(text, "complete", "finished run is complete");
	free(text);
	text = query_text(path, "SELECT name || '|' || demangled_name || '|' || duration_ns || '|' "
				"|| device || '|' || stream || '|' || pid FROM v_kernels");
	is_str(text, "_Z6kernelv|kernel()|750|0|7|100", "v_kernels joins names and dimensions back");
	free(text);
	is_int(query_int(path, "SELECT grid_y IS NULL AND registers_per_thread IS NULL FROM kernels"),
	       1, "unset kernel fields are NULL");
	is_int(query_int(path, "SELECT est_occupancy_pct * 10 FROM kernels"), 625,
	       "real fields keep their value");
	is_int(query_int(path, "SELECT count(*) FROM kernels k JOIN api_calls a USING "
			       "(process_id, correlation_id) WHERE a.name_id = "
			       "(SELECT id FROM strings WHERE value = 'cudaLaunchKernel')"),
	       1, "kernel joins its launching call on (process_id, correlation_id)");
	text = query_text(path, "SELECT kind || '|' || name || '|' || thread_name || '|' || "
				"typeof(payload) FROM v_ranges");
	is_str(text, "nvtx_push_pop|step 1|main|real", "v_ranges: kind, name, thread, payload");
	free(text);
	text = query_text(path, "SELECT operation FROM v_memcpys");
	is_str(text, "[CUDA memcpy Host-to-Device]", "memcpy operation label as nsys prints it");
	free(text);
	text = query_text(path, "SELECT name || '|' || sm_count FROM devices");
	is_str(text, "NVIDIA A100-SXM4-40GB|108", "device properties stored");
	free(text);

	/* A second run in the same file reuses the interned names. */
	pq_store_open(path, 0, &s, &err);
	pq_store_begin_run(s, &run, &run_id, &err);
	is_int(run_id, 2, "writing into an existing database adds run 2");
	pq_store_intern(s, "cudaLaunchKernel", &name1, &err);
	pq_store_intern(s, "cudaLaunchKernel", &name2, &err);
	is_int(name1, query_int(path, "SELECT name_id FROM api_calls"),
	       "interning finds the string stored by the earlier run");
	is_int(name1, name2, "interning the same text twice gives one id");
	pq_store_finish_run(s, &err);
	pq_store_close(s);
	is_int(query_int(path, "SELECT count(*) FROM strings WHERE value = 'cudaLaunchKernel'"), 1,
	       "the string is stored once");
}

static void test_required_fields(void)
{
	const char *path = path_in("required.db");
	pq_store *s;
	pq_error err = { "" };
	pq_kernel k;

	s = open_with_run(path, 0, "test");
	pq_kernel_init(&k);
	k.start_ns = 1;
	k.end_ns = 2;
	ok(pq_store_kernel(s, &k, NULL, &err) != 0, "a kernel without a name is refused");
	is_str(err.msg, "kernels row without name_id", "the message names table and column");
	k.name = "k";
	k.start_ns = PQ_NULL;
	ok(pq_store_kernel(s, &k, NULL, &err) != 0, "a kernel without a start is refused");
	pq_store_finish_run(s, &err);
	pq_store_close(s);
	is_int(query_int(path, "SELECT count(*) FROM kernels"), 0, "no row was written");
}

static void test_batching(void)
{
	const char *path = path_in("batch.db");
	pq_store *s;
	pq_error err;
	pq_mark m;
	char *mode;

	s = open_with_run(path, 3, "test");
	pq_mark_init(&m);
	m.kind = PQ_MARK_NVTX;
	m.name = "tick";
	for (int i = 0; i < 2; i++) {
		m.ts_ns = i;
		pq_store_mark(s, &m, NULL, &err);
	}
	is_int(query_int(path, "SELECT count(*) FROM marks"), 0,
	       "two rows under a batch of three are not yet visible to readers");
	m.ts_ns = 2;
	pq_store_mark(s, &m, NULL, &err);
	is_int(query_int(path, "SELECT count(*) FROM marks"), 3, "the third row commits the batch");
	m.ts_ns = 3;
	pq_store_mark(s, &m, NULL, &err);
	ok(pq_store_commit(s, &err) == 0, "an explicit commit");
	is_int(query_int(path, "SELECT count(*) FROM marks"), 4, "makes the fourth row visible");
	mode = query_text(path, "PRAGMA journal_mode");
	is_str(mode, "wal", "the store writes in WAL mode");
	free(mode);
	pq_store_close(s);
}

static void test_abort(void)
{
	const char *path = path_in("abort.db");
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_mark m;
	int64_t proc;

	s = open_with_run(path, 2, "kept");
	pq_mark_init(&m);
	m.kind = PQ_MARK_NVTX;
	m.name = "kept";
	m.ts_ns = 1;
	pq_store_mark(s, &m, NULL, &err);
	pq_store_finish_run(s, &err);

	pq_run_info_init(&run);
	run.source = "thrown away";
	pq_store_begin_run(s, &run, NULL, &err);
	pq_store_process(s, 7, "doomed", &proc, &err);
	m.name = "doomed";
	for (int i = 0; i < 5; i++) /* batch of 2: some rows are committed before the abort */
		pq_store_mark(s, &m, NULL, &err);
	ok(pq_store_abort_run(s, &err) == 0, "abort a run with committed and pending rows");
	pq_store_close(s);
	is_int(query_int(path, "SELECT count(*) FROM runs"), 1, "the aborted run is gone");
	is_int(query_int(path, "SELECT count(*) FROM marks"), 1, "its rows are gone");
	is_int(query_int(path, "SELECT count(*) FROM processes"), 0, "its processes are gone");
	is_int(query_int(path, "SELECT count(*) FROM marks m JOIN runs r ON r.id = m.run_id "
			       "WHERE r.source = 'kept'"),
	       1, "the other run is untouched");
}

/* Rows written one after another keep each one's own values (the store binds only what changed
 * since the previous row, and forgets after a failed row); a kernel's name ids handed over are
 * used as given; a buffer reused for another text interns the new text; an abort changes the
 * strings epoch. */
static void test_bindings_and_names(void)
{
	const char *path = path_in("bind.db");
	char buf[32] = "first text", *got;
	int64_t a, b, c, x, y;
	uint64_t epoch;
	pq_store *s;
	pq_error err;
	pq_kernel k;

	s = open_with_run(path, 0, "bind");
	ok(pq_store_intern(s, buf, &x, &err) == 0, "intern a buffer's text");
	strcpy(buf, "other text");
	ok(pq_store_intern(s, buf, &y, &err) == 0 && y != x, "the same buffer, new text: a new id");
	strcpy(buf, "first text");
	ok(pq_store_intern(s, buf, &y, &err) == 0 && y == x, "and the first text its first id");
	pq_store_intern(s, "gemm named by id", &a, &err);

	pq_kernel_init(&k);
	k.start_ns = 10, k.end_ns = 20, k.grid_x = 128, k.name = "ignored", k.name_id = a;
	pq_store_kernel(s, &k, NULL, &err);
	pq_kernel_init(&k);
	k.start_ns = 30, k.end_ns = 40, k.registers_per_thread = 32, k.name = "by text";
	pq_store_kernel(s, &k, NULL, &err);
	pq_kernel_init(&k);
	k.end_ns = 60, k.grid_x = 7, k.name = "no start"; /* end_ns as the next row's */
	ok(pq_store_kernel(s, &k, NULL, &err) != 0, "a kernel without a start fails");
	pq_kernel_init(&k);
	k.start_ns = 50, k.end_ns = 60, k.grid_x = 128, k.name = "by text";
	pq_store_kernel(s, &k, NULL, &err);
	epoch = pq_store_strings_epoch(s);
	pq_store_commit(s, &err);
	got = query_text(path, "SELECT group_concat(start_ns || '-' || end_ns || ':' || "
			       "coalesce(grid_x, '-') || ':' || "
			       "coalesce(registers_per_thread, '-') || ':' || n.value, ' ') FROM (SELECT "
			       "* FROM kernels ORDER BY start_ns) k JOIN strings n ON n.id = k.name_id");
	is_str(got, "10-20:128:-:gemm named by id 30-40:-:32:by text 50-60:128:-:by text",
	       "each row keeps its own values and names");
	free(got);
	is_int(query_int(path, "SELECT count(*) FROM strings WHERE value IN ('ignored', 'no start')"),
	       0, "a name handed over by id is not interned from the text");
	b = query_int(path, "SELECT count(*) FROM kernels");
	pq_store_abort_run(s, &err);
	c = (int64_t)(pq_store_strings_epoch(s) - epoch);
	is_int(b * 10 + c, 31, "three kernels were written; the abort changed the strings epoch");
	pq_store_close(s);
}

/* Writes a flow named name, of category cat, each copied into a buffer of its own first (the
 * store must compare texts, not pointers). */
static void flow_named(pq_store *s, int64_t ts, const char *name, const char *cat)
{
	static char nbuf[128], cbuf[128];
	pq_error err;
	pq_flow f;

	snprintf(nbuf, sizeof(nbuf), "%s", name);
	snprintf(cbuf, sizeof(cbuf), "%s", cat);
	pq_flow_init(&f);
	f.ts_ns = ts, f.flow_key = ts, f.phase = "s", f.name = nbuf, f.category = cbuf;
	pq_store_flow(s, &f, NULL, &err);
}

/* A name column remembers its last text and id (store.c, last_name): rows that repeat it, change
 * it, come back to it, or carry texts too long to remember, each read back with its own name;
 * after an abort has rolled the strings back, a remembered id is not used again. */
static void test_name_columns_last_text(void)
{
	const char *path = path_in("names.db");
	char long47[48], long47b[48], long48[49], long48b[49];
	const char *names[11];
	char expect[1024] = "", *got;
	pq_store *s;
	pq_error err;

	memset(long47, 'a', 47), long47[47] = '\0';
	memset(long48, 'b', 48), long48[48] = '\0';
	memcpy(long47b, long47, sizeof(long47)), long47b[46] = 'c';
	memcpy(long48b, long48, sizeof(long48)), long48b[47] = 'c';
	names[0] = "ac2g", names[1] = "ac2g", names[2] = "fwdbwd", names[3] = "ac2g";
	names[4] = "aten::add", names[5] = "aten::addmm", names[6] = long47, names[7] = long47;
	names[8] = long47b, names[9] = long48, names[10] = long48b;
	s = open_with_run(path, 0, "names");
	for (int i = 0; i < 11; i++) {
		flow_named(s, i + 1, names[i], i % 3 == 0 ? "cpu_op" : "ac2g");
		snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect), "%s%s/%s",
			 i ? " " : "", names[i], i % 3 == 0 ? "cpu_op" : "ac2g");
	}
	pq_store_commit(s, &err);
	got = query_text(path, "SELECT group_concat(n.value || '/' || c.value, ' ') FROM (SELECT * "
			       "FROM flows ORDER BY ts_ns) f JOIN strings n ON n.id = f.name_id "
			       "JOIN strings c ON c.id = f.category_id");
	is_str(got, expect, "each flow keeps its own name and category, however they repeat");
	free(got);
	is_int(query_int(path, "SELECT count(*) FROM strings WHERE value IN ('ac2g', 'cpu_op', "
			       "'fwdbwd')"), 3, "each text interned once");

	/* A new run whose first rows are an aborted run's: their strings went with the abort. */
	pq_store_close(s);
	s = open_with_run(path, 0, "aborted");
	flow_named(s, 100, "only in the aborted run", "aborted category");
	pq_store_abort_run(s, &err);
	{
		pq_run_info run;

		pq_run_info_init(&run);
		run.source = "after";
		pq_store_begin_run(s, &run, NULL, &err);
	}
	flow_named(s, 200, "only in the aborted run", "aborted category");
	pq_store_finish_run(s, &err);
	got = query_text(path, "SELECT n.value || '/' || c.value FROM flows f JOIN strings n ON "
			       "n.id = f.name_id JOIN strings c ON c.id = f.category_id WHERE ts_ns = 200");
	is_str(got, "only in the aborted run/aborted category",
	       "after an abort the texts are interned again, not taken from the last row's ids");
	free(got);
	pq_store_close(s);
}

/* Many rows whose integer columns change, repeat and turn NULL at random, with a failing row
 * (no start) now and then: each row written reads back with its own values. The expected rows are
 * the test's own record of what it handed over, not anything the store computed. */
static void test_bindings_random(void)
{
	enum { ROWS = 2000 };
	static const int64_t pick[4] = { PQ_NULL, 0, 7, 1LL << 40 };
	const char *path = path_in("bind_random.db");
	int64_t want[ROWS][3];
	sqlite3_stmt *st;
	sqlite3 *db;
	pq_store *s;
	pq_error err;
	pq_kernel k;
	int written = 0, failed = 0, same = 1;
	unsigned seed = 12345;

	s = open_with_run(path, 0, "bind-random");
	for (int i = 0; i < ROWS; i++) {
		pq_kernel_init(&k);
		k.name = "k";
		seed = seed * 1103515245u + 12345u;
		k.start_ns = (seed >> 8) % 13 == 0 ? PQ_NULL : 1000 + i; /* 1 in 13 fails */
		k.end_ns = 5000 + i;
		k.grid_x = pick[(seed >> 12) & 3];
		k.registers_per_thread = pick[(seed >> 16) & 3];
		k.stream_id = (seed >> 20) % 3 == 0 ? PQ_NULL : 9;
		if (pq_store_kernel(s, &k, NULL, &err) != 0) {
			failed++;
			continue;
		}
		want[written][0] = k.grid_x;
		want[written][1] = k.registers_per_thread;
		want[written][2] = k.stream_id;
		written++;
	}
	pq_store_commit(s, &err);
	pq_store_close(s);
	ok(failed > 50 && written > 1500, "random rows: %d written, %d refused", written, failed);
	sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	sqlite3_prepare_v2(db, "SELECT coalesce(grid_x, ?1), coalesce(registers_per_thread, ?1), "
			   "coalesce(stream_id, ?1) FROM kernels ORDER BY start_ns", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, PQ_NULL);
	for (int i = 0; i < written; i++) {
		if (sqlite3_step(st) != SQLITE_ROW) {
			same = 0;
			break;
		}
		for (int c = 0; c < 3; c++)
			same &= sqlite3_column_int64(st, c) == want[i][c];
	}
	same &= sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	sqlite3_close(db);
	ok(same, "each reads back with its own grid_x, registers and stream (NULL where none)");
}

#define EVENT_INDEXES "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name IN " \
	"('kernels', 'memcpys', 'memsets', 'api_calls', 'ranges', 'marks', 'memory_events', " \
	"'counters', 'synchronizations', 'flows')"

static void add_marks(pq_store *s, int n)
{
	pq_error err;
	pq_mark m;

	pq_mark_init(&m);
	m.kind = PQ_MARK_NVTX;
	m.name = "bulk";
	for (int i = 0; i < n; i++) {
		m.ts_ns = 100 + i;
		pq_store_mark(s, &m, NULL, &err);
	}
}

/* A bulk run is written without the event indexes and finishes with all of them rebuilt and
 * consistent; a file already larger than the run keeps them; an aborted one-transaction run
 * restores them with its rollback. */
static void test_deferred_indexes(void)
{
	const char *path = path_in("bulk.db");
	int64_t all, dims;
	char *check;
	pq_store *s;
	pq_error err;
	pq_run_info run;
	sqlite3 *db = NULL;

	pq_store_open(path, 0, &s, &err);
	all = query_int(path, EVENT_INDEXES);
	dims = query_int(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index'") - all;
	ok(all >= 20, "a new file has the event indexes (%" PRId64 ")", all);
	pq_run_info_init(&run);
	run.source = "bulk";
	pq_store_expect_rows(s, 1000);
	ok(pq_store_begin_run(s, &run, NULL, &err) == 0, "begin a bulk run");
	is_int(query_int(path, EVENT_INDEXES), 0, "a reader sees no event index during the run");
	is_int(query_int(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index'"), dims,
	       "the dimension tables keep theirs");
	sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	is_int(pq_db_missing_event_indexes(db), all, "pq_db_missing_event_indexes counts them all");
	add_marks(s, 3);
	ok(pq_store_finish_run(s, &err) == 0, "finish the bulk run");
	is_int(query_int(path, EVENT_INDEXES), all, "finishing builds every event index again");
	is_int(pq_db_missing_event_indexes(db), 0, "none is missing");
	check = query_text(path, "PRAGMA integrity_check");
	is_str(check, "ok", "the indexes match the rows");
	free(check);
	is_int(query_int(path, "SELECT count(*) FROM marks INDEXED BY marks_run_time "
			       "WHERE run_id = 1 AND ts_ns >= 101"), 2, "and are used");

	pq_store_expect_rows(s, 2); /* the file holds 3 event rows: more than this run expects */
	pq_store_begin_run(s, &run, NULL, &err);
	is_int(query_int(path, EVENT_INDEXES), all, "a file larger than the run keeps its indexes");
	pq_store_finish_run(s, &err);
	pq_store_close(s);

	pq_store_open(path, -1, &s, &err);
	pq_store_expect_rows(s, 1000);
	pq_store_begin_run(s, &run, NULL, &err);
	add_marks(s, 2);
	ok(pq_store_abort_run(s, &err) == 0, "abort a one-transaction bulk run");
	pq_store_close(s);
	is_int(query_int(path, EVENT_INDEXES), all, "the rollback restores the indexes");
	is_int(query_int(path, "SELECT count(*) FROM runs"), 2, "and drops the run");

	pq_store_open(path, 0, &s, &err);
	ok(pq_store_defer_indexes(s, &err) == 0 && pq_db_missing_event_indexes(db) == all,
	   "pq_store_defer_indexes drops them at once");
	ok(pq_store_build_indexes(s, &err) == 0 && pq_db_missing_event_indexes(db) == 0,
	   "pq_store_build_indexes builds them at once");
	ok(pq_store_build_indexes(s, &err) == 0, "building again is harmless");
	pq_store_close(s);
	sqlite3_close(db);
}

/* A bulk run whose rows fill no partial index keeps those (the *_external ones) while its rows are
 * written without the others; a row that has an external id all the same is in its index then;
 * the next run drops them all again. */
static void test_partial_indexes_kept(void)
{
	const char *path = path_in("partial.db");
	const char *partial = EVENT_INDEXES " AND sql LIKE '% WHERE %'";
	int64_t all, partials;
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_range r;

	pq_store_open(path, 0, &s, &err);
	all = query_int(path, EVENT_INDEXES);
	partials = query_int(path, partial);
	ok(partials >= 3 && partials < all, "the schema has partial event indexes (%" PRId64 ")",
	   partials);
	pq_run_info_init(&run);
	run.source = "bulk";
	pq_store_expect_rows(s, 1000);
	pq_store_rows_fill_no_partial_index(s);
	ok(pq_store_begin_run(s, &run, NULL, &err) == 0, "begin a bulk run that keeps them");
	is_int(query_int(path, EVENT_INDEXES), partials, "during the run only they are there");
	is_int(query_int(path, partial), partials, "every one of them");
	pq_range_init(&r);
	r.kind = PQ_RANGE_NVTX_PUSH_POP;
	r.name = "r";
	for (int i = 0; i < 5; i++) {
		r.start_ns = 10 * i;
		r.end_ns = 10 * i + 5;
		r.external_id = i == 3 ? 77 : PQ_NULL;
		pq_store_range(s, &r, NULL, &err);
	}
	ok(pq_store_finish_run(s, &err) == 0, "finish it");
	is_int(query_int(path, EVENT_INDEXES), all, "then every index is there");
	is_int(query_int(path, "SELECT count(*) FROM ranges INDEXED BY ranges_external "
			       "WHERE external_id = 77"), 1, "the one range with an external id is in it");
	is_int(query_int(path, "SELECT count(*) FROM ranges INDEXED BY ranges_external "
			       "WHERE external_id IS NOT NULL"), 1, "and no other");
	pq_store_expect_rows(s, 1000);
	pq_store_begin_run(s, &run, NULL, &err);
	is_int(query_int(path, EVENT_INDEXES), 0, "the next bulk run drops them all");
	pq_store_finish_run(s, &err);
	pq_store_close(s);
}

/* An index of a large table (here: 100,000 rows or more) whose sort is larger than the sorter's
 * budget while indexes are built (4 MiB) is sorted in runs and merged: the index holds every row
 * in order, and the connection's cache_size is what it was before. */
static void test_indexes_sorted_in_runs(void)
{
	const char *path = path_in("runs.db");
	enum { N = 300000, LO = 1000000, HI = 2000000 };
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	pq_error err;
	int64_t in_window = 0, prev = -1, seen = 0, sorted = 1;
	uint64_t x = 88172645463325252ull;

	ok(pq_db_open(path, PQ_OPEN_CREATE, &db, NULL, &err) == 0, "open a new file");
	sqlite3_exec(db, "PRAGMA cache_size = -12345; BEGIN; "
		     "INSERT INTO runs (id, source) VALUES (1, 'runs'); "
		     "INSERT INTO strings (id, value) VALUES (1, 'm')", NULL, NULL, NULL);
	ok(pq_db_drop_event_indexes(db, 0, &err) == 0, "drop the event indexes");
	sqlite3_prepare_v2(db, "INSERT INTO marks (run_id, ts_ns, kind, name_id) VALUES (1, ?1, 1, 1)",
			   -1, &st, NULL);
	for (int i = 0; i < N; i++) { /* xorshift64: times in no order */
		int64_t ts;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ts = (int64_t)(x % 10000000);
		in_window += ts >= LO && ts < HI;
		sqlite3_bind_int64(st, 1, ts);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	setenv("PROFQ_SORT_ROWS", "100000", 1);
	ok(pq_db_build_event_indexes(db, NULL, &err) == 0, "build them over %d rows in no order", N);
	unsetenv("PROFQ_SORT_ROWS");
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "PRAGMA cache_size", -1, &st, NULL);
	is_int(sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1, -12345,
	       "cache_size is set back");
	sqlite3_finalize(st);
	sqlite3_prepare_v2(db, "SELECT ts_ns FROM marks INDEXED BY marks_run_time WHERE run_id = 1 "
			   "ORDER BY run_id, ts_ns", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t ts = sqlite3_column_int64(st, 0);

		sorted &= ts >= prev;
		prev = ts;
		seen++;
	}
	sqlite3_finalize(st);
	ok(sorted && seen == N, "the index gives all %d rows in time order (%" PRId64 ")", N, seen);
	is_int(query_int(path, "SELECT count(*) FROM marks INDEXED BY marks_run_time WHERE run_id = 1 "
			       "AND ts_ns >= 1000000 AND ts_ns < 2000000"), in_window,
	       "a window read by the index has the rows written in it");
	{
		char *check = query_text(path, "PRAGMA integrity_check");

		is_str(check, "ok", "the indexes match the rows");
		free(check);
	}
	sqlite3_close(db);
}

/* Begins run in a one-transaction store on path and aborts it: pq_store_abort_run's result. An
 * older file must come out of it as it went in. */
static int abort_one_run(const char *path, const pq_run_info *run)
{
	pq_store *s;
	pq_error err;
	int rc;

	pq_store_open(path, -1, &s, &err);
	pq_store_begin_run(s, run, NULL, &err);
	rc = pq_store_abort_run(s, &err);
	pq_store_close(s);
	return rc;
}

/* A file written before cuda_names existed (same schema version) gets the table with its next run,
 * inside that run's transaction. */
static void test_added_tables(void)
{
	const char *path = path_in("older.db");
	const char *has = "SELECT count(*) FROM sqlite_master WHERE name = 'cuda_names'";
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_cuda_name n;
	sqlite3 *db;

	pq_store_open(path, 0, &s, &err);
	pq_store_close(s);
	sqlite3_open(path, &db);
	sqlite3_exec(db, "DROP TABLE cuda_names", NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(query_int(path, has), 0, "a file without cuda_names, as written before it existed");

	pq_run_info_init(&run);
	run.source = "older";
	ok(abort_one_run(path, &run) == 0, "a one-transaction run in it aborts cleanly");
	is_int(query_int(path, has), 0, "and adds nothing");

	pq_store_open(path, 0, &s, &err);
	ok(pq_store_begin_run(s, &run, NULL, &err) == 0, "a run begins in the older file");
	is_int(query_int(path, has), 1, "and the file has cuda_names now");
	pq_cuda_name_init(&n);
	n.ts_ns = 5;
	n.resource = "stream";
	n.api = "runtime";
	n.handle = 42;
	n.name = "copy stream";
	ok(pq_store_cuda_name(s, &n, NULL, &err) == 0, "a CUDA name is stored in it");
	pq_store_finish_run(s, &err);
	pq_store_close(s);
	is_int(query_int(path, "SELECT handle FROM cuda_names"), 42, "and reads back");
}

/* A file written while the schema still had the per-thread and per-device indexes (docs/schema.md,
 * Indexes) loses them with its next run, inside that run's transaction; its rows stay, and no
 * index of this schema goes missing. */
static void test_retired_indexes(void)
{
	const char *path = path_in("retired.db");
	const char *retired = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
			      "('kernels_device_time', 'api_calls_thread_time', 'ranges_thread_time')";
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_range r;
	sqlite3 *db;

	pq_run_info_init(&run);
	run.source = "older";
	pq_store_open(path, 0, &s, &err);
	pq_store_begin_run(s, &run, NULL, &err);
	pq_range_init(&r);
	r.start_ns = 10;
	r.end_ns = 20;
	r.kind = PQ_RANGE_NVTX_PUSH_POP;
	r.name = "kept";
	ok(pq_store_range(s, &r, NULL, &err) == 0 && pq_store_finish_run(s, &err) == 0,
	   "a run with a range");
	pq_store_close(s);
	sqlite3_open(path, &db);
	sqlite3_exec(db, "CREATE INDEX kernels_device_time ON kernels (device_id, start_ns);"
		     "CREATE INDEX api_calls_thread_time ON api_calls (thread_id, start_ns);"
		     "CREATE INDEX ranges_thread_time ON ranges (thread_id, start_ns)",
		     NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(query_int(path, retired), 3, "a file with the three retired indexes, as written before");

	ok(abort_one_run(path, &run) == 0, "a one-transaction run in it aborts cleanly");
	is_int(query_int(path, retired), 3, "and drops nothing");

	pq_store_open(path, 0, &s, &err);
	ok(pq_store_begin_run(s, &run, NULL, &err) == 0, "a run begins in the older file");
	is_int(query_int(path, retired), 0, "and the retired indexes are gone");
	ok(pq_store_finish_run(s, &err) == 0, "the run finishes");
	pq_store_close(s);
	sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	is_int(pq_db_missing_event_indexes(db), 0, "with every index of the schema there");
	sqlite3_close(db);
	is_int(query_int(path, "SELECT count(*) FROM ranges WHERE start_ns = 10 AND end_ns = 20"), 1,
	       "the first run's range is still there");
}

/* Two connections (as two recorded processes) write into one run; ranges open and close later. */
/* A run written in one transaction (batch_rows < 0, as profq import) gets its span from the rows
 * the store saw; one written in batches, from SQL over the tables. Both must be the first start and
 * the last end (an open range counts its start) over the event tables, flows and CUDA names not
 * included, and a row that failed to insert not at all. */
static void test_span_from_rows(void)
{
	static const int64_t batches[] = { -1, 0 };

	for (size_t b = 0; b < 2; b++) {
		char name[32];
		const char *path;
		pq_store *s;
		pq_error err;
		pq_kernel k;
		pq_range r;
		pq_mark m;
		pq_memory_event e;
		pq_sync y;
		pq_flow f;

		snprintf(name, sizeof(name), "span%zu.db", b);
		path = path_in(name);
		s = open_with_run(path, batches[b], "span");
		pq_flow_init(&f);
		f.ts_ns = 10;
		f.phase = "s";
		f.flow_key = 1;
		ok(pq_store_flow(s, &f, NULL, &err) == 0, "batch %lld: a flow at 10", (long long)batches[b]);
		pq_range_init(&r);
		r.start_ns = 20;
		r.end_ns = 9000;
		r.kind = PQ_RANGE_CPU_OP; /* no name: refused */
		ok(pq_store_range(s, &r, NULL, &err) != 0, "batch %lld: a range without a name fails",
		   (long long)batches[b]);
		pq_mark_init(&m);
		m.ts_ns = 50;
		m.name = "first";
		m.kind = PQ_MARK_INSTANT;
		ok(pq_store_mark(s, &m, NULL, &err) == 0, "batch %lld: a mark at 50", (long long)batches[b]);
		pq_kernel_init(&k);
		k.start_ns = 2000;
		k.end_ns = 2750;
		k.name = "k";
		ok(pq_store_kernel(s, &k, NULL, &err) == 0, "batch %lld: a kernel", (long long)batches[b]);
		r.name = "open";
		r.start_ns = 5000;
		r.end_ns = PQ_NULL;
		ok(pq_store_range(s, &r, NULL, &err) == 0, "batch %lld: a range open from 5000",
		   (long long)batches[b]);
		pq_sync_init(&y);
		y.start_ns = 3000;
		y.end_ns = 4000;
		y.sync_type = 1;
		ok(pq_store_sync(s, &y, NULL, &err) == 0, "batch %lld: a synchronization to 4000",
		   (long long)batches[b]);
		pq_memory_event_init(&e);
		e.ts_ns = 4500;
		e.operation = PQ_MEM_ALLOC;
		e.bytes = 64;
		ok(pq_store_memory_event(s, &e, NULL, &err) == 0, "batch %lld: a memory event at 4500",
		   (long long)batches[b]);
		ok(pq_store_finish_run(s, &err) == 0, "batch %lld: the run finishes", (long long)batches[b]);
		pq_store_close(s);
		is_int(query_int(path, "SELECT start_ns FROM runs"), 50,
		       "batch %lld: the span starts at the mark (not the flow, not the failed range)",
		       (long long)batches[b]);
		is_int(query_int(path, "SELECT end_ns FROM runs"), 5000,
		       "batch %lld: and ends at the open range's start", (long long)batches[b]);
	}
}

static void test_attach_and_range_end(void)
{
	const char *path = path_in("attach.db");
	pq_store *a, *b;
	pq_error err;
	pq_run_info run;
	pq_range r;
	int64_t run_id = 0, other = 0, pa, pb, tb, id1 = 0, id2 = 0;

	pq_store_open(path, 0, &a, &err);
	pq_run_info_init(&run);
	run.source = "collector";
	pq_store_begin_run(a, &run, &run_id, &err);
	pq_store_open(path, 0, &b, &err);
	ok(pq_store_attach_run(b, run_id, &err) == 0, "a second connection attaches to the run");
	ok(pq_store_attach_run(b, run_id, &err) != 0 && strstr(err.msg, "already open") != NULL,
	   "attaching twice is refused");
	pq_store_process(a, 100, "parent", &pa, &err);
	pq_store_commit(a, &err);
	pq_store_process(b, 200, "child", &pb, &err);
	pq_store_thread(b, 200, 201, NULL, &tb, &err);
	pq_range_init(&r);
	r.process_id = pb;
	r.thread_id = tb;
	r.kind = PQ_RANGE_NVTX_START_END;
	r.name = "open";
	r.start_ns = 10;
	ok(pq_store_range(b, &r, &id1, &err) == 0, "a range without an end");
	r.name = "closed";
	pq_store_range(b, &r, &id2, &err);
	ok(pq_store_range_end(b, id2, 25, tb, &err) == 0, "is ended later");
	ok(pq_store_range_end(b, 99999, 25, PQ_NULL, &err) != 0 &&
	   strstr(err.msg, "no range") != NULL, "ending an unknown range fails");
	pq_store_commit(b, &err);
	pq_store_close(b);
	{
		int64_t pb2 = 0, tb2 = 0;

		pq_store_open(path, 0, &b, &err);
		pq_store_attach_run(b, run_id, &err);
		ok(pq_store_process(b, 200, NULL, &pb2, &err) == 0 && pb2 == pb,
		   "a reopened connection finds its process row again");
		ok(pq_store_thread(b, 200, 201, "named", &tb2, &err) == 0 && tb2 == tb,
		   "and its thread row");
		pq_store_close(b);
	}
	ok(pq_store_finish_run(a, &err) == 0, "the first connection finishes the run");
	pq_store_close(a);
	is_int(query_int(path, "SELECT count(DISTINCT pid) FROM processes WHERE run_id = 1"), 2,
	       "both processes are in the one run");
	is_int(query_int(path, "SELECT end_ns FROM ranges WHERE id = 2"), 25, "end_ns set");
	is_int(query_int(path, "SELECT end_thread_id FROM ranges WHERE id = 2"), tb,
	       "end_thread_id set");
	is_int(query_int(path, "SELECT end_ns FROM ranges WHERE id = 1"), PQ_NULL,
	       "the open range stays open");
	is_int(query_int(path, "SELECT end_ns FROM runs"), 25, "the run span covers both");

	pq_store_open(path, 0, &a, &err);
	ok(pq_store_attach_run(a, 42, &err) != 0 && strstr(err.msg, "no run 42") != NULL,
	   "attaching to a missing run fails clearly");
	ok(pq_store_attach_run(a, run_id, &err) == 0 && pq_store_begin_run(a, &run, &other, &err) != 0,
	   "an attached run counts as open");
	pq_store_close(a);
}

/* Opening must not change a byte of a file that is not a profq database. */
static void expect_refused(const char *name, const char *bytes, size_t n, const char *want)
{
	const char *path = path_in(name);
	pq_store *s = NULL;
	pq_error err = { "" };
	size_t got_n;
	char *got;
	char wal[600];

	write_file(path, bytes, n);
	ok(pq_store_open(path, 0, &s, &err) != 0 && s == NULL, "%s: refused", name);
	ok(strstr(err.msg, want) != NULL, "%s: message says '%s' (%s)", name, want, err.msg);
	got = read_file(path, &got_n);
	ok(got_n == n && memcmp(got, bytes, n) == 0, "%s: file unchanged", name);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	ok(access(wal, F_OK) != 0, "%s: no WAL file left beside it", name);
	free(got);
}

static void test_refusals(void)
{
	sqlite3 *db;
	size_t n;
	char *bytes;
	const char *other = path_in("other.db");
	const char *newer = path_in("newer.db");
	pq_error err;
	pq_store *s;
	struct stat sb;

	expect_refused("text.db", "hello, world\n", 13, "is not an SQLite database");

	sqlite3_open(other, &db);
	sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1)", NULL, NULL, NULL);
	sqlite3_close(db);
	bytes = read_file(other, &n);
	unlink(other);
	expect_refused("other.db", bytes, n, "not a profq database");
	free(bytes);

	/* A profq file from a future version. */
	sqlite3_open(newer, &db);
	sqlite3_exec(db, "PRAGMA application_id = 1347569233; PRAGMA user_version = 99; "
			 "CREATE TABLE runs(id)", NULL, NULL, NULL);
	sqlite3_close(db);
	bytes = read_file(newer, &n);
	unlink(newer);
	expect_refused("newer.db", bytes, n, "schema version 99, newer than this profq");
	free(bytes);

	ok(pq_store_open(path_in("no/such/dir.db"), 0, &s, &err) != 0,
	   "a path in a missing directory is refused");
	ok(stat(path_in("no"), &sb) != 0, "and nothing is created");
	ok(pq_db_open(path_in("missing.db"), PQ_OPEN_READ, &db, NULL, &err) != 0 &&
	   strstr(err.msg, "No such file") != NULL, "reading a missing file fails clearly");
	ok(access(path_in("missing.db"), F_OK) != 0, "and does not create it");
}

int main(void)
{
	if (make_dir("profq-store") != 0)
		return 1;
	test_new_database();
	test_rows_round_trip();
	test_required_fields();
	test_batching();
	test_abort();
	test_bindings_and_names();
	test_name_columns_last_text();
	test_bindings_random();
	test_deferred_indexes();
	test_partial_indexes_kept();
	test_indexes_sorted_in_runs();
	test_added_tables();
	test_retired_indexes();
	test_attach_and_range_end();
	test_span_from_rows();
	test_refusals();
	remove_dir();
	return done_testing();
}
