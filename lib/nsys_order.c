/* nsys_order.c - whether a sorted read of the export may be made in rowid order.
 *
 * Nsight Systems writes its tables close to time order: the CUDA tables in start order (every
 * export in tests/data, and the kernels of the bench's 2.5 M-row one), NVTX_EVENTS in start
 * order with the threads interleaved. Sorting them again is most of SQLite's work on a read: for
 * the bench export's 1.5 M NVTX events the sort and the row lookups after it take 1.7 s, a scan in
 * rowid order 0.4 s. So a read is first checked with one scan of the columns its order names, in
 * rowid order; when the rows are already in that order (within each thread, for a read the
 * importer takes thread by thread), the read is made in rowid order. The NVTX events, read ahead,
 * skip that scan: their reader tests each row with nsys_order_next as it comes (nsys_read.c), and
 * when one is out of order the import is made again with them sorted (import_nsys.c). Either way
 * an export is read in rowid order exactly when its rows are in order, so it is always written
 * the same way.
 */
#include "nsys.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The last row seen of one thread: its start and end (INT64_MAX when NULL). */
typedef struct nsys_order_row {
	int64_t gtid, start, end;
	int used;
} last_row;

static size_t slot_of(const nsys_order *t, int64_t gtid)
{
	size_t i = (size_t)(((uint64_t)gtid * 0x9E3779B97F4A7C15ull) >> 32) & (t->cap - 1);

	while (t->slot[i].used && t->slot[i].gtid != gtid)
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* Thread gtid's last row, added when new (open addressing on globalTid, grown at half full). */
static last_row *thread_row(nsys_order *t, int64_t gtid)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		nsys_order bigger = { calloc(t->cap ? 2 * t->cap : 64, sizeof(last_row)),
				      t->cap ? 2 * t->cap : 64, t->n };

		if (bigger.slot == NULL)
			return NULL;
		for (size_t k = 0; k < t->cap; k++)
			if (t->slot[k].used)
				bigger.slot[slot_of(&bigger, t->slot[k].gtid)] = t->slot[k];
		free(t->slot);
		*t = bigger;
	}
	i = slot_of(t, gtid);
	if (!t->slot[i].used) {
		t->slot[i] = (last_row){ .gtid = gtid, .start = INT64_MIN, .end = INT64_MAX,
					 .used = 1 };
		t->n++;
	}
	return &t->slot[i];
}

/* Whether row (start, end) may follow last in its order: later start, or the same start and an
 * end not after last's (NULL ends last: the order's coalesce to the largest value). */
static int follows(const last_row *last, int64_t start, int64_t end, int by_thread)
{
	if (start != last->start)
		return start > last->start;
	return !by_thread || end <= last->end;
}

int nsys_order_next(nsys_order *o, int start_type, int64_t start, int end_type, int64_t end,
		    int gtid_type, int64_t gtid)
{
	last_row *last;

	/* Anything but integers (a NULL start or thread, a text end) sorts its own way: the sorted
	 * read handles it. */
	if (start_type != SQLITE_INTEGER || gtid_type != SQLITE_INTEGER ||
	    (end_type != SQLITE_NULL && end_type != SQLITE_INTEGER))
		return 0;
	if (end_type == SQLITE_NULL)
		end = INT64_MAX;
	if ((last = thread_row(o, gtid)) == NULL || !follows(last, start, end, 1))
		return 0;
	last->start = start;
	last->end = end;
	return 1;
}

void nsys_order_free(nsys_order *o)
{
	free(o->slot);
	memset(o, 0, sizeof(*o));
}

int nsys_rowid_allowed(const nsys_ctx *c, const nsys_query *q)
{
	return q->rowid_if != NSYS_SORTED &&
	       !(c->unordered && q->rowid_if == NSYS_ROWID_IF_BY_THREAD);
}

int nsys_rowid_order(sqlite3 *db, const nsys_query *q)
{
	int by_thread = q->rowid_if == NSYS_ROWID_IF_BY_THREAD;
	nsys_order seen = { NULL, 0, 0 };
	last_row whole = { 0, INT64_MIN, INT64_MAX, 1 };
	sqlite3_stmt *st = NULL;
	char *sql;
	int rc = SQLITE_ERROR;

	if (q->rowid_if == NSYS_SORTED)
		return 0;
	sql = sqlite3_mprintf("SELECT t.start, %s FROM \"%w\" AS t%s%s ORDER BY t.rowid",
			      by_thread ? "t.\"end\", t.globalTid" : "NULL, NULL", q->table,
			      q->where != NULL ? " WHERE " : "", q->where != NULL ? q->where : "");
	if (sql != NULL && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t start = sqlite3_column_int64(st, 0);

			if (by_thread) {
				if (!nsys_order_next(&seen, sqlite3_column_type(st, 0), start,
						     sqlite3_column_type(st, 1),
						     sqlite3_column_int64(st, 1),
						     sqlite3_column_type(st, 2),
						     sqlite3_column_int64(st, 2)))
					break;
				continue;
			}
			if (sqlite3_column_type(st, 0) != SQLITE_INTEGER ||
			    !follows(&whole, start, INT64_MAX, 0))
				break;
			whole.start = start;
		}
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	nsys_order_free(&seen);
	return rc == SQLITE_DONE;
}
