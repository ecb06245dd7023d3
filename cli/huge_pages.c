/* huge_pages.c - a heavy command's memory in transparent huge pages.
 *
 * In the VMs profq is measured on a page fault costs 10-15 us of system time, and an import
 * touches fresh memory phase after phase (SQLite's page cache and sorter, the held rows, the
 * derived tables' arrays): 125 k faults and 1.5-1.9 s of system time for the 500 MB bench trace.
 * glibc's malloc can ask the kernel for 2 MiB pages (the glibc.malloc.hugetlb=1 tunable, glibc
 * 2.35 and later, honoured where transparent huge pages are "always" or "madvise"): 27-35 k
 * faults there and 10-25 % less wall time (bench/RESULTS.md, issue 15). glibc reads its tunables
 * only when a program starts, hence one exec of the program itself, made before anything is
 * opened. The variable stays in the environment, so a program the command started would inherit
 * it: the commands that call this (import, merge) start none.
 */
#define _GNU_SOURCE
#include "huge_pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#define TUNABLE "glibc.malloc.hugetlb"

#ifdef __GLIBC__
/* Whether this glibc knows the tunable (2.35 and later). */
static int glibc_has_tunable(void)
{
	int major = 0, minor = 0;

	return sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 &&
	       (major > 2 || (major == 2 && minor >= 35));
}

/* Whether the kernel gives transparent huge pages to a region that asks ("[always]" or
 * "[madvise]" selected; "[never]", or no such file, means none). */
static int kernel_gives_huge_pages(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";

	if (f == NULL)
		return 0;
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	return strstr(line, "[always]") != NULL || strstr(line, "[madvise]") != NULL;
}
#endif

void pq_huge_pages_exec(char **argv)
{
#ifdef __GLIBC__
	const char *old = getenv("GLIBC_TUNABLES");
	char *saved = NULL, *value = NULL;

	/* Set already: by the exec below, or by the user, whose choice stands. */
	if ((old != NULL && strstr(old, TUNABLE) != NULL) || !glibc_has_tunable() ||
	    !kernel_gives_huge_pages())
		return;
	/* A copy: setenv may free the string old points to. */
	if ((old != NULL && (saved = strdup(old)) == NULL) ||
	    asprintf(&value, "%s%s" TUNABLE "=1", saved != NULL ? saved : "",
		     saved != NULL && saved[0] != '\0' ? ":" : "") < 0) {
		free(saved);
		return;
	}
	if (setenv("GLIBC_TUNABLES", value, 1) == 0) {
		execv("/proc/self/exe", argv);
		/* No exec (no /proc, say): the command runs here, its environment as it was. */
		if (saved != NULL)
			setenv("GLIBC_TUNABLES", saved, 1);
		else
			unsetenv("GLIBC_TUNABLES");
	}
	free(value);
	free(saved);
#else
	(void)argv;
#endif
}
