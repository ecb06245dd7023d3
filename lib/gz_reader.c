/* gz_reader.c - a file's bytes, decompressed when it is gzip (see gz_reader.h). */
#include "gz_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <isa-l/igzip_lib.h>

#define IN_CHUNK (256u << 10)

int pq_gz_open(pq_gz_reader *r, const char *path)
{
	unsigned char magic[2];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	r->has_fd = r->fd >= 0;
	if (r->fd < 0)
		return -1;
	do
		n = pread(r->fd, magic, 2, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	r->gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (!r->gzip)
		return 0;
	r->inf = malloc(sizeof(*r->inf));
	r->in = malloc(IN_CHUNK);
	if (r->inf == NULL || r->in == NULL) {
		errno = ENOMEM;
		return -1;
	}
	r->in_cap = IN_CHUNK;
	isal_inflate_init(r->inf);
	r->inf->crc_flag = ISAL_GZIP;
	r->inf->next_in = r->in;
	r->inf->avail_in = 0;
	return 0;
}

void pq_gz_close(pq_gz_reader *r)
{
	if (r->has_fd)
		close(r->fd);
	free(r->inf);
	free(r->in);
	memset(r, 0, sizeof(*r));
}

/* Reads into buf; the count, 0 at the end of the file, or PQ_GZ_READ_ERROR. */
static long read_file(pq_gz_reader *r, void *buf, size_t n)
{
	ssize_t got;

	do
		got = read(r->fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		r->errnum = errno;
		return PQ_GZ_READ_ERROR;
	}
	r->file_read += (uint64_t)got;
	return (long)got;
}

/* Appends file bytes after the compressed ones not yet inflated (moved to the front). */
static int fill(pq_gz_reader *r)
{
	struct inflate_state *s = r->inf;
	long got;

	if (s->avail_in > 0 && s->next_in != r->in)
		memmove(r->in, s->next_in, s->avail_in);
	s->next_in = r->in;
	got = read_file(r, r->in + s->avail_in, r->in_cap - s->avail_in);
	if (got < 0)
		return (int)got;
	if (got == 0)
		r->in_eof = 1;
	s->avail_in += (uint32_t)got;
	return 0;
}

/* ISA-L's errors in zlib's words (the importer's messages and tests use them). */
static const char *corrupt_reason(int rc)
{
	switch (rc) {
	case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
	case ISAL_INVALID_WRAPPER: return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
	case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
	case ISAL_NEED_DICT: return "need dictionary";
	default: return "invalid compressed data";
	}
}

/* After a member: 1 when another begins, 0 when the file ends (or only other bytes follow,
 * which zlib ignores too), <0 on a read error. */
static int next_member(pq_gz_reader *r)
{
	struct inflate_state *s = r->inf;
	unsigned char *at;
	uint32_t left;
	int rc;

	while (s->avail_in < 2 && !r->in_eof)
		if ((rc = fill(r)) != 0)
			return rc;
	if (s->avail_in < 2 || s->next_in[0] != 0x1f || s->next_in[1] != 0x8b)
		return 0;
	at = s->next_in;
	left = s->avail_in;
	isal_inflate_reset(s);
	s->crc_flag = ISAL_GZIP;
	s->next_in = at;
	s->avail_in = left;
	r->member_done = 0;
	return 1;
}

long pq_gz_read(pq_gz_reader *r, char *buf, size_t n)
{
	struct inflate_state *s = r->inf;
	uint32_t want = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n, in_before;
	int rc;

	if (!r->gzip)
		return read_file(r, buf, n);
	s->next_out = (uint8_t *)buf;
	s->avail_out = want;
	while (s->avail_out == want) {
		if (r->member_done) {
			if ((rc = next_member(r)) <= 0)
				return rc;
			continue;
		}
		if (s->avail_in == 0) {
			if (r->in_eof) {
				r->reason = "unexpected end of file";
				return PQ_GZ_TRUNCATED;
			}
			if ((rc = fill(r)) != 0)
				return rc;
			continue;
		}
		in_before = s->avail_in;
		rc = isal_inflate(s);
		if (rc < 0 || (s->avail_in == in_before && s->avail_out == want &&
			       s->block_state != ISAL_BLOCK_FINISH)) {  /* no progress: never loop */
			r->reason = corrupt_reason(rc);
			return PQ_GZ_CORRUPT;
		}
		if (s->block_state == ISAL_BLOCK_FINISH)
			r->member_done = 1;
	}
	return (long)(want - s->avail_out);
}
