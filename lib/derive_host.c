/* derive_host.c - the host ranges tb_plugin's parsers look at, for the tb_* tables computed in C
 * (derive_op_nodes.c, derive_steps.c): one read of the ranges, then each distinct name asked of
 * v_tb_host_names and each distinct category of lower(), as the views ask them, so that what a
 * name is stays defined in SQL only. */
#include "derive.h"

#include <stdlib.h>
#include <string.h>

/* The bits of pq_derive_ask for a name: the columns of NAME_FACTS, after bit 0 (found). */
enum { N_FOUND = 1, N_ANNOT = 2, N_LISTED = 4, N_STEP = 8, N_TCL = 16, N_COMM = 32, N_DL = 64,
       N_RSTEP = 128, N_NUMBER = 256 };
#define NAME_FACTS "SELECT annot, listed, step, tcl, role = 'comm', role = 'dl', role = 'step', " \
		   "step_number IS NOT NULL FROM v_tb_host_names WHERE id = ?1"

static int load(sqlite3 *db, const char *runs, pq_host_range **out, size_t *n, pq_error *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (pq_derive_prepare(db, "SELECT run_id, id, thread_id, start_ns, end_ns, kind, name_id, "
			      "category_id, external_id FROM ranges WHERE run_id IN (%s) AND kind IN "
			      "(2, 3, 5) AND end_ns IS NOT NULL", runs, &st, err) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pq_host_range *x;

		if (pq_derive_grow((void **)out, &cap, *n, sizeof(pq_host_range)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		x = &(*out)[(*n)++];
		*x = (pq_host_range){ .run = sqlite3_column_int64(st, 0),
				      .id = sqlite3_column_int64(st, 1),
				      .has_thread = sqlite3_column_type(st, 2) != SQLITE_NULL,
				      .thread = sqlite3_column_int64(st, 2),
				      .start = sqlite3_column_int64(st, 3),
				      .end = sqlite3_column_int64(st, 4),
				      .kind = sqlite3_column_int(st, 5),
				      .name = sqlite3_column_int64(st, 6),
				      .has_category = sqlite3_column_type(st, 7) != SQLITE_NULL,
				      .category = sqlite3_column_int64(st, 7),
				      .has_ext = sqlite3_column_type(st, 8) != SQLITE_NULL,
				      .ext = sqlite3_column_int64(st, 8) };
	}
	return pq_derive_finish(db, st, rc, err);
}

/* The step numbers of the ProfilerStep names among ids (those whose facts have N_NUMBER). */
static int step_numbers(sqlite3 *db, const sqlite3_int64 *ids, const unsigned *facts, size_t n,
			sqlite3_int64 *number, pq_error *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, "SELECT step_number FROM v_tb_host_names WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return pq_derive_fail(db, err);
	for (size_t i = 0; i < n; i++) {
		if (!(facts[i] & N_NUMBER))
			continue;
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_ROW) {
			pq_derive_fail(db, err);
			sqlite3_finalize(st);
			return -1;
		}
		number[i] = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

/* What each range's name and category are. */
static int classify(sqlite3 *db, pq_host_range *r, size_t n, pq_error *err)
{
	sqlite3_int64 *ids = malloc((2 * n + 1) * sizeof(sqlite3_int64)), *cats, *number = NULL;
	unsigned *says = malloc((2 * n + 1) * sizeof(unsigned));
	size_t nn, nk = 0;
	int rc = -1;

	if (ids == NULL || says == NULL || (number = calloc(n + 1, sizeof(sqlite3_int64))) == NULL) {
		pq_fail(err, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		ids[i] = r[i].name;
	nn = pq_derive_distinct(ids, n);
	cats = ids + nn;
	for (size_t i = 0; i < n; i++)
		if (r[i].kind == 5 && r[i].has_category)
			cats[nk++] = r[i].category;
	nk = pq_derive_distinct(cats, nk);
	if (pq_derive_ask(db, NAME_FACTS, ids, nn, says, err) != 0 ||
	    step_numbers(db, ids, says, nn, number, err) != 0 ||
	    pq_derive_ask(db, "SELECT lower(value) = 'python' FROM strings WHERE id = ?1", cats, nk,
			  says + nn, err) != 0)
		goto done;
	for (size_t i = 0; i < n; i++) {
		pq_host_range *x = &r[i];
		size_t k = pq_derive_find(ids, nn, x->name);
		unsigned f = says[k];

		x->known = (f & N_FOUND) != 0;
		x->annot = (f & N_ANNOT) != 0;
		x->listed = (f & N_LISTED) != 0;
		x->step = (f & N_STEP) != 0;
		x->tcl = (f & N_TCL) != 0;
		x->role = f & N_COMM ? PQ_TB_ROLE_COMM : f & N_DL ? PQ_TB_ROLE_DL
				     : f & N_RSTEP ? PQ_TB_ROLE_STEP : PQ_TB_ROLE_NONE;
		x->has_step_number = (f & N_NUMBER) != 0;
		if (x->kind == 5 && x->has_category) {
			size_t c = pq_derive_find(cats, nk, x->category);
			x->python = c < nk && (says[nn + c] & 2) != 0;
		}
		x->step_number = x->has_step_number ? number[k] : 0;
	}
	rc = 0;
done:
	free(ids);
	free(says);
	free(number);
	return rc;
}

int pq_host_ranges_load(sqlite3 *db, const char *runs, pq_host_range **out, size_t *n,
			pq_error *err)
{
	*out = NULL;
	*n = 0;
	if (load(db, runs, out, n, err) == 0 && classify(db, *out, *n, err) == 0)
		return 0;
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

void pq_host_handoff_init(pq_host_handoff *h)
{
	memset(h, 0, sizeof(*h));
	pthread_mutex_init(&h->lock, NULL);
}

void pq_host_handoff_free(pq_host_handoff *h)
{
	free(h->runs);
	free(h->r);
	pthread_mutex_destroy(&h->lock);
}

/* The ids of the runs the query runs selects, "1,2" (malloc'd); NULL when it cannot tell. */
static char *run_ids(sqlite3 *db, const char *runs)
{
	sqlite3_stmt *st = NULL;
	pq_error ignored;
	char *ids = NULL;

	if (pq_derive_prepare(db, "SELECT group_concat(id) FROM (SELECT id FROM (%s) ORDER BY id)",
			      runs, &st, &ignored) != 0)
		return NULL;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
		ids = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return ids;
}

int pq_host_ranges_take(sqlite3 *db, const char *runs, pq_host_handoff *h, pq_host_range **out,
			size_t *n, pq_error *err)
{
	char *ids = h != NULL ? run_ids(db, runs) : NULL;
	int taken = 0;

	if (ids != NULL) {
		pthread_mutex_lock(&h->lock);
		if (h->runs != NULL && strcmp(h->runs, ids) == 0) {
			*out = h->r;
			*n = h->n;
			h->r = NULL;
			h->n = 0;
			free(h->runs);
			h->runs = NULL;
			taken = 1;
		}
		pthread_mutex_unlock(&h->lock);
		free(ids);
	}
	return taken ? 0 : pq_host_ranges_load(db, runs, out, n, err);
}

void pq_host_ranges_leave(sqlite3 *db, const char *runs, pq_host_handoff *h, pq_host_range *r,
			  size_t n)
{
	char *ids = h != NULL ? run_ids(db, runs) : NULL;

	if (ids == NULL) {
		free(r);
		return;
	}
	pthread_mutex_lock(&h->lock);
	free(h->runs);
	free(h->r);
	h->runs = ids;
	h->r = r;
	h->n = n;
	pthread_mutex_unlock(&h->lock);
}
