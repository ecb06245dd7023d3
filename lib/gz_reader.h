/* gz_reader.h - a file's bytes, decompressed when it is gzip.
 *
 * gzip data is inflated with ISA-L (libisal-dev, igzip), ~3x faster than zlib here (300 MB of
 * trace text: 0.09 s against 0.28 s); the Chrome importer's reading thread paid zlib's time on
 * every byte. zlib's reading rules are kept: members are read one after another, bytes after a
 * member that do not begin another are ignored, and a member cut short is an error. Any other
 * file is read as it is.
 */
#ifndef PQ_GZ_READER_H
#define PQ_GZ_READER_H

#include <stddef.h>
#include <stdint.h>

enum pq_gz_result { PQ_GZ_END = 0, PQ_GZ_READ_ERROR = -1, PQ_GZ_TRUNCATED = -2,
	PQ_GZ_CORRUPT = -3 };

typedef struct pq_gz_reader {
	int fd, has_fd;
	int gzip;                    /* the file begins with gzip's magic bytes */
	struct inflate_state *inf;   /* gzip: ISA-L's state */
	unsigned char *in;           /* gzip: compressed bytes read, not yet inflated */
	size_t in_cap;
	int in_eof;                  /* the file has given its last byte */
	int member_done;             /* the last member ended; another may follow */
	uint64_t file_read;          /* bytes of the file read so far */
	const char *reason;          /* PQ_GZ_TRUNCATED / PQ_GZ_CORRUPT: why, as zlib words it */
	int errnum;                  /* PQ_GZ_READ_ERROR: errno */
} pq_gz_reader;

/* Opens path: 0, or -1 with errno set. pq_gz_close() it either way. */
int pq_gz_open(pq_gz_reader *r, const char *path);
void pq_gz_close(pq_gz_reader *r);

/* Reads up to n bytes of text into buf: how many (at least 1), PQ_GZ_END at the end, or a
 * negative pq_gz_result. */
long pq_gz_read(pq_gz_reader *r, char *buf, size_t n);

#endif
