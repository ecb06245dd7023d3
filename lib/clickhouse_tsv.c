/* clickhouse_tsv.c - rows in ClickHouse's TabSeparated format, in a growing buffer. */
#include "clickhouse_tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(pq_tsv *t, size_t n)
{
	if (t->len + n <= t->cap)
		return 0;
	size_t cap = t->cap ? t->cap : (1u << 20);
	while (cap < t->len + n)
		cap *= 2;
	char *p = realloc(t->data, cap);
	if (p == NULL)
		return -1;
	t->data = p;
	t->cap = cap;
	return 0;
}

int pq_tsv_raw(pq_tsv *t, const char *s, size_t n)
{
	if (reserve(t, n) != 0)
		return -1;
	memcpy(t->data + t->len, s, n);
	t->len += n;
	return 0;
}

int pq_tsv_text(pq_tsv *t, const unsigned char *s, size_t n)
{
	if (reserve(t, 2 * n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *o = t->data + t->len;
		switch (s[i]) {
		case '\\': o[0] = '\\'; o[1] = '\\'; t->len += 2; break;
		case '\t': o[0] = '\\'; o[1] = 't'; t->len += 2; break;
		case '\n': o[0] = '\\'; o[1] = 'n'; t->len += 2; break;
		case '\r': o[0] = '\\'; o[1] = 'r'; t->len += 2; break;
		case '\0': o[0] = '\\'; o[1] = '0'; t->len += 2; break;
		default: o[0] = (char)s[i]; t->len += 1; break;
		}
	}
	return 0;
}

int pq_tsv_value(pq_tsv *t, sqlite3_stmt *st, int i)
{
	char num[40];
	int n;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return pq_tsv_raw(t, "\\N", 2);
	case SQLITE_INTEGER:
		n = snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(st, i));
		return pq_tsv_raw(t, num, (size_t)n);
	case SQLITE_FLOAT:
		n = snprintf(num, sizeof num, "%.17g", sqlite3_column_double(st, i));
		return pq_tsv_raw(t, num, (size_t)n);
	default: {
		const unsigned char *s = sqlite3_column_text(st, i);
		return pq_tsv_text(t, s ? s : (const unsigned char *)"", (size_t)sqlite3_column_bytes(st, i));
	}
	}
}
