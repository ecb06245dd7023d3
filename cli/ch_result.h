/* ch_result.h - a ClickHouse result (TSVWithNamesAndTypes) turned into an SQLite statement, so the
 * local reports' output code (output.h) prints ClickHouse reports in the same formats. */
#ifndef PQ_CH_RESULT_H
#define PQ_CH_RESULT_H

#include <sqlite3.h>

#include "error.h"

/* Loads text into a table of a new in-memory database and prepares a SELECT of its rows in order:
 * Int and UInt columns as integers, Float as reals, the rest as text, \N as NULL. The caller
 * finalizes *st and closes *db. */
int pq_ch_result_stmt(const char *text, sqlite3 **db, sqlite3_stmt **st, pq_error *err);

#endif
