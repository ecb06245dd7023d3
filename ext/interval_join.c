/* interval_join.c - interval_join(left_sql, right_sql [, mode]): the interval join table function.
 *
 *   SELECT * FROM interval_join('SELECT id, part, start_ns, end_ns FROM a',
 *                               'SELECT id, part, start_ns, end_ns FROM b' [, 'overlaps'|'contains'])
 *   → left_id, right_id, part, overlap_start, overlap_end, overlap_ns
 *
 * An eponymous-only virtual table. Each argument is one read-only SELECT returning (id, part, start,
 * end) or (id, start, end) (then every row is in one partition). Rows pair only within the same
 * partition (partition values compare like SQL `IS`, so NULL pairs with NULL and 1 with 1.0).
 * A row with start == end is a point; a point p is in [s, e) when s <= p < e. Rows with a NULL
 * start or end, or with end < start, are ignored.
 *   'overlaps' (default): every (left, right) pair whose instants intersect.
 *   'contains': every pair where the right row contains the left one (left ⊆ right).
 *   'nests': 'contains' as a strict order for nesting a set in itself (the same query on both
 *            sides): no row paired with itself, and of two rows with the same interval only the
 *            right one with the smaller id contains the other.
 *   'parent': per left row, the one 'nests' pair whose right row has the latest start, then the
 *            earliest end, then the largest id: the innermost enclosing row (a tree's parent).
 * Ranges on either side may overlap and nest (NVTX push/pop): there is no "non-overlapping" input
 * requirement, unlike Perfetto's SPAN_JOIN (notes/perfetto.md §1.1).
 *
 * Algorithm: both inputs are loaded, sorted once by (partition, start) (radix sort on start, then a
 * stable counting sort on the partition index), then swept per partition: rows are taken in start
 * order from the two sides; each side keeps a min-heap (by end) of its rows that are still open, so
 * when a row X arrives, after expiring the rows that ended, every open row of the other side
 * overlaps X and is emitted. Each pair is found once, when the later-starting row arrives:
 * O((n+m) log(n+m) + k). In 'contains' mode only left rows probe the open right rows (right rows
 * first on equal starts), keeping those that end at or after the left row's end; the cost is the
 * number of right rows open at each left start. Pairs are produced lazily, one per xNext.
 */
#include "ext.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iv_util.h"

#define FN "interval_join"

enum { MODE_CONTAINS = 1, MODE_NESTS, MODE_PARENT };

enum { COL_LEFT_ID, COL_RIGHT_ID, COL_PART, COL_OSTART, COL_OEND, COL_ONS, COL_LEFT_SQL,
       COL_RIGHT_SQL, COL_MODE };

typedef struct {
	sqlite3_int64 start, end, id;
	uint32_t part;
	uint32_t pad;
} jrow;

typedef struct {
	int type; /* SQLITE_INTEGER (also integral REALs), SQLITE_FLOAT, SQLITE_TEXT, BLOB, NULL */
	sqlite3_int64 i;
	double r;
	unsigned char *bytes;
	int n;
	uint32_t hash;
	sqlite3_value *orig; /* the first value seen, returned in the part column */
} jpart;

typedef struct {
	jrow *a;
	size_t n, cap;
} jheap;

typedef struct {
	sqlite3_vtab_cursor base;
	sqlite3_int64 rowid;
	int contains; /* 0 overlaps, else one of the MODE_* below */
	int ncols; /* columns of the left query: 4 with a part column, 3 without */
	/* inputs, sorted by (part, start) */
	jrow *side[2]; /* 0 = left, 1 = right */
	size_t nside[2];
	size_t *off[2]; /* off[s][p] .. off[s][p+1]: partition p of side s */
	jpart *parts;
	uint32_t nparts, capparts;
	uint32_t *phash;
	uint32_t capphash;
	/* sweep state */
	uint32_t p;
	size_t pos[2];
	jheap heap[2];
	int have_x, x_side;
	jrow x;
	size_t it;
	int eof;
	/* current output row */
	sqlite3_int64 out_left, out_right, out_start, out_end;
} jcursor;

typedef struct {
	sqlite3_vtab base;
	sqlite3 *db;
} jvtab;

#define JROW_START(x) ((x).start)
PQ_RADIX_SORT(sort_rows_by_start, jrow, JROW_START)

/* ---- partitions ---- */

static uint32_t hash_part(const jpart *k)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)k->type;
	int i;

	switch (k->type) {
	case SQLITE_INTEGER:
		h ^= (uint64_t)k->i;
		h *= 0x9E3779B97F4A7C15ull;
		break;
	case SQLITE_FLOAT: {
		uint64_t bits;
		memcpy(&bits, &k->r, sizeof bits);
		h ^= bits;
		h *= 0x9E3779B97F4A7C15ull;
		break;
	}
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		for (i = 0; i < k->n; i++) {
			h ^= k->bytes[i];
			h *= 1099511628211ull;
		}
		break;
	default:
		break;
	}
	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

static int same_part(const jpart *a, const jpart *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case SQLITE_INTEGER:
		return a->i == b->i;
	case SQLITE_FLOAT:
		return a->r == b->r;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		return a->n == b->n && (a->n == 0 || memcmp(a->bytes, b->bytes, (size_t)a->n) == 0);
	default:
		return 1;
	}
}

/* Describes v as a partition key (bytes point into v: valid until v changes). */
static void part_key(sqlite3_value *v, jpart *k)
{
	memset(k, 0, sizeof *k);
	k->type = sqlite3_value_type(v);
	switch (k->type) {
	case SQLITE_INTEGER:
		k->i = sqlite3_value_int64(v);
		break;
	case SQLITE_FLOAT:
		k->r = sqlite3_value_double(v);
		if (k->r == 0.0)
			k->r = 0.0; /* -0.0 and 0.0 are one partition */
		if (k->r == floor(k->r) && k->r >= -9223372036854775808.0 &&
		    k->r < 9223372036854775808.0) {
			k->type = SQLITE_INTEGER;
			k->i = (sqlite3_int64)k->r;
		}
		break;
	case SQLITE_TEXT:
		k->bytes = (unsigned char *)sqlite3_value_text(v);
		k->n = sqlite3_value_bytes(v);
		break;
	case SQLITE_BLOB:
		k->bytes = (unsigned char *)sqlite3_value_blob(v);
		k->n = sqlite3_value_bytes(v);
		break;
	default:
		break;
	}
	k->hash = hash_part(k);
}

static int part_rehash(jcursor *c)
{
	uint32_t nc = c->capphash ? c->capphash * 2 : 64, i;
	uint32_t *nt = sqlite3_malloc64((sqlite3_uint64)nc * sizeof(uint32_t));

	if (nt == NULL)
		return SQLITE_NOMEM;
	memset(nt, 0, (size_t)nc * sizeof(uint32_t));
	for (i = 0; i < c->nparts; i++) {
		uint32_t h = c->parts[i].hash & (nc - 1);
		while (nt[h] != 0)
			h = (h + 1) & (nc - 1);
		nt[h] = i + 1;
	}
	sqlite3_free(c->phash);
	c->phash = nt;
	c->capphash = nc;
	return SQLITE_OK;
}

/* Returns the partition index of v (adding it), or -1 on out-of-memory. */
static int64_t intern_part(jcursor *c, sqlite3_value *v, uint32_t hint)
{
	jpart k, *np;
	uint32_t slot;

	part_key(v, &k);
	if ((k.type == SQLITE_TEXT || k.type == SQLITE_BLOB) && k.bytes == NULL && k.n > 0)
		return -1;
	if (hint < c->nparts && c->parts[hint].hash == k.hash && same_part(&c->parts[hint], &k))
		return hint;
	if (c->capphash != 0) {
		for (slot = k.hash & (c->capphash - 1); c->phash[slot] != 0;
		     slot = (slot + 1) & (c->capphash - 1)) {
			jpart *q = &c->parts[c->phash[slot] - 1];
			if (q->hash == k.hash && same_part(q, &k))
				return c->phash[slot] - 1;
		}
	}
	if (c->nparts == c->capparts) {
		uint32_t ncap = c->capparts ? c->capparts * 2 : 16;
		if (c->capparts >= 0x40000000u)
			return -1;
		np = sqlite3_realloc64(c->parts, (sqlite3_uint64)ncap * sizeof(jpart));
		if (np == NULL)
			return -1;
		c->parts = np;
		c->capparts = ncap;
	}
	np = &c->parts[c->nparts];
	*np = k;
	np->bytes = NULL;
	if (k.n > 0) {
		np->bytes = sqlite3_malloc64((sqlite3_uint64)k.n);
		if (np->bytes == NULL)
			return -1;
		memcpy(np->bytes, k.bytes, (size_t)k.n);
	}
	np->orig = sqlite3_value_dup(v);
	if (np->orig == NULL) {
		sqlite3_free(np->bytes);
		return -1;
	}
	c->nparts++;
	if (2 * c->nparts > c->capphash) {
		if (part_rehash(c) != SQLITE_OK)
			return -1;
	} else {
		for (slot = k.hash & (c->capphash - 1); c->phash[slot] != 0;
		     slot = (slot + 1) & (c->capphash - 1))
			;
		c->phash[slot] = c->nparts;
	}
	return c->nparts - 1;
}

/* ---- heaps of open rows, ordered by (end, points last) ---- */

static int heap_less(const jrow *a, const jrow *b)
{
	if (a->end != b->end)
		return a->end < b->end;
	return (a->start < a->end) && !(b->start < b->end);
}

static int heap_push(jheap *h, const jrow *x)
{
	size_t i;

	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 64;
		jrow *na = sqlite3_realloc64(h->a, (sqlite3_uint64)nc * sizeof(jrow));
		if (na == NULL)
			return SQLITE_NOMEM;
		h->a = na;
		h->cap = nc;
	}
	i = h->n++;
	while (i > 0 && heap_less(x, &h->a[(i - 1) / 2])) {
		h->a[i] = h->a[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->a[i] = *x;
	return SQLITE_OK;
}

static void heap_pop(jheap *h)
{
	size_t i = 0, n = --h->n;
	jrow last = h->a[n];

	for (;;) {
		size_t l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = (l + 1 < n && heap_less(&h->a[l + 1], &h->a[l])) ? l + 1 : l;
		if (!heap_less(&h->a[m], &last))
			break;
		h->a[i] = h->a[m];
		i = m;
	}
	if (n > 0)
		h->a[i] = last;
}

/* Removes the rows that no longer contain instant t: end < t, or end == t for a non-point. */
static void heap_expire(jheap *h, sqlite3_int64 t)
{
	while (h->n > 0 && (h->a[0].end < t || (h->a[0].end == t && h->a[0].start < h->a[0].end)))
		heap_pop(h);
}

/* ---- loading ---- */

static void free_inputs(jcursor *c)
{
	uint32_t i;
	int s;

	for (s = 0; s < 2; s++) {
		sqlite3_free(c->side[s]);
		sqlite3_free(c->off[s]);
		c->side[s] = NULL;
		c->off[s] = NULL;
		c->nside[s] = 0;
		c->heap[s].n = 0;
	}
	for (i = 0; c->parts != NULL && i < c->nparts; i++) {
		sqlite3_free(c->parts[i].bytes);
		sqlite3_value_free(c->parts[i].orig);
	}
	sqlite3_free(c->parts);
	sqlite3_free(c->phash);
	c->parts = NULL;
	c->phash = NULL;
	c->nparts = c->capparts = c->capphash = 0;
}

static void set_vtab_error(sqlite3_vtab *vt, char *msg)
{
	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = msg;
}

static const char *const side_name[2] = { "left", "right" };

/* Runs one side's query and appends its rows. Returns SQLITE_OK or an error (message set). */
static int load_side(jcursor *c, int s, const char *sql)
{
	sqlite3_vtab *vt = c->base.pVtab;
	sqlite3 *db = ((jvtab *)vt)->db;
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int rc, ncol, col_start, col_end;
	sqlite3_int64 rowno = 0;
	size_t cap = 0;
	uint32_t hint = 0;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
	if (rc != SQLITE_OK) {
		set_vtab_error(vt, sqlite3_mprintf(FN ": %s query: %s", side_name[s], sqlite3_errmsg(db)));
		return rc == SQLITE_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
	}
	while (tail != NULL && (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' ||
				*tail == ';'))
		tail++;
	if (st == NULL || (tail != NULL && *tail != '\0')) {
		sqlite3_finalize(st);
		set_vtab_error(vt, sqlite3_mprintf(FN ": argument %d (%s query) must be exactly one "
						   "SELECT statement", s + 1, side_name[s]));
		return SQLITE_ERROR;
	}
	if (!sqlite3_stmt_readonly(st)) {
		sqlite3_finalize(st);
		set_vtab_error(vt, sqlite3_mprintf(FN ": argument %d (%s query) must be a read-only "
						   "SELECT", s + 1, side_name[s]));
		return SQLITE_ERROR;
	}
	ncol = sqlite3_column_count(st);
	if (ncol != 3 && ncol != 4) {
		sqlite3_finalize(st);
		set_vtab_error(vt, sqlite3_mprintf(FN ": the %s query must return 4 columns (id, part, "
						   "start_ns, end_ns) or 3 (id, start_ns, end_ns), "
						   "it returns %d", side_name[s], ncol));
		return SQLITE_ERROR;
	}
	if (s == 1 && c->ncols != ncol) {
		sqlite3_finalize(st);
		set_vtab_error(vt, sqlite3_mprintf(FN ": the left query returns %d columns and the right "
						   "query %d: both must have a part column or neither",
						   c->ncols, ncol));
		return SQLITE_ERROR;
	}
	c->ncols = ncol;
	col_start = ncol - 2;
	col_end = ncol - 1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		jrow r;
		const char *why;
		int bad = -1;
		sqlite3_value *vs = sqlite3_column_value(st, col_start);
		sqlite3_value *ve = sqlite3_column_value(st, col_end);

		rowno++;
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER) {
			set_vtab_error(vt, sqlite3_mprintf(FN ": %s query row %lld: column 1 (id) must be "
							   "an integer", side_name[s], (long long)rowno));
			rc = SQLITE_ERROR;
			break;
		}
		if (sqlite3_value_type(vs) == SQLITE_NULL || sqlite3_value_type(ve) == SQLITE_NULL)
			continue;
		if ((why = pq_iv_value_ns(vs, &r.start)) != NULL)
			bad = col_start;
		else if ((why = pq_iv_value_ns(ve, &r.end)) != NULL)
			bad = col_end;
		if (bad >= 0) {
			set_vtab_error(vt, sqlite3_mprintf(FN ": %s query row %lld: column %d (%s) must be "
							   "an integer number of ns, %s", side_name[s],
							   (long long)rowno, bad + 1,
							   bad == col_start ? "start_ns" : "end_ns", why));
			rc = SQLITE_ERROR;
			break;
		}
		if (r.end < r.start)
			continue;
		{
			sqlite3_int64 len;
			if (__builtin_sub_overflow(r.end, r.start, &len)) {
				set_vtab_error(vt, sqlite3_mprintf(FN ": %s query row %lld: interval "
								   "length overflows a 64-bit integer",
								   side_name[s], (long long)rowno));
				rc = SQLITE_ERROR;
				break;
			}
		}
		r.id = sqlite3_column_int64(st, 0);
		r.pad = 0;
		if (ncol == 4) {
			int64_t p = intern_part(c, sqlite3_column_value(st, 1), hint);
			if (p < 0) {
				rc = SQLITE_NOMEM;
				break;
			}
			r.part = hint = (uint32_t)p;
		} else {
			r.part = 0;
		}
		if (c->nside[s] == cap) {
			size_t nc = cap ? cap * 2 : 1024;
			jrow *na = sqlite3_realloc64(c->side[s], (sqlite3_uint64)nc * sizeof(jrow));
			if (na == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			c->side[s] = na;
			cap = nc;
		}
		c->side[s][c->nside[s]++] = r;
	}
	if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	} else if (rc != SQLITE_ERROR && rc != SQLITE_NOMEM) {
		set_vtab_error(vt, sqlite3_mprintf(FN ": %s query: %s", side_name[s], sqlite3_errmsg(db)));
		rc = SQLITE_ERROR;
	} else if (rc == SQLITE_ERROR && vt->zErrMsg == NULL) {
		set_vtab_error(vt, sqlite3_mprintf(FN ": %s query: %s", side_name[s], sqlite3_errmsg(db)));
	}
	sqlite3_finalize(st);
	return rc;
}

/* Sorts one side by (part, start) and fills off[s]. */
static int sort_side(jcursor *c, int s, uint32_t nparts)
{
	size_t n = c->nside[s], i;
	size_t *off = sqlite3_malloc64((sqlite3_uint64)(nparts + 1) * sizeof(size_t));
	jrow *tmp;

	if (off == NULL)
		return SQLITE_NOMEM;
	c->off[s] = off;
	if (sort_rows_by_start(c->side[s], n) != SQLITE_OK)
		return SQLITE_NOMEM;
	memset(off, 0, (size_t)(nparts + 1) * sizeof(size_t));
	for (i = 0; i < n; i++)
		off[c->side[s][i].part + 1]++;
	for (i = 0; i < nparts; i++)
		off[i + 1] += off[i];
	if (nparts <= 1 || n == 0)
		return SQLITE_OK;
	tmp = sqlite3_malloc64((sqlite3_uint64)n * sizeof(jrow));
	if (tmp == NULL)
		return SQLITE_NOMEM;
	{
		size_t *fill = sqlite3_malloc64((sqlite3_uint64)nparts * sizeof(size_t));
		if (fill == NULL) {
			sqlite3_free(tmp);
			return SQLITE_NOMEM;
		}
		memcpy(fill, off, (size_t)nparts * sizeof(size_t));
		for (i = 0; i < n; i++)
			tmp[fill[c->side[s][i].part]++] = c->side[s][i];
		sqlite3_free(fill);
	}
	sqlite3_free(c->side[s]);
	c->side[s] = tmp;
	return SQLITE_OK;
}

/* ---- the sweep ---- */

/* Whether open right row y nests left row x ('nests'): contains it, is not it, and of two rows
 * with one interval the one with the smaller id is the outer. */
static int nests(const jrow *x, const jrow *y)
{
	if (x->start < x->end && y->end < x->end)
		return 0;
	return y->id != x->id && (y->start < x->start || y->end > x->end || y->id < x->id);
}

/* Advances to the next output pair; sets c->eof at the end. Returns SQLITE_OK or SQLITE_NOMEM. */
static int sweep_next(jcursor *c)
{
	for (;;) {
		if (c->have_x) {
			int other = !c->x_side;
			jheap *h = &c->heap[other];
			if (c->contains == MODE_PARENT) {
				const jrow *best = NULL;
				for (; c->it < h->n; c->it++) {
					const jrow *y = &h->a[c->it];
					if (!nests(&c->x, y))
						continue;
					if (best == NULL || y->start > best->start ||
					    (y->start == best->start &&
					     (y->end < best->end || (y->end == best->end && y->id > best->id))))
						best = y;
				}
				if (best != NULL) {
					c->out_left = c->x.id;
					c->out_right = best->id;
					c->out_start = c->x.start;
					c->out_end = c->x.end;
					return SQLITE_OK;
				}
			}
			while (c->it < h->n) {
				const jrow *y = &h->a[c->it++];
				if (c->contains) {
					/* x is a left row, y an open right row starting at or before x. */
					if (c->x.start < c->x.end && y->end < c->x.end)
						continue;
					if (c->contains == MODE_NESTS && !nests(&c->x, y))
						continue;
					c->out_left = c->x.id;
					c->out_right = y->id;
					c->out_start = c->x.start;
					c->out_end = c->x.end;
				} else {
					c->out_left = c->x_side == 0 ? c->x.id : y->id;
					c->out_right = c->x_side == 0 ? y->id : c->x.id;
					c->out_start = c->x.start;
					c->out_end = y->end < c->x.end ? y->end : c->x.end;
				}
				return SQLITE_OK;
			}
			c->have_x = 0;
			if (!c->contains || c->x_side == 1) {
				if (heap_push(&c->heap[c->x_side], &c->x) != SQLITE_OK)
					return SQLITE_NOMEM;
			}
		}
		if (c->p < c->nparts) {
			size_t le = c->off[0][c->p + 1], re = c->off[1][c->p + 1];
			int take;
			if (c->pos[0] < le && c->pos[1] < re) {
				const jrow *l = &c->side[0][c->pos[0]], *r = &c->side[1][c->pos[1]];
				/* equal starts: right first in 'contains' mode (so it is open for the left) */
				take = (l->start < r->start || (l->start == r->start && !c->contains)) ? 0 : 1;
			} else if (c->pos[0] < le && c->heap[1].n > 0) {
				take = 0; /* right side exhausted but rows still open */
			} else if (c->pos[1] < re && !c->contains && c->heap[0].n > 0) {
				take = 1;
			} else {
				take = -1; /* nothing more can pair in this partition */
			}
			if (take >= 0) {
				c->x = c->side[take][c->pos[take]++];
				c->x_side = take;
				heap_expire(&c->heap[0], c->x.start);
				heap_expire(&c->heap[1], c->x.start);
				c->have_x = 1;
				c->it = 0;
				continue;
			}
			/* next partition with rows on both sides */
			c->heap[0].n = c->heap[1].n = 0;
			do {
				c->p++;
			} while (c->p < c->nparts && (c->off[0][c->p + 1] == c->off[0][c->p] ||
						      c->off[1][c->p + 1] == c->off[1][c->p]));
			if (c->p < c->nparts) {
				c->pos[0] = c->off[0][c->p];
				c->pos[1] = c->off[1][c->p];
			}
			continue;
		}
		c->eof = 1;
		return SQLITE_OK;
	}
}

/* ---- the virtual table ---- */

static int j_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		     sqlite3_vtab **out, char **err)
{
	jvtab *vt;
	int rc;

	(void)aux;
	(void)argc;
	(void)argv;
	(void)err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(left_id INTEGER, right_id INTEGER, part, "
				      "overlap_start INTEGER, overlap_end INTEGER, overlap_ns INTEGER, "
				      "left_sql HIDDEN, right_sql HIDDEN, mode HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	vt = sqlite3_malloc64(sizeof *vt);
	if (vt == NULL)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof *vt);
	vt->db = db;
	*out = &vt->base;
	return SQLITE_OK;
}

static int j_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* idxNum bits: 1 = left_sql, 2 = right_sql, 4 = mode given (argv in that order). */
static int j_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int i, idx[3] = { -1, -1, -1 }, argn = 0, mask = 0;

	(void)vt;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];
		int which = k->iColumn - COL_LEFT_SQL;
		if (which < 0 || which > 2)
			continue;
		if (!k->usable || k->op != SQLITE_INDEX_CONSTRAINT_EQ)
			return SQLITE_CONSTRAINT;
		idx[which] = i;
	}
	for (i = 0; i < 3; i++) {
		if (idx[i] < 0)
			continue;
		info->aConstraintUsage[idx[i]].argvIndex = ++argn;
		info->aConstraintUsage[idx[i]].omit = 1;
		mask |= 1 << i;
	}
	info->idxNum = mask;
	info->estimatedCost = (mask & 3) == 3 ? 1e6 : 1e12;
	info->estimatedRows = 1000000;
	return SQLITE_OK;
}

static int j_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	jcursor *c = sqlite3_malloc64(sizeof *c);

	(void)vt;
	if (c == NULL)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

static int j_close(sqlite3_vtab_cursor *cur)
{
	jcursor *c = (jcursor *)cur;

	free_inputs(c);
	sqlite3_free(c->heap[0].a);
	sqlite3_free(c->heap[1].a);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int j_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc,
		    sqlite3_value **argv)
{
	jcursor *c = (jcursor *)cur;
	sqlite3_vtab *vt = cur->pVtab;
	const char *sql[2];
	int rc, s, a = 0;

	(void)idxStr;
	(void)argc;
	free_inputs(c);
	c->eof = 1;
	c->have_x = 0;
	c->rowid = 0;
	if ((idxNum & 3) != 3) {
		set_vtab_error(vt, sqlite3_mprintf(FN ": needs two arguments, the left and the right "
						   "query (and optionally a mode)"));
		return SQLITE_ERROR;
	}
	for (s = 0; s < 2; s++) {
		sqlite3_value *v = argv[a++];
		if (sqlite3_value_type(v) != SQLITE_TEXT) {
			set_vtab_error(vt, sqlite3_mprintf(FN ": argument %d (%s query) must be text", s + 1,
							   side_name[s]));
			return SQLITE_ERROR;
		}
		sql[s] = (const char *)sqlite3_value_text(v);
		if (sql[s] == NULL)
			return SQLITE_NOMEM;
	}
	c->contains = 0;
	if (idxNum & 4) {
		const char *m = (const char *)sqlite3_value_text(argv[a]);
		if (m != NULL && strcmp(m, "contains") == 0) {
			c->contains = MODE_CONTAINS;
		} else if (m != NULL && strcmp(m, "nests") == 0) {
			c->contains = MODE_NESTS;
		} else if (m != NULL && strcmp(m, "parent") == 0) {
			c->contains = MODE_PARENT;
		} else if (m == NULL || strcmp(m, "overlaps") != 0) {
			set_vtab_error(vt, sqlite3_mprintf(FN ": argument 3 (mode) must be 'overlaps', "
							   "'contains', 'nests' or 'parent'"));
			return SQLITE_ERROR;
		}
	}
	for (s = 0; s < 2; s++) {
		/* One query for both sides (a set nested in itself): run it once, copy its rows. */
		if (s == 1 && strcmp(sql[0], sql[1]) == 0) {
			c->side[1] = sqlite3_malloc64((sqlite3_uint64)(c->nside[0] + 1) * sizeof(jrow));
			rc = c->side[1] == NULL ? SQLITE_NOMEM : SQLITE_OK;
			if (rc == SQLITE_OK && c->nside[0] > 0)
				memcpy(c->side[1], c->side[0], c->nside[0] * sizeof(jrow));
			c->nside[1] = c->nside[0];
		} else {
			rc = load_side(c, s, sql[s]);
		}
		if (rc != SQLITE_OK) {
			free_inputs(c);
			return rc;
		}
	}
	if (c->nparts == 0)
		c->nparts = 1; /* 3-column inputs (or no rows): one partition, index 0 */
	for (s = 0; s < 2; s++) {
		rc = sort_side(c, s, c->nparts);
		if (rc != SQLITE_OK) {
			free_inputs(c);
			return rc;
		}
	}
	/* start before partition 0 and let sweep_next find the first partition with both sides */
	c->p = 0;
	c->pos[0] = c->off[0][0];
	c->pos[1] = c->off[1][0];
	c->eof = 0;
	rc = sweep_next(c);
	if (rc != SQLITE_OK)
		free_inputs(c);
	return rc;
}

static int j_next(sqlite3_vtab_cursor *cur)
{
	jcursor *c = (jcursor *)cur;

	c->rowid++;
	return sweep_next(c);
}

static int j_eof(sqlite3_vtab_cursor *cur)
{
	return ((jcursor *)cur)->eof;
}

static int j_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	jcursor *c = (jcursor *)cur;

	switch (col) {
	case COL_LEFT_ID:
		sqlite3_result_int64(ctx, c->out_left);
		break;
	case COL_RIGHT_ID:
		sqlite3_result_int64(ctx, c->out_right);
		break;
	case COL_PART:
		if (c->parts != NULL && c->p < c->nparts)
			sqlite3_result_value(ctx, c->parts[c->p].orig);
		else
			sqlite3_result_null(ctx);
		break;
	case COL_OSTART:
		sqlite3_result_int64(ctx, c->out_start);
		break;
	case COL_OEND:
		sqlite3_result_int64(ctx, c->out_end);
		break;
	case COL_ONS:
		sqlite3_result_int64(ctx, c->out_end - c->out_start);
		break;
	default:
		sqlite3_result_null(ctx); /* hidden argument columns */
		break;
	}
	return SQLITE_OK;
}

static int j_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((jcursor *)cur)->rowid;
	return SQLITE_OK;
}

static sqlite3_module join_module = {
	0,              /* iVersion */
	NULL,           /* xCreate: NULL makes it eponymous-only */
	j_connect,      /* xConnect */
	j_best_index,   /* xBestIndex */
	j_disconnect,   /* xDisconnect */
	NULL,           /* xDestroy */
	j_open,         /* xOpen */
	j_close,        /* xClose */
	j_filter,       /* xFilter */
	j_next,         /* xNext */
	j_eof,          /* xEof */
	j_column,       /* xColumn */
	j_rowid,        /* xRowid */
	NULL,           /* xUpdate */
	NULL,           /* xBegin */
	NULL,           /* xSync */
	NULL,           /* xCommit */
	NULL,           /* xRollback */
	NULL,           /* xFindFunction */
	NULL,           /* xRename */
	NULL,           /* xSavepoint */
	NULL,           /* xRelease */
	NULL,           /* xRollbackTo */
	NULL            /* xShadowName */
};

int pq_ext_interval_join_init(sqlite3 *db)
{
	return sqlite3_create_module(db, FN, &join_module, NULL);
}
