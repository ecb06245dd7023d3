/* nsys_stream.c - a read's rows stepped and copied on a thread of its own.
 *
 * Stepping the export's statements (its pages, the StringIds lookups, the NVTX sort's output)
 * was ~3 s of the 5 s the importer spent reading and writing the 2.5 M-row bench export, on the
 * same CPU as the mapping and the inserts (bench/RESULTS.md, issue 15, tenth session). Here a
 * thread steps the statement and copies each row's values into a batch, in the form its column
 * is read in (NSYS_TEXT, NSYS_REAL or an integer), while the importer maps the batch before. A
 * few batches of a few hundred rows each bound the memory.
 *
 * Names (NSYS_STR columns) come as StringIds ids and are looked up here, through a small cache:
 * a correlated subquery per name cost more than the rest of reading the kernels (0.63 against
 * 0.40 s for their 316 k rows, each with three names), and a run has few distinct kernel and API
 * names. The cache is direct-mapped, so its memory is bounded however many names an export has.
 */
#include "nsys.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_ROWS 512
#define BATCHES 4
#define BATCH_TEXT (1 << 20)  /* a batch ends early once its texts pass this */
#define NAME_SLOTS 4096

typedef struct name_slot {
	int64_t id;
	char *text;             /* NULL: the id has no text */
	int used;
} name_slot;

typedef struct batch {
	nsys_cell *cells;       /* BATCH_ROWS rows of ncols */
	char *text;
	size_t text_len, text_cap;
	int n;                  /* rows */
	int rc;                 /* 0: more batches follow; else what ended the read */
} batch;

struct nsys_stream {
	sqlite3_stmt *st;
	const nsys_col *cols;
	int ncols;
	int step_rc;            /* the thread's: the step whose row is to be copied next */
	sqlite3_stmt *names;    /* the thread's: a StringIds lookup, prepared on first use */
	name_slot *slots;       /* the thread's: NAME_SLOTS names by id */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	batch b[BATCHES];
	int head, full;         /* the importer's batch; filled ones, the importer's among them */
	int stop;
	batch *cur;             /* the importer's, without the lock: b[head] once taken */
	int next_row;
};

/* The StringIds text of column i's id, of the given type (NULL when there is none), as the
 * subquery "(SELECT value FROM StringIds WHERE id = t.col)" gives it; an integer id is looked up
 * once while its slot holds it. 0, or an SQLite error code (SQLITE_NOMEM when a copy failed). */
static int name_of(struct nsys_stream *s, int i, int type, const char **text)
{
	int64_t id = type == SQLITE_INTEGER ? sqlite3_column_int64(s->st, i) : 0;
	name_slot *slot = type == SQLITE_INTEGER ? &s->slots[(uint64_t)id % NAME_SLOTS] : NULL;
	const char *t;
	int rc;

	if (slot != NULL && slot->used && slot->id == id) {
		*text = slot->text;
		return 0;
	}
	if (s->names == NULL &&
	    (rc = sqlite3_prepare_v2(sqlite3_db_handle(s->st),
				     "SELECT value FROM StringIds WHERE id = ?1", -1, &s->names,
				     NULL)) != SQLITE_OK)
		return rc;
	sqlite3_reset(s->names);
	if (slot != NULL)
		sqlite3_bind_int64(s->names, 1, id);
	else
		sqlite3_bind_value(s->names, 1, sqlite3_column_value(s->st, i));
	rc = sqlite3_step(s->names);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return rc;  /* the connection keeps its message for the importer */
	t = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s->names, 0) : NULL;
	if (slot == NULL) {  /* not an integer: a text kept until the next lookup */
		*text = t;
		return 0;
	}
	free(slot->text);
	slot->text = t != NULL ? strdup(t) : NULL;
	slot->used = t == NULL || slot->text != NULL;
	slot->id = id;
	*text = slot->text;
	return slot->used ? 0 : SQLITE_NOMEM;
}

/* Copies the row st is on into b: 0, or an SQLite error code. */
static int copy_row(struct nsys_stream *s, batch *b)
{
	nsys_cell *cell = b->cells + (size_t)b->n * (size_t)s->ncols;

	for (int i = 0; i < s->ncols; i++, cell++) {
		int flags = s->cols[i].flags;

		cell->type = sqlite3_column_type(s->st, i);
		cell->by_id = 0;
		if (cell->type == SQLITE_NULL)
			continue;
		if (flags & (NSYS_STR | NSYS_TEXT)) {
			const char *t = NULL;
			size_t len;
			int rc;

			if (flags & NSYS_STR) {
				if ((rc = name_of(s, i, cell->type, &t)) != 0)
					return rc;
				if (t == NULL) {
					cell->type = SQLITE_NULL;
					continue;
				}
				cell->by_id = cell->type == SQLITE_INTEGER;
				cell->str_id = sqlite3_column_int64(s->st, i);
				cell->type = SQLITE_TEXT;
			} else if ((t = (const char *)sqlite3_column_text(s->st, i)) == NULL) {
				return SQLITE_NOMEM;
			}
			len = strlen(t);
			if (b->text_len + len + 1 > b->text_cap) {
				size_t cap = b->text_cap ? b->text_cap : 4096;
				char *p;

				while (cap < b->text_len + len + 1)
					cap *= 2;
				if ((p = realloc(b->text, cap)) == NULL)
					return SQLITE_NOMEM;
				b->text = p;
				b->text_cap = cap;
			}
			memcpy(b->text + b->text_len, t, len + 1);
			cell->v.text = b->text_len;
			b->text_len += len + 1;
		} else if (flags & NSYS_REAL) {
			cell->v.d = sqlite3_column_double(s->st, i);
		} else {
			cell->v.i = sqlite3_column_int64(s->st, i);
		}
	}
	b->n++;
	return 0;
}

/* Fills b from the statement; sets b->rc when the read ends in it. The counts are kept in a
 * copy here and stored once a batch: stored a row, they shared cache lines with what the
 * importer reads a row (its batch's count, the stream's ncols), and it missed on each (~4 % of
 * its time). */
static void fill(struct nsys_stream *s, batch *b)
{
	batch w = *b;
	int step_rc = s->step_rc;

	w.n = 0;
	w.text_len = 0;
	w.rc = 0;
	while (w.n < BATCH_ROWS && w.text_len < BATCH_TEXT) {
		if (step_rc != SQLITE_ROW) {
			w.rc = step_rc;
			break;
		}
		if ((w.rc = copy_row(s, &w)) != 0)
			break;
		step_rc = sqlite3_step(s->st);
	}
	s->step_rc = step_rc;
	*b = w;
}

static void *stream_thread(void *arg)
{
	struct nsys_stream *s = arg;

	for (;;) {
		batch *b;

		pthread_mutex_lock(&s->mu);
		while (!s->stop && s->full == BATCHES)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->stop) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		b = &s->b[(s->head + s->full) % BATCHES];
		pthread_mutex_unlock(&s->mu);

		fill(s, b);  /* b is this thread's until counted in full */

		pthread_mutex_lock(&s->mu);
		s->full++;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		if (b->rc != 0)
			return NULL;
	}
}

static void free_stream(struct nsys_stream *s)
{
	sqlite3_finalize(s->names);
	for (int i = 0; s->slots != NULL && i < NAME_SLOTS; i++)
		free(s->slots[i].text);
	free(s->slots);
	for (int i = 0; i < BATCHES; i++) {
		free(s->b[i].cells);
		free(s->b[i].text);
	}
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

struct nsys_stream *nsys_stream_start(sqlite3_stmt *st, const nsys_col *cols, int ncols,
				      int first_rc)
{
	struct nsys_stream *s = calloc(1, sizeof(*s));

	if (s == NULL || ncols <= 0) {
		free(s);
		return NULL;
	}
	s->st = st;
	s->cols = cols;
	s->ncols = ncols;
	s->step_rc = first_rc;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if ((s->slots = calloc(NAME_SLOTS, sizeof(name_slot))) == NULL) {
		free_stream(s);
		return NULL;
	}
	for (int i = 0; i < BATCHES; i++)
		if ((s->b[i].cells = calloc((size_t)BATCH_ROWS * (size_t)ncols,
					    sizeof(nsys_cell))) == NULL) {
			free_stream(s);
			return NULL;
		}
	if (pthread_create(&s->thread, NULL, stream_thread, s) != 0) {
		free_stream(s);
		return NULL;
	}
	return s;
}

int nsys_stream_next(struct nsys_stream *s, const nsys_cell **row, const char **texts)
{
	batch *b = s->cur;

	if (b == NULL || (s->next_row == b->n && b->rc == 0)) {
		pthread_mutex_lock(&s->mu);
		if (b != NULL) {  /* read: back to the thread */
			s->head = (s->head + 1) % BATCHES;
			s->full--;
			pthread_cond_broadcast(&s->cv);
		}
		while (s->full == 0)
			pthread_cond_wait(&s->cv, &s->mu);
		b = s->cur = &s->b[s->head];
		s->next_row = 0;
		pthread_mutex_unlock(&s->mu);
	}
	if (s->next_row < b->n) {
		*row = b->cells + (size_t)s->next_row++ * (size_t)s->ncols;
		*texts = b->text;
		return SQLITE_ROW;
	}
	*row = NULL;
	return b->rc;
}

void nsys_stream_stop(struct nsys_stream *s)
{
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	/* A step under way ends now; harmless when the thread has finished. */
	sqlite3_interrupt(sqlite3_db_handle(s->st));
	pthread_join(s->thread, NULL);
	free_stream(s);
}
