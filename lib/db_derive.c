/* db_derive.c - the derived tables (docs/schema.md, Derived tables): writing them for finished
 * runs, forgetting them when their definitions change, and empty stand-ins for older files.
 *
 * Each derived table T holds the rows of the view v_T (schema/views.sql, the one definition) for
 * the runs derived_runs lists under T's name; the view reads T for those runs and computes every
 * other run. So writing T is `INSERT INTO T SELECT * FROM v_T` for the runs about to be listed,
 * then listing them; tables in dependency order, so a later view (v_tb_gpu_metrics reads
 * v_tb_steps) reads the rows just written instead of computing them again. Some tables' rows are
 * computed in C instead (derive.h), from the same definitions.
 */
#include "derive.h"

#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_sql.h"

static const char *const derived[] = { "tb_steps", "tb_step_times", "tb_gpu_metrics",
				       "tb_kernel_sums", "tb_op_sums", "tb_memory_sums",
				       "hta_temporal_breakdown", "hta_idle_breakdown", "hta_comm_overlap" };
#define NDERIVED (sizeof(derived) / sizeof(derived[0]))

/* The runs whose rows are final (complete, aborted, failed) and not yet in table %s. Runs still
 * being written are left to the views, which compute them from their events whenever read. */
#define PENDING "SELECT id FROM runs WHERE status <> 'open' AND id NOT IN " \
		"(SELECT run_id FROM derived_runs WHERE name = '%s')"

/* The pending runs table %s is computed for: all of them, but for a tb_* table not run %lld, which
 * its writer knows has no host operator ranges (cpu_op, user_annotation, python_function: kinds
 * 2, 3 and 5). Every tb_* definition finds its steps and operator nodes among those ranges only,
 * so such a run has no rows there; on an Nsight Systems export of 1.5 M NVTX ranges, finding that
 * out by the views costs ~1.5 s of scans (tests/reports/derived.t checks the views agree). */
#define TO_COMPUTE PENDING " AND id <> %lld"

static long long skipped_for(const char *table, long long no_host_ops)
{
	return strncmp(table, "tb_", 3) == 0 ? no_host_ops : 0;
}

int pq_derive_any_run(sqlite3 *db, const char *runs)
{
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf("SELECT EXISTS (%s)", runs);
	int any = 1; /* when in doubt, compute: the query says what it finds */

	if (sql != NULL && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		any = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return any;
}

static int has_temp_view(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM temp.sqlite_master WHERE type = 'view' AND "
			       "name = 'v_' || ?1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

/* Whether db has the profq SQL functions the definitions call: the CLI's connections do (it
 * links the extension), the collector's own do not (the views compute its runs when read). */
static int has_functions(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(db, "SELECT priority_breakdown(0, 1, 'a', 0, '0 1')", -1, &st,
				    NULL) == SQLITE_OK;

	sqlite3_finalize(st);
	return ok;
}

/* While deriving: once a table holds every run, a TEMP view of its view's name reads just the
 * table, so the later views that read it (v_tb_gpu_metrics reads v_tb_steps; computed as TEMP
 * copies, rehome) prepare without its definition. *made gets a bit per table shadowed,
 * drop_shadows removes them. */
static int shadow(sqlite3 *db, const char *table, unsigned *made, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	char sql[200];
	int todo = 1;

	snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM main.runs WHERE id NOT IN "
		 "(SELECT run_id FROM main.derived_runs WHERE name = '%s'))", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		todo = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (todo || has_temp_view(db, table))
		return 0;
	snprintf(sql, sizeof(sql), "CREATE TEMP VIEW \"v_%s\" AS SELECT * FROM main.\"%s\"", table,
		 table);
	if (pq_db_exec(db, sql, "cannot write the derived tables", err) != 0)
		return -1;
	for (size_t i = 0; i < NDERIVED; i++)
		if (strcmp(derived[i], table) == 0)
			*made |= 1u << i;
	return 0;
}

static void drop_shadows(sqlite3 *db, unsigned made)
{
	for (size_t i = 0; i < NDERIVED; i++) {
		char sql[128];

		if (!(made & (1u << i)))
			continue;
		snprintf(sql, sizeof(sql), "DROP VIEW IF EXISTS temp.\"v_%s\"", derived[i]);
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
}

/* Derived tables written together: one table by its view (c NULL), or the tables one C
 * computation fills (derive.h: the views of these are the slowest). */
#define JOB_TABLES 3
typedef struct {
	const char *tables[JOB_TABLES]; /* the first ones; NULL after the last */
	const pq_deriver *c;
} job;

/* The jobs whose tables read another derived table, in dependency order: done first, by the
 * writing connection (v_tb_gpu_metrics reads the tb_steps just written). */
static const job chain[] = {
	{ { "tb_steps", "tb_step_times" }, &pq_steps_deriver },
	{ { "tb_gpu_metrics", NULL }, &pq_gpu_metrics_deriver },
};
#define NCHAIN (sizeof(chain) / sizeof(chain[0]))

/* The jobs whose tables read no other derived table, largest first (on the ResNet50 sample the
 * operator tree is the largest, on an nsys run of 2.5 M rows the HTA breakdowns): a pool both
 * connections take from, each the next one left, when it is free (pq_db_derive_now). The second
 * connection sees none of this one's writes, so the tables that read tb_steps stay here. */
static const job pool[] = {
	{ { "tb_op_sums", "tb_memory_sums" }, &pq_op_sums_deriver },
	{ { "hta_idle_breakdown", "hta_temporal_breakdown", "hta_comm_overlap" }, &pq_hta_deriver },
	{ { "tb_kernel_sums", NULL }, NULL },
};
#define NPOOL (sizeof(pool) / sizeof(pool[0]))

/* Memory: the steps job and the operator sums each hold copies of the run's host ranges, calls
 * and GPU events. Above this many host operator ranges (PROFQ_DERIVE_LARGE in the environment
 * says another number: tests/reports/derived.t takes this path on small traces) they do not run
 * at once: the worker takes the HTA and kernel jobs first and the operator sums once the steps
 * are written, which on such runs balances the two CPUs as well, and the import's peak RSS on
 * the 500 MB bench trace goes from ~330 to ~240 MB (bench/RESULTS.md). */
#define OVERLAP_MAX_HOST_OPS 100000
static const int small_order[NPOOL] = { 0, 1, 2 };
static const int large_order[NPOOL] = { 1, 2, 0 };
#define OP_SUMS 0 /* pool index */

typedef struct {
	char *path;
	long long no_host_ops; /* pq_db_derive_now's */
	pthread_t thread;
	int running;
	pthread_mutex_t lock;
	pthread_cond_t steps_written;   /* signalled when steps_done is set */
	const int *order;               /* the order jobs of pool are taken in */
	int large;                      /* OVERLAP_MAX_HOST_OPS exceeded */
	int steps_done;                 /* the writer's steps job is over, under lock */
	pq_host_handoff hosts;          /* a large run's: from the steps job to the operator sums */
	size_t next;                    /* the next job of order to take, under lock */
	int taken[NPOOL];               /* by the worker */
	int rc[NPOOL];                  /* the worker's: 0 when it holds the rows */
	void *rows[NPOOL];              /* the rows it holds (hold) */
	pq_error err;
} worker;

/* The next job of the pool, or -1 when all are taken. */
static int take(worker *w)
{
	int i = -1;

	pthread_mutex_lock(&w->lock);
	if (w->next < NPOOL)
		i = w->order[w->next++];
	pthread_mutex_unlock(&w->lock);
	return i;
}

/* The writer's steps job is over (or will not run): a large run's operator sums may start. */
static void steps_over(worker *w)
{
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->steps_done = 1;
	pthread_cond_broadcast(&w->steps_written);
	pthread_mutex_unlock(&w->lock);
}

static void wait_for_steps(worker *w)
{
	pthread_mutex_lock(&w->lock);
	while (!w->steps_done)
		pthread_cond_wait(&w->steps_written, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* The runs job j computes: its tables' pending runs but the skipped (TO_COMPUTE), together. */
static void job_runs(const job *j, long long no_host_ops, char *out, size_t size)
{
	char one[320];
	size_t len = 0;

	out[0] = '\0';
	for (size_t k = 0; k < JOB_TABLES && j->tables[k] != NULL; k++) {
		snprintf(one, sizeof(one), TO_COMPUTE, j->tables[k],
			 skipped_for(j->tables[k], no_host_ops));
		len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s",
					k ? " UNION " : "", one);
	}
}

/* Job j's rows for the runs the query runs selects, held to be inserted (*rows NULL: none). */
static int hold(sqlite3 *db, const job *j, const char *runs, pq_host_handoff *hosts, void **rows,
		pq_error *err)
{
	pq_held_rows *r = NULL;
	char *sql;
	int rc;

	*rows = NULL;
	if (!pq_derive_any_run(db, runs))
		return 0;
	if (j->c != NULL)
		return j->c->compute(db, runs, hosts, rows, err);
	sql = sqlite3_mprintf("SELECT * FROM \"v_%w\" WHERE run_id IN (%s)", j->tables[0], runs);
	rc = sql != NULL ? pq_rows_hold(db, sql, &r, err) : pq_fail(err, "out of memory");
	sqlite3_free(sql);
	*rows = r;
	return rc;
}

static void release(const job *j, void *rows)
{
	if (rows == NULL)
		return;
	if (j->c != NULL)
		j->c->release(rows);
	else
		pq_rows_free(rows);
}

static void *work(void *arg)
{
	worker *w = arg;
	sqlite3 *db = NULL;
	char runs[1024];
	int i;

	if (sqlite3_open_v2(w->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	pq_db_harden(db);
	sqlite3_busy_timeout(db, 5000);
	/* One read transaction: every table from the snapshot the write lock froze. Without the
	 * functions the definitions call, nothing is taken: the writer does it all. */
	if (has_functions(db) && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK) {
		while ((i = take(w)) >= 0) {
			w->taken[i] = 1;
			if (w->large && i == OP_SUMS)
				wait_for_steps(w);
			job_runs(&pool[i], w->no_host_ops, runs, sizeof(runs));
			w->rc[i] = hold(db, &pool[i], runs, w->large ? &w->hosts : NULL, &w->rows[i],
					&w->err);
		}
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	}
	sqlite3_close(db);
	return NULL;
}

static void join_worker(worker *w)
{
	if (w != NULL && w->running) {
		pthread_join(w->thread, NULL);
		w->running = 0;
	}
}

/* While a shadow exists: table t's view as a TEMP view of its definition (schema/views.sql, not
 * the file's text), for writing t. Names in a view of the file resolve in the file only, so its
 * definition would still read the shadowed views' definitions (v_tb_gpu_metrics reads
 * v_tb_steps), and preparing those costs more than computing the rows (~20 ms on the ResNet50
 * sample); in a TEMP view they resolve to the shadows. */
static int rehome(sqlite3 *db, const char *t, int *made, pq_error *err)
{
	char name[80];

	*made = 0;
	if (has_temp_view(db, t)) /* this connection's already (pq_db_add_temp_views) */
		return 0;
	snprintf(name, sizeof(name), "v_%s", t);
	*made = 1;
	return pq_db_add_temp_view(db, name, err);
}

static void unhome(sqlite3 *db, const char *t)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "DROP VIEW IF EXISTS temp.\"v_%s\"", t);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* Before table t is written: its rows of the pending runs removed (rows a run left unlisted, by
 * hand or by a profq that lost track, would block it), and the skipped run listed first, so that
 * the view computing the others leaves it out. */
static int prepare_table(sqlite3 *db, const char *t, long long no_host_ops, pq_error *err)
{
	long long skip = skipped_for(t, no_host_ops);
	char pending[256], sql[1024];

	snprintf(pending, sizeof(pending), PENDING, t);
	snprintf(sql, sizeof(sql), "DELETE FROM \"%s\" WHERE run_id IN (%s)", t, pending);
	if (pq_db_exec(db, sql, "cannot write the derived tables", err) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "INSERT INTO derived_runs (run_id, name) SELECT id, '%s' FROM "
		 "(%s) WHERE id = %lld", t, pending, skip);
	return skip != 0 ? pq_db_exec(db, sql, "cannot write the derived tables", err) : 0;
}

/* Table t's rows, from rows held for its job j, or computed here by its view. */
static int fill_table(sqlite3 *db, const job *j, const char *t, void *rows, int held,
		      long long no_host_ops, unsigned shadows, pq_error *err)
{
	char runs[320], sql[1024];
	int rc, made = 0;

	snprintf(runs, sizeof(runs), TO_COMPUTE, t, skipped_for(t, no_host_ops));
	if (held) {
		if (rows == NULL)
			return 0;
		return j->c != NULL ? j->c->insert(db, t, runs, rows, err)
				    : pq_rows_insert(db, t, rows, err);
	}
	if (!pq_derive_any_run(db, runs))
		return 0;
	if (shadows != 0 && rehome(db, t, &made, err) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "INSERT INTO \"%s\" SELECT * FROM \"v_%s\" WHERE run_id IN (%s)",
		 t, t, runs);
	rc = pq_db_exec(db, sql, "cannot write the derived tables", err);
	if (made)
		unhome(db, t);
	return rc;
}

/* Writes job j's tables for the pending runs: from the worker's rows when it took the job (pool
 * index p) and made them, else computed here (host ranges left in hosts, when not NULL); then
 * lists the runs. */
static int run_job(sqlite3 *db, const job *j, worker *w, int p, pq_host_handoff *hosts,
		   long long no_host_ops, unsigned *shadows, pq_error *err)
{
	char runs[1024], pending[256], sql[1024];
	void *rows = NULL;
	int held = 0, rc = 0;
	size_t k, nt = 0;

	while (nt < JOB_TABLES && j->tables[nt] != NULL)
		nt++;

	for (k = 0; k < nt; k++)
		if (prepare_table(db, j->tables[k], no_host_ops, err) != 0)
			return -1;
	if (w != NULL && p >= 0 && w->taken[p]) {
		join_worker(w);
		if (w->rc[p] == 0) { /* else (it failed) computed here */
			rows = w->rows[p];
			w->rows[p] = NULL;
			held = 1;
		}
	}
	if (!held && j->c != NULL) {
		job_runs(j, no_host_ops, runs, sizeof(runs));
		rc = hold(db, j, runs, hosts, &rows, err);
		held = 1;
	}
	for (k = 0; k < nt && rc == 0; k++)
		rc = fill_table(db, j, j->tables[k], rows, held, no_host_ops, *shadows, err);
	release(j, rows);
	for (k = 0; k < nt && rc == 0; k++) {
		snprintf(pending, sizeof(pending), PENDING, j->tables[k]);
		snprintf(sql, sizeof(sql), "INSERT INTO derived_runs (run_id, name) SELECT id, '%s' "
			 "FROM (%s)", j->tables[k], pending);
		rc = pq_db_exec(db, sql, "cannot write the derived tables", err);
		if (rc == 0)
			rc = shadow(db, j->tables[k], shadows, err);
	}
	return rc;
}

/* Writes every derived table of the pending runs, in the caller's transaction: first the chain's,
 * then the pool's, each job taken here while the worker w (when there is one) takes the others,
 * then the worker's. */
static int derive(sqlite3 *db, worker *w, long long no_host_ops, pq_error *err)
{
	unsigned shadows = 0;
	int rc = 0, i;
	pq_host_handoff chain_hosts; /* the steps job's host ranges, for tb_gpu_metrics */
	int large = w != NULL && w->large;

	/* A large run's go to the operator sums instead, which start once the steps are written,
	 * beside tb_gpu_metrics (which then reads what it needs of them itself). */
	pq_host_handoff_init(&chain_hosts);
	for (size_t c = 0; c < NCHAIN && rc == 0; c++) {
		rc = run_job(db, &chain[c], NULL, -1,
			     large ? (c == 0 ? &w->hosts : NULL) : &chain_hosts, no_host_ops,
			     &shadows, err);
		if (c == 0)
			steps_over(w);
	}
	pq_host_handoff_free(&chain_hosts);
	steps_over(w); /* also when the chain failed: the worker must not wait for it */
	if (w == NULL) {
		for (size_t p = 0; p < NPOOL && rc == 0; p++)
			rc = run_job(db, &pool[p], NULL, -1, NULL, no_host_ops, &shadows, err);
	} else {
		while (rc == 0 && (i = take(w)) >= 0)
			rc = run_job(db, &pool[i], NULL, -1, NULL, no_host_ops, &shadows, err);
		join_worker(w);
		for (size_t p = 0; p < NPOOL && rc == 0; p++)
			if (w->taken[p])
				rc = run_job(db, &pool[p], w, (int)p, NULL, no_host_ops, &shadows,
					     err);
	}
	drop_shadows(db, shadows);
	return rc;
}

/* Whether db can derive: a file with the tables, and the functions the definitions call. */
static int can_derive(sqlite3 *db)
{
	return pq_db_has_table(db, "derived_runs", -1) && has_functions(db);
}

int pq_db_derive(sqlite3 *db, pq_error *err)
{
	return can_derive(db) ? derive(db, NULL, 0, err) : 0;
}

/* The writer's page cache while a large run is derived: its rows are written, the derive reads
 * them in a few passes, and the C jobs' arrays need the memory. */
#define LARGE_DERIVE_CACHE_KIB 8192

/* The writer's cache_size (PRAGMA units), to set back after a large run's derive. */
static int cache_size(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int size = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA cache_size", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		size = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return size;
}

static void set_cache_size(sqlite3 *db, int size)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA cache_size = %d", size);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

int pq_db_derive_now(sqlite3 *db, int64_t no_host_ops, int64_t host_ops, pq_error *err)
{
	const char *path = sqlite3_db_filename(db, "main");
	const char *knob = getenv("PROFQ_DERIVE_LARGE");
	int large = host_ops > (knob != NULL ? atoll(knob) : OVERLAP_MAX_HOST_OPS), cache = 0;
	worker w = { .no_host_ops = no_host_ops, .large = large,
		     .order = large ? large_order : small_order };
	int rc;

	if (!can_derive(db))
		return 0;
	/* The write lock first: no other writer commits between the worker's snapshot and ours. */
	if (pq_db_exec(db, "BEGIN IMMEDIATE", "cannot write the derived tables", err) != 0)
		return -1;
	if (large) { /* the pages given back to the system, not only to malloc */
		cache = cache_size(db);
		set_cache_size(db, -LARGE_DERIVE_CACHE_KIB);
#ifdef __GLIBC__
		malloc_trim(0);
#endif
	}
	/* Part of the tables on the second CPU while this one does the rest. */
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.steps_written, NULL);
	pq_host_handoff_init(&w.hosts);
	if (path != NULL && path[0] != '\0' && (w.path = strdup(path)) != NULL)
		w.running = pthread_create(&w.thread, NULL, work, &w) == 0;
	rc = derive(db, w.running ? &w : NULL, no_host_ops, err);
	join_worker(&w);
	if (large && cache != 0)
		set_cache_size(db, cache);
	pthread_cond_destroy(&w.steps_written);
	pthread_mutex_destroy(&w.lock);
	pq_host_handoff_free(&w.hosts);
	free(w.path);
	for (size_t i = 0; i < NPOOL; i++)
		release(&pool[i], w.rows[i]);
	if (rc == 0)
		return pq_db_exec(db, "COMMIT", "cannot write the derived tables", err);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int pq_db_forget_derived(sqlite3 *db, pq_error *err)
{
	char sql[128];

	if (!pq_db_has_table(db, "derived_runs", -1))
		return 0;
	for (size_t i = 0; i < NDERIVED; i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM \"%s\"", derived[i]);
		if (pq_db_exec(db, sql, "cannot clear the derived tables", err) != 0)
			return -1;
	}
	return pq_db_exec(db, "DELETE FROM derived_runs", "cannot clear the derived tables", err);
}

int pq_db_is_derived_view(const char *name)
{
	if (strncmp(name, "v_", 2) != 0)
		return 0;
	for (size_t i = 0; i < NDERIVED; i++)
		if (strcmp(name + 2, derived[i]) == 0)
			return 1;
	return 0;
}

/* A file written before the derived tables, read: TEMP tables of the same definitions stand in,
 * empty, so the views (TEMP too, pq_db_add_temp_views) compute every run and nothing is written.
 * Never on a connection that writes: it creates the real tables, which these would hide. */
int pq_db_add_temp_derived(sqlite3 *db, pq_error *err)
{
	const char *names[NDERIVED + 1];

	names[0] = "derived_runs";
	for (size_t i = 0; i < NDERIVED; i++)
		names[i + 1] = derived[i];
	for (size_t i = 0; i <= NDERIVED; i++) {
		char key[80];
		const char *def, *end;
		char *sql;
		int rc;

		if (pq_db_has_table(db, names[i], -1))
			continue;
		snprintf(key, sizeof(key), "\nCREATE TABLE %s (", names[i]);
		if ((def = strstr(pq_schema_sql, key)) == NULL || (end = strstr(def, ");")) == NULL)
			return pq_fail(err, "no definition of %s in the schema", names[i]);
		def += strlen("\nCREATE TABLE ");
		sql = sqlite3_mprintf("CREATE TEMP TABLE IF NOT EXISTS %.*s", (int)(end + 2 - def), def);
		if (sql == NULL)
			return pq_fail(err, "out of memory");
		rc = pq_db_exec(db, sql, "cannot add a table", err);
		sqlite3_free(sql);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* For each derived table that holds every run of the file: a TEMP view of its view's name that
 * reads the table only. It shadows the file's view on this connection (TEMP names resolve first)
 * and gives the same rows, without preparing the definition for no run: that alone takes the CLI
 * ~5-10 ms a report, more than reading the rows. A table lacking some run keeps the full view. */
int pq_db_shadow_derived(sqlite3 *db, pq_error *err)
{
	if (!pq_db_has_table(db, "derived_runs", -1))
		return 0;
	for (size_t i = 0; i < NDERIVED; i++) {
		sqlite3_stmt *st = NULL;
		char sql[200];
		int todo = 1;

		/* The HTA reports read their tables themselves, not through the views. */
		if (strncmp(derived[i], "tb_", 3) != 0)
			continue;
		snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM main.runs WHERE id NOT IN "
			 "(SELECT run_id FROM main.derived_runs WHERE name = '%s'))", derived[i]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			todo = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (todo || !pq_db_has_table(db, derived[i], -1))
			continue;
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW IF NOT EXISTS \"v_%s\" AS SELECT * FROM "
			 "main.\"%s\"", derived[i], derived[i]);
		if (pq_db_exec(db, sql, "cannot add a view", err) != 0)
			return -1;
	}
	return 0;
}
