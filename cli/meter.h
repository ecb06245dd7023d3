/* meter.h - progress on stderr for imports, recordings and long queries.
 *
 * On a terminal (or with --progress) one line, "profq: <what>: <phase> NN%", redrawn in place at
 * most 4 times a second and whenever the phase changes, cut to the terminal's width, and cleared
 * at the end. With --progress off a terminal each redraw is a line of its own (a log), and
 * --quiet shows nothing. The library reports phases through pq_progress (lib/progress.h);
 * pq_meter_progress() is the callback that draws them.
 */
#ifndef PQ_METER_H
#define PQ_METER_H

#include <stdint.h>

#include <sqlite3.h>

#include "progress.h"

enum pq_meter_mode {
	PQ_METER_AUTO,    /* progress when stderr is a terminal; summaries always */
	PQ_METER_ON,      /* --progress: progress even off a terminal */
	PQ_METER_QUIET,   /* --quiet: nothing but errors */
};

/* The mode of this profq command (set once from its options; AUTO until then). */
void pq_meter_set_mode(enum pq_meter_mode mode);
enum pq_meter_mode pq_meter_mode(void);

typedef struct pq_meter {
	int live;            /* drawing progress */
	int tty;             /* stderr is a terminal: redraw in place */
	char what[256];      /* "importing trace.json" */
	int phase;           /* last phase drawn, -1 before the first */
	uint64_t done;       /* and its count */
	int64_t last_ns;     /* when the line was last drawn */
	int64_t start_ns;
	int shown;           /* a line is on the terminal, to clear */
} pq_meter;

/* Starts a meter for what (copied; "importing trace.json"), per the command's mode. */
void pq_meter_start(pq_meter *m, const char *what);

/* The library's callback, for pq_progress with ctx = the meter. */
void pq_meter_update(void *meter, enum pq_phase phase, uint64_t done, uint64_t total);
pq_progress pq_meter_progress(pq_meter *m);

/* Clears the line (on a terminal) and stops drawing. Safe to call twice. */
void pq_meter_stop(pq_meter *m);

/* Seconds since pq_meter_start(). */
double pq_meter_seconds(const pq_meter *m);

/* Long queries: after a second of running, "profq: running query: 3 s" until
 * pq_meter_unwatch(); nothing for a query that ends sooner. Uses db's progress handler. */
void pq_meter_watch(pq_meter *m, sqlite3 *db);
void pq_meter_unwatch(pq_meter *m, sqlite3 *db);

#endif
