/* nsys_read.c - a table of the export read row by row, and the current row's values.
 *
 * A read that nsys_prefetch started has a connection of its own: it is handed to a thread
 * (nsys_stream.c) that steps it and copies the rows, so that SQLite's work on the export (the
 * pages, the StringIds lookups, a sort's output) runs beside the mapping and writing here
 * instead of before it. Any other read is stepped here. The accessors give the same values
 * either way.
 */
#include "nsys.h"

#include <stdlib.h>
#include <string.h>

/* The columns a read made in rowid order untested is tested by (nsys_order_next). */
static int order_columns(nsys_read *r, const nsys_query *q)
{
	static const char *const names[3] = { "start", "end", "globalTid" };

	for (int k = 0; k < 3; k++) {
		r->order_cols[k] = -1;
		for (int i = 0; i < q->ncols && r->order_cols[k] < 0; i++)
			if (strcmp(q->cols[i].name, names[k]) == 0)
				r->order_cols[k] = i;
		if (r->order_cols[k] < 0)
			return pq_fail(r->c->err, "%s: no %s column to read it in order by",
				       q->table, names[k]);
	}
	return 0;
}

/* Whether the streamed row comes in the read's order; when not, the import is to be made again
 * with the read sorted (nsys_ctx.unordered). */
static int in_order(nsys_read *r)
{
	const nsys_cell *s = &r->row[r->order_cols[0]], *e = &r->row[r->order_cols[1]];
	const nsys_cell *g = &r->row[r->order_cols[2]];

	if (nsys_order_next(&r->order, s->type, s->v.i, e->type, e->v.i, g->type, g->v.i))
		return 1;
	r->c->unordered = 1;
	pq_fail(r->c->err, "%s: rows out of time order within a thread (read again sorted)",
		r->table);
	return 0;
}

int nsys_open_read(nsys_ctx *c, const nsys_query *q, nsys_read *r)
{
	nsys_query by_rowid = *q;
	char *text;
	int rc;

	memset(r, 0, sizeof(*r));
	r->c = c;
	r->table = q->table;
	r->counted = nsys_counted(q->table);
	if (nsys_prefetch_take(c, q, NULL, &r->st, &r->first_rc, &r->verify)) {
		r->stream = nsys_stream_start(r->st, q->cols, q->ncols, r->first_rc);
		r->first_rc = 0;
		if (r->stream != NULL && r->verify && order_columns(r, q) != 0) {
			nsys_close_read(r);
			return -1;
		}
		if (r->stream != NULL)
			return 0;
		sqlite3_finalize(r->st);  /* its names are ids: read here with their texts */
		r->st = NULL;
		r->verify = 0;
	}
	by_rowid.order = "t.rowid";
	if (nsys_select_sql(c, nsys_has_table(c, q->table) && nsys_rowid_allowed(c, q) &&
			    nsys_rowid_order(c->db, q) ? &by_rowid : q, 0, &text) != 0)
		return -1;
	if (text == NULL)
		return 0;
	rc = sqlite3_prepare_v2(c->db, text, -1, &r->st, NULL);
	sqlite3_free(text);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(r->st);
		r->st = NULL;
		return nsys_fail_on(c, c->db, q->table);
	}
	return 0;
}

int nsys_select(nsys_ctx *c, const char *table, const nsys_col *cols, int ncols,
		const char *where, const char *order, nsys_read *r)
{
	const nsys_query q = { table, cols, ncols, where, order, NSYS_SORTED };

	return nsys_open_read(c, &q, r);
}

int nsys_next(nsys_read *r)
{
	nsys_ctx *c = r->c;
	int rc;

	if (r->st == NULL)
		return r->rc = 0;
	if (r->stream != NULL) {
		rc = nsys_stream_next(r->stream, &r->row, &r->texts);
	} else if (r->first_rc != 0) {  /* taken ahead (nsys_prefetch.c) */
		rc = r->first_rc;
		r->first_rc = 0;
	} else {
		rc = sqlite3_step(r->st);
	}
	if (rc == SQLITE_ROW && r->verify && !in_order(r)) {
		r->row = NULL;
		return r->rc = -1;
	}
	if (rc == SQLITE_ROW) {
		if (r->counted && (++c->done & 0xFFFF) == 0 && c->opt != NULL)
			pq_progress_report(&c->opt->progress, PQ_PHASE_WRITE, c->done, c->total);
		return r->rc = 1;
	}
	r->row = NULL;
	if (rc == SQLITE_DONE)
		return r->rc = 0;
	r->rc = -1;
	if (rc == SQLITE_NOMEM && r->stream != NULL)
		return pq_fail(c->err, "out of memory");
	/* A stream's thread has stopped stepping: its connection's error is there to read. */
	return nsys_fail_on(c, sqlite3_db_handle(r->st), r->table);
}

int nsys_close_read(nsys_read *r)
{
	int rc = r->st != NULL && r->rc != 0 ? -1 : 0;

	nsys_stream_stop(r->stream);
	nsys_order_free(&r->order);
	sqlite3_finalize(r->st);
	r->stream = NULL;
	r->st = NULL;
	r->row = NULL;
	return rc;
}

int64_t nsys_int(const nsys_read *r, int i)
{
	if (r->row != NULL)
		return r->row[i].type == SQLITE_NULL ? PQ_NULL : r->row[i].v.i;
	if (sqlite3_column_type(r->st, i) == SQLITE_NULL)
		return PQ_NULL;
	return sqlite3_column_int64(r->st, i);
}

double nsys_real(const nsys_read *r, int i)
{
	if (r->row != NULL)
		return r->row[i].type == SQLITE_NULL ? 0.0 : r->row[i].v.d;
	return sqlite3_column_double(r->st, i);
}

const char *nsys_text(const nsys_read *r, int i)
{
	if (r->row != NULL)
		return r->row[i].type == SQLITE_NULL ? NULL : r->texts + r->row[i].v.text;
	return (const char *)sqlite3_column_text(r->st, i);
}

int nsys_is_null(const nsys_read *r, int i)
{
	if (r->row != NULL)
		return r->row[i].type == SQLITE_NULL;
	return sqlite3_column_type(r->st, i) == SQLITE_NULL;
}

int nsys_time(nsys_ctx *c, const nsys_read *r, int i, int64_t *out)
{
	int64_t v;

	if (r->row != NULL) {
		if (r->row[i].type != SQLITE_INTEGER)
			return -1;
		v = r->row[i].v.i;
	} else {
		if (sqlite3_column_type(r->st, i) != SQLITE_INTEGER)
			return -1;
		v = sqlite3_column_int64(r->st, i);
	}
	if (__builtin_add_overflow(v, c->offset, out) || *out == PQ_NULL)
		return -1;
	return 0;
}

struct nsys_name_slot {
	int64_t str_id, id;
	uint64_t epoch;         /* the store's strings epoch id was given under */
	int used;
};

int nsys_name_id(nsys_ctx *c, const nsys_read *r, int i, int64_t *id)
{
	const char *text = nsys_text(r, i);
	uint64_t epoch = pq_store_strings_epoch(c->s);
	struct nsys_name_slot *slot = NULL;

	*id = 0;
	if (text == NULL)
		return 0;
	if (r->row != NULL && r->row[i].by_id) {
		if (c->names == NULL &&
		    (c->names = calloc(NSYS_NAME_SLOTS, sizeof(*c->names))) == NULL)
			return pq_fail(c->err, "out of memory");
		slot = &c->names[(uint64_t)r->row[i].str_id % NSYS_NAME_SLOTS];
		if (slot->used && slot->str_id == r->row[i].str_id && slot->epoch == epoch) {
			*id = slot->id;
			return 0;
		}
	}
	if (pq_store_intern(c->s, text, id, c->err) != 0)
		return -1;
	if (slot != NULL)
		*slot = (struct nsys_name_slot){ r->row[i].str_id, *id, epoch, 1 };
	return 0;
}
