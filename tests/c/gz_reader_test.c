/* gz_reader_test.c - lib/gz_reader.c against zlib, which writes every gzip file here and whose
 * gzread gives the expected text: members one after another, a header with a file name, bytes
 * after the last member ignored, a member cut short, a bad checksum, damaged data that never
 * hangs, a plain file read as it is. */
#include <stdlib.h>
#include <unistd.h>

#include <zlib.h>

#include "gz_reader.h"
#include "tap.h"

static char dir[] = "/tmp/pq_gz_reader.XXXXXX";

/* len bytes of trace-like text, with stretches of noise that do not compress */
static unsigned char *make_text(size_t len, uint32_t seed)
{
	unsigned char *t = malloc(len);

	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		t[i] = (i / 4096) % 5 == 4 ? (unsigned char)(seed >> 16)
					  : (unsigned char)"{\"ph\":\"X\",\"ts\":1.5},\n"[i % 22];
	}
	return t;
}

/* gzip of text (one member), with name in its header when not NULL; *out_len its size. */
static unsigned char *gzip_member(const unsigned char *text, size_t len, const char *name,
				  size_t *out_len)
{
	z_stream z;
	gz_header h;
	size_t cap = len + len / 100 + 1024;
	unsigned char *out = malloc(cap);

	memset(&z, 0, sizeof(z));
	memset(&h, 0, sizeof(h));
	if (out == NULL || deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	h.name = (Bytef *)(uintptr_t)name;
	if (name != NULL)
		deflateSetHeader(&z, &h);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(1);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

static const char *write_file(const char *name, const unsigned char *a, size_t na,
			      const unsigned char *b, size_t nb)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(a, 1, na, f) != na || (nb && fwrite(b, 1, nb, f) != nb) ||
	    fclose(f) != 0)
		exit(1);
	return path;
}

/* Reads path through gz_reader in chunk-byte reads: the text in *text (*len), the last result. */
static long read_all(const char *path, size_t chunk, unsigned char **text, size_t *len,
		     pq_gz_reader *r)
{
	size_t cap = 1 << 16;
	long n;

	*text = malloc(cap);
	*len = 0;
	if (pq_gz_open(r, path) != 0)
		return -100;
	for (;;) {
		if (*len + chunk > cap)
			*text = realloc(*text, cap = 2 * cap + chunk);
		n = pq_gz_read(r, (char *)*text + *len, chunk);
		if (n <= 0)
			return n;
		*len += (size_t)n;
	}
}

/* What zlib's gzread reads from path. */
static size_t zlib_text(const char *path, unsigned char *buf, size_t cap)
{
	gzFile g = gzopen(path, "rb");
	int n = gzread(g, buf, (unsigned)cap);

	gzclose(g);
	return n < 0 ? 0 : (size_t)n;
}

static void same_as_zlib(const char *what, const char *path, size_t chunk)
{
	pq_gz_reader r;
	unsigned char *text, *want = malloc(16 << 20);
	size_t len, want_len = zlib_text(path, want, 16 << 20);
	long rc = read_all(path, chunk, &text, &len, &r);

	is_int(rc, PQ_GZ_END, "%s: read to its end", what);
	ok(len == want_len && memcmp(text, want, len) == 0, "%s: zlib's text (%zu bytes)", what,
	   want_len);
	pq_gz_close(&r);
	free(text);
	free(want);
}

int main(void)
{
	size_t n1 = 3 << 20, n2 = 100000, g1, g2;
	unsigned char *t1 = make_text(n1, 1), *t2 = make_text(n2, 2);
	unsigned char *z1 = gzip_member(t1, n1, NULL, &g1), *z2 = gzip_member(t2, n2, "trace.json", &g2);
	unsigned char *both = malloc(g1 + g2);
	const char *path;
	pq_gz_reader r;
	unsigned char *text;
	size_t len;
	long rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	memcpy(both, z1, g1);
	memcpy(both + g1, z2, g2);

	path = write_file("one.gz", z1, g1, NULL, 0);
	same_as_zlib("one member", path, 1 << 20);
	same_as_zlib("one member, read 7777 bytes at a time", path, 7777);
	rc = read_all(path, 1 << 20, &text, &len, &r);
	ok(len == n1 && memcmp(text, t1, n1) == 0, "the text written");
	is_int((int64_t)r.file_read, (int64_t)g1, "every byte of the file read");
	pq_gz_close(&r);
	free(text);

	same_as_zlib("a file name in the header", write_file("named.gz", z2, g2, NULL, 0), 4096);
	same_as_zlib("two members", write_file("two.gz", z1, g1, z2, g2), 1 << 20);
	same_as_zlib("bytes after the last member", write_file("junk.gz", z2, g2,
			(const unsigned char *)"not gzip", 8), 1 << 20);
	same_as_zlib("a plain file", write_file("plain.json", t2, n2, NULL, 0), 1000);

	/* One byte of another member is bytes after the last member to zlib too. */
	same_as_zlib("a lone first byte of a member", write_file("cut.gz", both, g1 + 1, NULL, 0),
		     1 << 20);
	/* Cut short anywhere else in the second member: the first's text, then the error. */
	for (size_t cut = 2; cut < g2; cut += g2 / 7) {
		path = write_file("cut.gz", both, g1 + cut, NULL, 0);
		rc = read_all(path, 1 << 20, &text, &len, &r);
		ok(rc == PQ_GZ_TRUNCATED && r.reason != NULL &&
		   strcmp(r.reason, "unexpected end of file") == 0 && len >= n1 &&
		   memcmp(text, t1, n1) == 0,
		   "cut %zu bytes into the second member: truncated (%ld), after the first's text",
		   cut, rc);
		pq_gz_close(&r);
		free(text);
	}

	/* A wrong CRC-32 in the trailer. */
	z2[g2 - 8] ^= 0x55;
	rc = read_all(write_file("crc.gz", z2, g2, NULL, 0), 1 << 20, &text, &len, &r);
	ok(rc == PQ_GZ_CORRUPT && strcmp(r.reason, "incorrect data check") == 0,
	   "a bad checksum: corrupt, \"incorrect data check\" (%ld)", rc);
	pq_gz_close(&r);
	free(text);
	z2[g2 - 8] ^= 0x55;

	/* Damage anywhere in the data: an error or a different text, never a hang. */
	{
		int ended = 0, errors = 0;

		for (int k = 0; k < 300; k++) {
			size_t at = 10 + (size_t)k * 7919 % (g2 - 18);

			z2[at] ^= (unsigned char)(1u << (k % 8));
			rc = read_all(write_file("bad.gz", z2, g2, NULL, 0), 65536, &text, &len, &r);
			ended += rc <= 0 && rc != -100;
			errors += rc == PQ_GZ_CORRUPT || rc == PQ_GZ_TRUNCATED;
			pq_gz_close(&r);
			free(text);
			z2[at] ^= (unsigned char)(1u << (k % 8));
		}
		is_int(ended, 300, "300 damaged files: every read ends");
		ok(errors > 250, "%d of them with an error", errors);
	}

	is_int(pq_gz_open(&r, "/nonexistent/x.gz"), -1, "a missing file: -1");
	pq_gz_close(&r);

	unlink(write_file("x", t1, 0, NULL, 0));
	{
		const char *names[] = { "one.gz", "named.gz", "two.gz", "junk.gz", "plain.json",
					"cut.gz", "crc.gz", "bad.gz" };
		char p[128];

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
			unlink(p);
		}
	}
	rmdir(dir);
	free(t1);
	free(t2);
	free(z1);
	free(z2);
	free(both);
	return done_testing();
}
