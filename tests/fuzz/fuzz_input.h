/* fuzz_input.h - hands a fuzz input to code that reads a path: a file in /dev/shm (memory, not
 * disk) named after the process, rewritten for each input and removed at exit. A memfd's
 * /proc/self/fd/N name does not do: SQLite resolves the link to a name that cannot be opened. */
#ifndef PQ_FUZZ_INPUT_H
#define PQ_FUZZ_INPUT_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char pq_fuzz_path[64];

static void pq_fuzz_cleanup(void)
{
	unlink(pq_fuzz_path);
}

/* Writes data to the input file and returns its path; aborts when it cannot (no harness then). */
static inline const char *pq_fuzz_file(const uint8_t *data, size_t size)
{
	size_t done = 0;
	int fd;

	if (pq_fuzz_path[0] == '\0') {
		snprintf(pq_fuzz_path, sizeof(pq_fuzz_path), "%s/pq-fuzz-%ld",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
		atexit(pq_fuzz_cleanup);
	}
	fd = open(pq_fuzz_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t w = write(fd, data + done, size - done);
		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	close(fd);
	return pq_fuzz_path;
}

#endif
