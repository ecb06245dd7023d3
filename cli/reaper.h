/* reaper.h - `profq record` waits for the command and for everything it leaves behind.
 *
 * Like Nsight Systems' default --wait=all: profq makes itself a child subreaper
 * (prctl(PR_SET_CHILD_SUBREAPER), Linux >= 3.4) before starting the command, so a descendant whose
 * parent exits is reparented to profq instead of init; profq reaps every such orphan and the run
 * is finished only when no descendant remains, since until then they may still be writing rows.
 * The exit status stays the direct child's.
 */
#ifndef PQ_REAPER_H
#define PQ_REAPER_H

#include <sys/types.h>

/* Makes this process the subreaper of its future descendants. 0, or -1 with errno set (profq then
 * only waits for the direct child and its own children, as before). */
int pq_reaper_begin(void);

/* The command's pid, for signal forwarding (0: none yet). */
void pq_reaper_set_direct(pid_t pid);

/* Waits until this process has no child left. *status gets the direct child's wait status;
 * returns how many other processes (orphaned descendants) were reaped. */
long pq_reaper_wait_all(pid_t direct, int *status);

/* Async-signal-safe: sends sig to the direct child and to every other child of this process (the
 * orphaned descendants still running), found by their parent pid in /proc. */
void pq_reaper_forward(int sig);

#endif
