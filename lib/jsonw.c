/* jsonw.c - streamed JSON output: buffer, escaping, exact microseconds, gzip, temp + rename. */
#include "jsonw.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "put_int.h"

static void fail(pq_jw *w, const char *what)
{
	if (!w->failed) {
		w->failed = 1;
		snprintf(w->why, sizeof(w->why), "%s", what);
	}
}

static void flush(pq_jw *w)
{
	if (w->n == 0 || w->failed) {
		w->n = 0;
		return;
	}
	if (w->gz != NULL) {
		if (gzwrite((gzFile)w->gz, w->buf, (unsigned)w->n) != (int)w->n)
			fail(w, "gzip write failed");
	} else if (fwrite(w->buf, 1, w->n, w->f) != w->n) {
		fail(w, strerror(errno));
	}
	w->n = 0;
}

int pq_jw_open(pq_jw *w, const char *path, int gzip, pq_error *err)
{
	size_t len;
	int fd;
	mode_t mask;

	memset(w, 0, offsetof(pq_jw, buf));
	if (strcmp(path, "-") == 0) {
		w->f = stdout;
		return 0;
	}
	len = strlen(path);
	w->path = strdup(path);
	w->tmp = malloc(len + 16);
	if (w->path == NULL || w->tmp == NULL) {
		free(w->path);
		free(w->tmp);
		return pq_fail(err, "out of memory");
	}
	snprintf(w->tmp, len + 16, "%s.tmp.XXXXXX", path);
	fd = mkstemp(w->tmp);
	if (fd < 0) {
		pq_fail(err, "%s: %s", path, strerror(errno));
		free(w->path);
		free(w->tmp);
		return -1;
	}
	/* mkstemp makes it 0600; the result gets what a plain create would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		/* not fatal: the file stays private */
	}
	if (gzip) {
		w->gz = gzdopen(fd, "wb6");
		if (w->gz == NULL)
			close(fd);
	} else {
		w->f = fdopen(fd, "wb");
		if (w->f == NULL)
			close(fd);
	}
	if (w->gz == NULL && w->f == NULL) {
		unlink(w->tmp);
		free(w->path);
		free(w->tmp);
		return pq_fail(err, "%s: cannot open for writing", path);
	}
	return 0;
}

static void close_out(pq_jw *w)
{
	if (w->gz != NULL) {
		if (gzclose((gzFile)w->gz) != Z_OK)
			fail(w, "gzip close failed");
		w->gz = NULL;
	} else if (w->f != NULL && w->f != stdout) {
		if (fclose(w->f) != 0)
			fail(w, strerror(errno));
		w->f = NULL;
	} else if (w->f == stdout) {
		if (fflush(stdout) != 0)
			fail(w, strerror(errno));
		w->f = NULL;
	}
}

int pq_jw_finish(pq_jw *w, pq_error *err)
{
	int rc = 0;

	flush(w);
	if (!w->failed && w->f != NULL && w->f != stdout && fflush(w->f) != 0)
		fail(w, strerror(errno));
	close_out(w);
	if (w->failed) {
		rc = pq_fail(err, "%s: %s", w->path ? w->path : "standard output", w->why);
		if (w->tmp != NULL)
			unlink(w->tmp);
	} else if (w->tmp != NULL && rename(w->tmp, w->path) != 0) {
		rc = pq_fail(err, "%s: %s", w->path, strerror(errno));
		unlink(w->tmp);
	}
	free(w->path);
	free(w->tmp);
	w->path = w->tmp = NULL;
	return rc;
}

void pq_jw_abort(pq_jw *w)
{
	w->n = 0;
	w->failed = 1;
	close_out(w);
	if (w->tmp != NULL)
		unlink(w->tmp);
	free(w->path);
	free(w->tmp);
	w->path = w->tmp = NULL;
}

int pq_jw_failed(const pq_jw *w)
{
	return w->failed;
}

void pq_jw_raw(pq_jw *w, const char *s, size_t n)
{
	w->bytes += n;
	while (n > 0) {
		size_t k = sizeof(w->buf) - w->n;

		if (k > n)
			k = n;
		memcpy(w->buf + w->n, s, k);
		w->n += k;
		s += k;
		n -= k;
		if (w->n == sizeof(w->buf))
			flush(w);
	}
}

void pq_jw_lit(pq_jw *w, const char *s)
{
	pq_jw_raw(w, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void pq_jw_strn(pq_jw *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *run = p;
	char esc[8];

	pq_jw_raw(w, "\"", 1);
	while (p < end) {
		unsigned char ch = *p;
		size_t len;

		if (ch >= 0x20 && ch != '"' && ch != '\\' && ch < 0x80) {
			p++;
			continue;
		}
		if (ch >= 0x80 && (len = utf8_len(p, (size_t)(end - p))) > 0) {
			p += len;
			continue;
		}
		pq_jw_raw(w, (const char *)run, (size_t)(p - run));
		if (ch == '"')
			pq_jw_raw(w, "\\\"", 2);
		else if (ch == '\\')
			pq_jw_raw(w, "\\\\", 2);
		else if (ch == '\n')
			pq_jw_raw(w, "\\n", 2);
		else if (ch == '\t')
			pq_jw_raw(w, "\\t", 2);
		else if (ch == '\r')
			pq_jw_raw(w, "\\r", 2);
		else if (ch < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", ch);
			pq_jw_raw(w, esc, 6);
		} else {
			pq_jw_raw(w, "\\ufffd", 6); /* invalid UTF-8 */
		}
		p++;
		run = p;
	}
	pq_jw_raw(w, (const char *)run, (size_t)(p - run));
	pq_jw_raw(w, "\"", 1);
}

void pq_jw_str(pq_jw *w, const char *s)
{
	if (s == NULL)
		pq_jw_raw(w, "null", 4);
	else
		pq_jw_strn(w, s, strlen(s));
}

void pq_jw_int(pq_jw *w, int64_t v)
{
	char b[24];

	pq_jw_raw(w, b, pq_put_int(b, v));
}

void pq_jw_us(pq_jw *w, int64_t ns)
{
	char b[40];
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t us = mag / 1000, frac = mag % 1000;
	int n;

	if (frac == 0)
		n = snprintf(b, sizeof(b), "%s%" PRIu64, ns < 0 ? "-" : "", us);
	else if (frac % 100 == 0)
		n = snprintf(b, sizeof(b), "%s%" PRIu64 ".%" PRIu64, ns < 0 ? "-" : "", us, frac / 100);
	else if (frac % 10 == 0)
		n = snprintf(b, sizeof(b), "%s%" PRIu64 ".%02" PRIu64, ns < 0 ? "-" : "", us, frac / 10);
	else
		n = snprintf(b, sizeof(b), "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", us, frac);
	pq_jw_raw(w, b, (size_t)n);
}

void pq_jw_real(pq_jw *w, double v)
{
	char b[40];
	int n;

	if (!isfinite(v)) {
		pq_jw_raw(w, "null", 4);
		return;
	}
	n = snprintf(b, sizeof(b), "%.17g", v);
	/* %.17g of a short decimal can be long; use the shortest form that reads back equal. */
	for (int p = 1; p < 17; p++) {
		char t[40];
		int m = snprintf(t, sizeof(t), "%.*g", p, v);

		if (strtod(t, NULL) == v) {
			memcpy(b, t, (size_t)m + 1);
			n = m;
			break;
		}
	}
	pq_jw_raw(w, b, (size_t)n);
}
