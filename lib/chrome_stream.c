/* chrome_stream.c - reading trace text (gz_reader.c) and finding JSON value boundaries. */
#include "chrome_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define READ_CHUNK (1u << 20)
#define MAX_DEPTH 1000    /* cJSON's own nesting limit (CJSON_NESTING_LIMIT) */

int pq_chrome_stream_open(pq_chrome_stream *s, const char *path, pq_error *err)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) == 0)
		s->file_size = (uint64_t)st.st_size;
	if (pq_gz_open(&s->gz, path) != 0)
		return pq_fail(err, "cannot open: %s", strerror(errno));
	s->cap = 2 * READ_CHUNK;
	s->buf = malloc(s->cap);
	if (s->buf == NULL)
		return pq_fail(err, "out of memory");
	return 0;
}

void pq_chrome_stream_close(pq_chrome_stream *s)
{
	pq_gz_close(&s->gz);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

int pq_chrome_stream_more(pq_chrome_stream *s, pq_error *err)
{
	pq_gz_reader *gz = &s->gz;
	unsigned long long at;
	long n;

	if (s->eof)
		return 0;
	if (s->pos > 0) {
		memmove(s->buf, s->buf + s->pos, s->len - s->pos);
		s->base += s->pos;
		s->len -= s->pos;
		s->pos = 0;
	}
	if (s->cap - s->len < READ_CHUNK) {
		size_t cap = s->cap * 2;
		char *b = realloc(s->buf, cap);

		if (b == NULL)
			return pq_fail(err, "out of memory (a single JSON value of %zu bytes)", s->len);
		s->buf = b;
		s->cap = cap;
	}
	n = pq_gz_read(gz, s->buf + s->len, READ_CHUNK);
	at = (unsigned long long)(s->base + s->len);
	switch (n) {
	case PQ_GZ_END:
		s->eof = 1;
		return 0;
	case PQ_GZ_READ_ERROR:
		return pq_fail(err, "read error at byte %llu: %s", at, strerror(gz->errnum));
	case PQ_GZ_TRUNCATED:
		return pq_fail(err, "truncated gzip data after %llu bytes of JSON: %s", at,
			       gz->reason);
	case PQ_GZ_CORRUPT:
		return pq_fail(err, "corrupt gzip data after %llu bytes of JSON: %s", at,
			       gz->reason);
	default:
		break;
	}
	s->len += (size_t)n;
	s->file_read = gz->file_read;
	return 1;
}

/* Bytes that end a run of plain string text, and bytes the value scanner acts on. A byte loop
 * over a table beats memchr on the short strings and numbers events are made of. */
static const unsigned char string_stop[256] = { ['"'] = 1, ['\\'] = 1 };
static const unsigned char structural[256] = {
	['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1, [':'] = 1, [','] = 1,
};

/* Index of the closing quote of the string whose opening quote is p[i - 1], or n. Most of a
 * trace's bytes are in strings (names, call stacks of hundreds of bytes), where a byte loop was a
 * third of the parsing thread's time: with SSE2 (every x86-64) sixteen bytes are looked at at
 * once for a quote or a backslash. */
static size_t string_end(const char *p, size_t n, size_t i)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
#endif

	while (i < n) {
#ifdef __SSE2__
		if (i + 16 <= n) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			unsigned m = (unsigned)_mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));

			if (m == 0) {
				i += 16;
				continue;
			}
			i += (size_t)__builtin_ctz(m);
		} else
#endif
		if (!string_stop[(unsigned char)p[i]]) {
			i++;
			continue;
		}
		if (p[i] == '"')
			return i;
		i += 2; /* a backslash: the byte after it is never the end */
	}
	return n;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* End of a number or literal (true, false, null) starting at p[0]. */
static enum pq_chrome_scan scan_scalar(const char *p, size_t n, int at_eof, size_t *len)
{
	size_t i = 0;

	while (i < n && !is_ws(p[i]) && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ':')
		i++;
	if (i == n && !at_eof)
		return PQ_SCAN_MORE;
	if (i == 0) {
		*len = 0;
		return PQ_SCAN_BAD;
	}
	*len = i;
	return PQ_SCAN_OK;
}

/* Records the members of one object as the scan passes through it: the top-level object's, and
 * the "args" object's (offsets from that object's first byte). */
typedef struct recorder {
	pq_chrome_members *m;
	pq_chrome_member *cur;   /* the member whose value is being scanned (NULL: not recorded) */
	size_t base;             /* where the object starts in the text */
	size_t val_start;        /* where cur's value starts in the text */
	int expect_key, in_value;
} recorder;

static void record_start(recorder *r, pq_chrome_members *m, size_t base)
{
	*r = (recorder){ .m = m, .base = base, .expect_key = 1 };
	m->n = 0;
	m->truncated = 0;
}

/* A string at the object's level, p[i] its opening quote and p[e] its closing one. */
static void record_string(recorder *r, size_t i, size_t e)
{
	if (!r->expect_key)
		return;
	if (r->m->n < PQ_CHROME_MAX_MEMBERS) {
		r->cur = &r->m->m[r->m->n++];
		r->cur->key = (uint32_t)(i + 1 - r->base);
		r->cur->key_len = (uint32_t)(e - i - 1);
		r->cur->val = r->cur->val_len = 0;
	} else {
		r->m->truncated = 1;
		r->cur = NULL;
	}
	r->expect_key = 0;
}

/* A colon at the object's level, at p[i]. */
static void record_colon(recorder *r, const char *p, size_t n, size_t i)
{
	size_t v = i + 1;

	while (v < n && is_ws(p[v]))
		v++;
	r->in_value = 1;
	r->val_start = v;
	if (r->cur != NULL)
		r->cur->val = (uint32_t)(v - r->base);
}

/* The end of a value at p[i] (a comma, or the object's closing brace), trimmed of whitespace. */
static void record_value_end(recorder *r, const char *p, size_t i)
{
	if (r->in_value && r->cur != NULL) {
		while (i > r->val_start && is_ws(p[i - 1]))
			i--;
		r->cur->val_len = (uint32_t)(i - r->val_start);
	}
}

static void record_comma(recorder *r, const char *p, size_t i)
{
	record_value_end(r, p, i);
	r->in_value = 0;
	r->expect_key = 1;
	r->cur = NULL;
}

/* Whether the object opening at p[i], one level down, is the value of the top-level member being
 * recorded and that member is "args". */
static int opens_args(const recorder *top, const char *p, size_t i)
{
	const pq_chrome_member *c = top->cur;

	return c != NULL && top->in_value && c->val == i && c->key_len == 4 &&
	       memcmp(p + c->key, "args", 4) == 0;
}

enum pq_chrome_scan pq_chrome_scan_event(const char *p, size_t n, int at_eof, size_t *len,
					 pq_chrome_members *m, pq_chrome_args_members *args)
{
	unsigned char stack[MAX_DEPTH];
	size_t i = 0;
	int depth = 0, in_args = 0;
	recorder top = { 0 }, inner = { 0 };
	recorder *r = NULL;      /* the object whose members are recorded here, if any */

	if (args != NULL)
		args->member = -1;
	if (n == 0)
		return at_eof ? (*len = 0, PQ_SCAN_BAD) : PQ_SCAN_MORE;
	if (p[0] == '"') {
		i = string_end(p, n, 1);
		if (i == n)
			return at_eof ? (*len = n, PQ_SCAN_BAD) : PQ_SCAN_MORE;
		*len = i + 1;
		return PQ_SCAN_OK;
	}
	if (p[0] != '{' && p[0] != '[')
		return scan_scalar(p, n, at_eof, len);
	if (m != NULL) {
		m->n = 0;
		m->truncated = 0;
	} else {
		args = NULL; /* args are found through the top-level members */
	}
	for (; i < n; i++) {
		char c;

		while (i < n && !structural[(unsigned char)p[i]])
			i++;
		if (i == n)
			break;
		c = p[i];
		switch (c) {
		case '"': {
			size_t e = string_end(p, n, i + 1);

			if (e == n)
				goto more;
			if (r != NULL)
				record_string(r, i, e);
			i = e;
			break;
		}
		case '{':
		case '[':
			if (depth == MAX_DEPTH) {
				*len = i;
				return PQ_SCAN_BAD;
			}
			stack[depth++] = (unsigned char)c;
			if (depth == 1 && c == '{' && m != NULL) {
				record_start(&top, m, 0);
				r = &top;
			} else if (depth == 2 && c == '{' && args != NULL && r == &top &&
				   opens_args(&top, p, i)) {
				/* a later "args" object replaces an earlier one, as for its reader */
				record_start(&inner, &args->m, i);
				args->member = (int)(top.cur - m->m);
				in_args = 1;
				r = &inner;
			} else {
				r = NULL;
			}
			break;
		case '}':
		case ']':
			if (depth == 0 || stack[depth - 1] != (c == '}' ? '{' : '[')) {
				*len = i;
				return PQ_SCAN_BAD;
			}
			if (r != NULL)
				record_value_end(r, p, i);
			if (depth == 2)
				in_args = 0;
			if (--depth == 0) {
				*len = i + 1;
				return PQ_SCAN_OK;
			}
			r = depth == 1 && stack[0] == '{' && m != NULL ? &top
			    : depth == 2 && in_args ? &inner : NULL;
			break;
		case ':':
			if (r != NULL)
				record_colon(r, p, n, i);
			/* (invalid JSON) a second value for the args member: the object recorded
			 * is no longer its value */
			if (r == &top && args != NULL && top.cur != NULL &&
			    args->member == (int)(top.cur - m->m))
				args->member = -1;
			break;
		case ',':
			if (r != NULL)
				record_comma(r, p, i);
			break;
		default:
			break;
		}
	}
more:
	if (at_eof) {
		*len = n;
		return PQ_SCAN_BAD;
	}
	return PQ_SCAN_MORE;
}

enum pq_chrome_scan pq_chrome_scan_value(const char *p, size_t n, int at_eof, size_t *len,
					 pq_chrome_members *m)
{
	return pq_chrome_scan_event(p, n, at_eof, len, m, NULL);
}

size_t pq_chrome_minify(const char *p, size_t n, char *out)
{
	size_t i = 0, o = 0;

	while (i < n) {
		char c = p[i];

		if (c == '"') {
			size_t e = string_end(p, n, i + 1);
			size_t end = e < n ? e + 1 : n;

			memcpy(out + o, p + i, end - i);
			o += end - i;
			i = end;
		} else {
			if (!is_ws(c))
				out[o++] = c;
			i++;
		}
	}
	return o;
}
