/* huge_pages.h - a heavy command's memory in transparent huge pages (glibc's malloc tunable). */
#ifndef PQ_HUGE_PAGES_H
#define PQ_HUGE_PAGES_H

/* Runs the program again, with the same argv, asking glibc's malloc for transparent huge pages,
 * unless it already does (or GLIBC_TUNABLES says otherwise), the kernel gives none, or the C
 * library is not a glibc that has the tunable. Returns only when it did not: the command then
 * runs in this process as it would have. Call before anything else is open or started. */
void pq_huge_pages_exec(char **argv);

#endif
