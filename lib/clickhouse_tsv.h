/* clickhouse_tsv.h - building TabSeparated rows for ClickHouse INSERTs. */
#ifndef PQ_CLICKHOUSE_TSV_H
#define PQ_CLICKHOUSE_TSV_H

#include <stddef.h>

#include <sqlite3.h>

/* A growing buffer; zero-initialize it, free(data) when done. The functions return 0, or -1 when
 * out of memory (the buffer is then unchanged). */
typedef struct pq_tsv {
	char *data;
	size_t len, cap;
} pq_tsv;

/* n bytes as they are (separators, numbers, text already escaped). */
int pq_tsv_raw(pq_tsv *t, const char *s, size_t n);

/* Text escaped as TabSeparated reads it: backslash, tab, newline, carriage return and NUL. */
int pq_tsv_text(pq_tsv *t, const unsigned char *s, size_t n);

/* Column i of st's current row: NULL as \N, integers exactly, reals with 17 digits, the rest as
 * escaped text. */
int pq_tsv_value(pq_tsv *t, sqlite3_stmt *st, int i);

#endif
