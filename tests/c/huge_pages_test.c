/* huge_pages_test.c - pq_huge_pages_exec (cli/huge_pages.c): the program runs again, once, with
 * glibc's malloc asking for transparent huge pages, and its memory then comes in them; a
 * GLIBC_TUNABLES of the user's is kept; nothing happens where the kernel or glibc gives none.
 *
 * The test runs itself as the child ("child" argument): each image of it appends an "x" to
 * PQ_TEST_IMAGES before calling the function, then the last image prints the variables and the
 * huge pages of 64 MiB it touched. What should happen is read here from the kernel's setting and
 * glibc's version, not from the code under test. */
#define _GNU_SOURCE
#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/huge_pages.h"
#include "tap.h"

/* AnonHugePages of this process, in KiB (-1 when it cannot be read). */
static long anon_huge_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int child(char **argv)
{
	const char *images = getenv("PQ_TEST_IMAGES"), *tunables;
	char more[64];
	size_t size = 64u << 20;
	volatile char *mem; /* volatile: the writes are kept, the pages touched */

	snprintf(more, sizeof(more), "%sx", images != NULL ? images : "");
	setenv("PQ_TEST_IMAGES", more, 1);
	pq_huge_pages_exec(argv);
	tunables = getenv("GLIBC_TUNABLES");
	if ((mem = malloc(size)) == NULL)
		return 1;
	for (size_t i = 0; i < size; i += 4096)
		mem[i] = 1;
	printf("%s|%s|%ld\n", tunables != NULL ? tunables : "-", getenv("PQ_TEST_IMAGES"),
	       anon_huge_kib());
	free((void *)mem);
	return 0;
}

/* The child's line with GLIBC_TUNABLES set to tunables (NULL: unset). */
static void run_child(const char *self, const char *tunables, char *out, size_t size)
{
	char cmd[4096];
	FILE *p;

	if (tunables != NULL)
		setenv("GLIBC_TUNABLES", tunables, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	unsetenv("PQ_TEST_IMAGES");
	snprintf(cmd, sizeof(cmd), "'%s' child", self);
	out[0] = '\0';
	if ((p = popen(cmd, "r")) != NULL) {
		if (fgets(out, (int)size, p) == NULL)
			out[0] = '\0';
		pclose(p);
	}
	out[strcspn(out, "\n")] = '\0';
	unsetenv("GLIBC_TUNABLES");
}

/* Whether the function should act here: THP "always" or "madvise", and glibc 2.35 or later. */
static int should_act(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";
	int major = 0, minor = 0;

	if (f != NULL) {
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	return (strstr(line, "[always]") != NULL || strstr(line, "[madvise]") != NULL) &&
	       sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 &&
	       (major > 2 || (major == 2 && minor >= 35));
}

int main(int argc, char **argv)
{
	char line[512], tunables[256], images[64], expect[512];
	long kib = -1;
	int act;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child(argv);
	act = should_act();
	printf("# transparent huge pages and the tunable %s here\n", act ? "are" : "are not");

	run_child(argv[0], NULL, line, sizeof(line));
	ok(sscanf(line, "%255[^|]|%63[^|]|%ld", tunables, images, &kib) == 3, "the child ran: %s",
	   line);
	is_str(tunables, act ? "glibc.malloc.hugetlb=1" : "-", "no tunables: the tunable is set");
	is_str(images, act ? "xx" : "x", "the program ran again once, not more");
#ifndef __SANITIZE_ADDRESS__ /* ASan's allocator is not glibc's malloc */
	if (act)
		ok(kib > 0, "64 MiB touched after it: %ld KiB of it in huge pages", kib);
#endif

	run_child(argv[0], "glibc.malloc.check=0", line, sizeof(line));
	snprintf(expect, sizeof(expect), "%s|%s|", act ? "glibc.malloc.check=0:glibc.malloc.hugetlb=1" :
		 "glibc.malloc.check=0", act ? "xx" : "x");
	ok(strncmp(line, expect, strlen(expect)) == 0,
	   "the user's tunables are kept, the tunable added after them: %s", line);

	run_child(argv[0], "glibc.malloc.hugetlb=0", line, sizeof(line));
	ok(strncmp(line, "glibc.malloc.hugetlb=0|x|", 25) == 0,
	   "a user's own choice of it stands, without running again: %s", line);

	run_child(argv[0], "", line, sizeof(line));
	snprintf(expect, sizeof(expect), "%s|%s|", act ? "glibc.malloc.hugetlb=1" : "",
		 act ? "xx" : "x");
	ok(strncmp(line, expect, strlen(expect)) == 0, "an empty GLIBC_TUNABLES: %s", line);
	return done_testing();
}
