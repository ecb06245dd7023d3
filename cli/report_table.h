/* report_table.h - a canned report's rows in memory, read by column name (never by position, so
 * added or reordered columns do not break a reader). */
#ifndef PQ_REPORT_TABLE_H
#define PQ_REPORT_TABLE_H

#include <sqlite3.h>

#include "cli.h"

typedef struct pq_cell {
	int type;     /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT or SQLITE_NULL (blobs as text) */
	double num;   /* the value as a number (0 for NULL, strtod of text) */
	char *text;   /* the value as text (NULL for NULL) */
} pq_cell;

typedef struct pq_table {
	int ncols, nrows;
	char **names;    /* ncols column names */
	pq_cell *cells;  /* nrows * ncols, row-major */
} pq_table;

/* Runs the canned report `name` (queries/<name>.sql as embedded) with params, keeping the last
 * statement's rows in *t. Returns 0, or -1 with err set (t is then empty). */
int pq_table_report(sqlite3 *db, const char *name, const pq_params *params, pq_table *t,
		    pq_error *err);

/* Runs one SQL statement with params into *t. Returns 0 or -1 with err set. */
int pq_table_sql(sqlite3 *db, const char *sql, const pq_params *params, pq_table *t,
		 pq_error *err);

/* The index of the column called name, or -1. */
int pq_table_col(const pq_table *t, const char *name);

/* The cell at (row, column name); a NULL cell when the column does not exist. */
const pq_cell *pq_table_get(const pq_table *t, int row, const char *name);

void pq_table_free(pq_table *t);

#endif
