/* nsys_prefetch.c - the export's big sorted reads, started ahead of the importer.
 *
 * Each event table is read sorted (by start; NVTX events by thread and start), and SQLite does
 * much of such a read in the statement's first step: it scans the table and sorts. A helper
 * thread takes those first steps, in the order the importer makes the reads, while the importer
 * writes the tables before; nsys_open_read then finds the statement with its first row ready
 * (and nsys_query_int a count made ahead) and hands it to a thread that steps the rest
 * (nsys_stream.c). Each read has a connection of its own: the helper never touches one again
 * once it has handed its statement over. The reads give names as StringIds ids, which the
 * stepping thread looks up. A read whose rows are already in its order is made in rowid order
 * (nsys_order.c): sorting the CUDA tables again was the helper's first 0.5 s, which the importer
 * waited for.
 */
#include "nsys.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

#define MAX_READS 8

enum { QUEUED, READY, TAKEN };

typedef struct primed_read {
	const nsys_query *q;  /* the read it is, or NULL for a query given as SQL */
	char *sql;          /* sqlite3_malloc'd */
	char *rowid_sql;    /* the same read in rowid order, when it may be (sqlite3_malloc'd) */
	sqlite3 *db;        /* this read's own connection */
	sqlite3_stmt *st;   /* prepared on db and stepped once */
	int rc;             /* that step's result */
	int state;
	int released;       /* a query given as SQL: it may start (nsys_prefetch_release) */
	int unchecked;      /* made in rowid order without nsys_rowid_order's scan */
} primed_read;

struct nsys_prefetch {
	char *uri;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop, done;
	int n;
	primed_read reads[MAX_READS];
};

/* Opens a read's connection and takes the first step; st stays NULL when it cannot (the importer
 * then prepares the read itself and reports the error as usual). */
static void prime(struct nsys_prefetch *p, primed_read *r)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_ERROR;

	int stop;

	if (sqlite3_open_v2(p->uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
			    SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK)
		pq_db_harden(db);
	pthread_mutex_lock(&p->mu);
	r->db = db;  /* from here nsys_prefetch_stop can interrupt it */
	stop = p->stop;
	pthread_mutex_unlock(&p->mu);
	if (!stop && sqlite3_prepare_v2(db, r->unchecked || (r->rowid_sql != NULL &&
						       nsys_rowid_order(db, r->q)) ?
					r->rowid_sql : r->sql, -1, &st, NULL) == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		st = NULL;
	}
	pthread_mutex_lock(&p->mu);
	r->st = st;
	r->rc = rc;
	r->state = READY;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void *helper(void *arg)
{
	struct nsys_prefetch *p = arg;

	for (int i = 0; i < p->n; i++) {
		int stop;

		pthread_mutex_lock(&p->mu);
		/* A query given as SQL (the orphan kernels' count) is answered when the rows are
		 * written: the importer releases it when it builds the indexes, which leaves the
		 * second CPU free. Run as soon as the reads were started, it took that CPU from the
		 * first reads' streams: ~0.12 s of the bench export's rows phase. */
		while (!p->stop && p->reads[i].q == NULL && !p->reads[i].released)
			pthread_cond_wait(&p->cv, &p->mu);
		stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		prime(p, &p->reads[i]);
	}
	pthread_mutex_lock(&p->mu);
	p->done = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void free_prefetch(struct nsys_prefetch *p)
{
	for (int i = 0; i < p->n; i++) {
		sqlite3_finalize(p->reads[i].st);
		sqlite3_close_v2(p->reads[i].db);  /* a taken read's statement may still be open */
		sqlite3_free(p->reads[i].sql);
		sqlite3_free(p->reads[i].rowid_sql);
	}
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->uri);
	free(p);
}

void nsys_prefetch(nsys_ctx *c, const nsys_query *const *q, int n, const char *const *sql,
		   int nsql)
{
	struct nsys_prefetch *p;
	pq_error ignored;
	pq_error *err = c->err;

	if (c->prefetch != NULL || n + nsql > MAX_READS || (p = calloc(1, sizeof(*p))) == NULL)
		return;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	c->err = &ignored;  /* a query that cannot be built here fails when the importer builds it */
	for (int i = 0; i < n; i++) {
		primed_read *r = &p->reads[p->n];
		nsys_query by_rowid = *q[i];
		char *text;

		if (nsys_select_sql(c, q[i], 1, &text) != 0 || text == NULL)
			continue;
		r->q = q[i];
		r->sql = text;
		p->n++;
		by_rowid.order = "t.rowid";
		if (nsys_rowid_allowed(c, q[i]) &&
		    nsys_select_sql(c, &by_rowid, 1, &r->rowid_sql) != 0) {
			sqlite3_free(r->rowid_sql);
			r->rowid_sql = NULL;
		}
		/* The NVTX events, in rowid order untested: their reader tests each row instead
		 * (nsys_read.c), and the import is made again, sorted, if one is out of order. The
		 * test's own scan was 0.66 s of the helper's CPU in the bench export's first second,
		 * when both CPUs are busy; in the reader it costs a hash probe a row. */
		r->unchecked = q[i]->rowid_if == NSYS_ROWID_IF_BY_THREAD && r->rowid_sql != NULL;
	}
	c->err = err;
	for (int i = 0; i < nsql; i++)
		if ((p->reads[p->n].sql = sqlite3_mprintf("%s", sql[i])) != NULL)
			p->n++;
	if (p->n == 0 || (p->uri = nsys_uri(c->path)) == NULL ||
	    pthread_create(&p->thread, NULL, helper, p) != 0) {
		free_prefetch(p);
		return;
	}
	c->prefetch = p;
}

/* The queued read of q, or of the query sql (q NULL) not yet taken; NULL when none (under the
 * lock). */
static primed_read *find(struct nsys_prefetch *p, const nsys_query *q, const char *sql)
{
	for (int i = 0; i < p->n; i++)
		if (p->reads[i].state != TAKEN &&
		    (q != NULL ? p->reads[i].q == q : strcmp(p->reads[i].sql, sql) == 0))
			return &p->reads[i];
	return NULL;
}

/* Lets the helper run r and the queries given as SQL before it (under the lock). */
static void release(struct nsys_prefetch *p, const primed_read *r)
{
	for (primed_read *x = p->reads; x <= r; x++)
		x->released = 1;
	pthread_cond_broadcast(&p->cv);
}

void nsys_prefetch_release(nsys_ctx *c, const char *sql)
{
	struct nsys_prefetch *p = c->prefetch;
	primed_read *r;

	if (p == NULL || sql == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	if ((r = find(p, NULL, sql)) != NULL)
		release(p, r);
	pthread_mutex_unlock(&p->mu);
}

int nsys_prefetch_take(nsys_ctx *c, const nsys_query *q, const char *sql, sqlite3_stmt **st,
		       int *first_rc, int *unchecked)
{
	struct nsys_prefetch *p = c->prefetch;
	primed_read *r = NULL;
	int taken = 0;

	if (unchecked != NULL)
		*unchecked = 0;
	if (p == NULL)
		return 0;
	pthread_mutex_lock(&p->mu);
	if ((r = find(p, q, sql)) != NULL)
		release(p, r);
	while (r != NULL && r->state == QUEUED && !p->done)
		pthread_cond_wait(&p->cv, &p->mu);
	if (r != NULL && r->state == READY && r->st != NULL) {
		*st = r->st;
		*first_rc = r->rc;
		if (unchecked != NULL)
			*unchecked = r->unchecked;
		r->st = NULL;
		taken = 1;
	}
	if (r != NULL)
		r->state = TAKEN;
	pthread_mutex_unlock(&p->mu);
	return taken;
}

void nsys_prefetch_stop(nsys_ctx *c)
{
	struct nsys_prefetch *p = c->prefetch;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv); /* a query not released ends its wait */
	for (int i = 0; i < p->n; i++)  /* a sort under way ends now (the import is over) */
		if (p->reads[i].state == QUEUED && p->reads[i].db != NULL)
			sqlite3_interrupt(p->reads[i].db);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	free_prefetch(p);
	c->prefetch = NULL;
}
