/* meter.c - progress lines on stderr (see meter.h). */
#include "meter.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "text.h"

#define REDRAW_NS 250000000     /* at most 4 redraws a second */
#define QUERY_QUIET_NS 1000000000 /* a query shows progress once it has run this long */
#define QUERY_STEPS 100000      /* SQLite VM steps between looks at the clock */

static enum pq_meter_mode mode = PQ_METER_AUTO;

void pq_meter_set_mode(enum pq_meter_mode m)
{
	mode = m;
}

enum pq_meter_mode pq_meter_mode(void)
{
	return mode;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void pq_meter_start(pq_meter *m, const char *what)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->what, sizeof(m->what), "%s", what);
	m->tty = isatty(STDERR_FILENO);
	m->live = mode == PQ_METER_ON || (mode == PQ_METER_AUTO && m->tty);
	m->phase = -1;
	m->start_ns = now_ns();
}

double pq_meter_seconds(const pq_meter *m)
{
	return (double)(now_ns() - m->start_ns) / 1e9;
}

/* One progress line: in place on a terminal (cut to its width), else a line of its own. */
static void draw(pq_meter *m, const char *text)
{
	struct winsize ws;
	size_t cols = 0, width, n;
	int cut;

	if (m->tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		cols = (size_t)ws.ws_col - 1;   /* the last column would wrap on some terminals */
	if (!m->tty) {
		fprintf(stderr, "%s\n", text);
		return;
	}
	n = cols > 0 ? pq_text_fit(text, cols, &width, &cut) : strlen(text);
	fprintf(stderr, "\r\033[K%.*s%s", (int)n, text, cols > 0 && cut ? "\xe2\x80\xa6" : "");
	fflush(stderr);
	m->shown = 1;
}

void pq_meter_update(void *meter, enum pq_phase phase, uint64_t done, uint64_t total)
{
	static const char *const names[] = {
		[PQ_PHASE_READ] = "reading", [PQ_PHASE_WRITE] = "writing",
		[PQ_PHASE_INDEX] = "building indexes", [PQ_PHASE_COMMIT] = "committing",
	};
	pq_meter *m = meter;
	char text[512];
	int64_t t;

	if (!m->live)
		return;
	t = now_ns();
	/* Each phase's first and last step are drawn; in between, at most 4 times a second. */
	if ((int)phase == m->phase &&
	    (done == m->done || (t - m->last_ns < REDRAW_NS && !(total > 0 && done == total))))
		return;
	m->phase = (int)phase;
	m->done = done;
	m->last_ns = t;
	if (phase == PQ_PHASE_INDEX && total > 0)
		snprintf(text, sizeof(text), "profq: %s: %s %llu of %llu", m->what, names[phase],
			 (unsigned long long)done, (unsigned long long)total);
	else if (total > 0)
		snprintf(text, sizeof(text), "profq: %s: %s %d%%", m->what, names[phase],
			 (int)(100 * (done < total ? done : total) / total));
	else
		snprintf(text, sizeof(text), "profq: %s: %s", m->what, names[phase]);
	draw(m, text);
}

pq_progress pq_meter_progress(pq_meter *m)
{
	pq_progress p = { pq_meter_update, m };

	return p;
}

void pq_meter_stop(pq_meter *m)
{
	if (m->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	m->shown = 0;
	m->live = 0;
}

/* SQLite's progress handler: the elapsed time, once the query has run QUERY_QUIET_NS. */
static int query_tick(void *meter)
{
	pq_meter *m = meter;
	int64_t t = now_ns();
	char text[320];

	if (t - m->start_ns < QUERY_QUIET_NS || t - m->last_ns < REDRAW_NS)
		return 0;
	m->last_ns = t;
	snprintf(text, sizeof(text), "profq: %s: %.0f s", m->what, (double)(t - m->start_ns) / 1e9);
	draw(m, text);
	return 0;
}

void pq_meter_watch(pq_meter *m, sqlite3 *db)
{
	pq_meter_start(m, "running query");
	if (m->live)
		sqlite3_progress_handler(db, QUERY_STEPS, query_tick, m);
}

void pq_meter_unwatch(pq_meter *m, sqlite3 *db)
{
	if (m->live)
		sqlite3_progress_handler(db, 0, NULL, NULL);
	pq_meter_stop(m);
}
