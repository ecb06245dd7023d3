/* progress.h - how the library's long operations say how far they are. The library never prints:
 * it calls the function the caller gave, always from the thread that called into the library,
 * with the phase it is in and a count. Callers decide what to show and how often; the library
 * calls at most every few thousand rows, so a callback may read the clock each time.
 */
#ifndef PQ_PROGRESS_H
#define PQ_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

enum pq_phase {
	/* Reading the source. Chrome JSON: bytes of the file read (total: its size), rows written
	 * as events are read, in one pass. nsys export: tables checked and counted (total: how many). */
	PQ_PHASE_READ,
	/* Writing rows read from the source: nsys rows (total: the rows counted while reading). */
	PQ_PHASE_WRITE,
	/* Building the event tables' indexes: indexes built (total: how many). */
	PQ_PHASE_INDEX,
	/* Completing the run and committing it: done 0 when it starts (total 0). */
	PQ_PHASE_COMMIT,
};

typedef struct pq_progress {
	/* total is 0 when unknown. May be NULL. */
	void (*fn)(void *ctx, enum pq_phase phase, uint64_t done, uint64_t total);
	void *ctx;
} pq_progress;

/* Calls p->fn when there is one; p may be NULL. */
static inline void pq_progress_report(const pq_progress *p, enum pq_phase phase, uint64_t done,
				      uint64_t total)
{
	if (p != NULL && p->fn != NULL)
		p->fn(p->ctx, phase, done, total);
}

#endif
