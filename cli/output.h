/* output.h - printing query results as an aligned table, CSV or JSON. */
#ifndef PQ_OUTPUT_H
#define PQ_OUTPUT_H

#include <stdio.h>

#include <cJSON.h>
#include <sqlite3.h>

#include "error.h"

enum pq_format { PQ_FORMAT_TABLE, PQ_FORMAT_CSV, PQ_FORMAT_JSON };

/* "table", "csv" or "json"; returns -1 for anything else. */
int pq_format_parse(const char *text, enum pq_format *format);

/* Steps st to the end and prints its rows to out: a table with a header and a rule, aligned for a
 * terminal (numbers right, text left); CSV (RFC 4180) with a header row; or one JSON array of
 * objects, a row per line. A statement with no result columns prints nothing. */
int pq_print_rows(sqlite3_stmt *st, enum pq_format format, FILE *out, pq_error *err);

/* Steps st to the end and returns its rows as a JSON array of objects (caller frees with
 * cJSON_Delete), or NULL with err set. */
cJSON *pq_rows_to_json(sqlite3_stmt *st, pq_error *err);

#endif
