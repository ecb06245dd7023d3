/* html_page.h - `profq html`: one self-contained HTML page (inline CSS and SVG, no script, no
 * reference outside the file) about a profile. Every figure on it is a canned report's row. */
#ifndef PQ_HTML_PAGE_H
#define PQ_HTML_PAGE_H

#include <stdio.h>

#include <sqlite3.h>

#include "error.h"

/* Writes the page about db (called `title` on the page) to out: every run, or only run_id when
 * run_id is not NULL (an unknown id is an error). Returns 0 or -1 with err set. */
int pq_html_page(sqlite3 *db, const char *title, const char *run_id, FILE *out, pq_error *err);

/* The sections of one run (html_sections.c); each writes nothing when the run has no such data
 * and returns 0, or -1 with err set. */
int pq_html_utilization(sqlite3 *db, const char *run, FILE *out, pq_error *err);
int pq_html_kernels(sqlite3 *db, const char *run, FILE *out, pq_error *err);
int pq_html_api(sqlite3 *db, const char *run, FILE *out, pq_error *err);
int pq_html_nvtx(sqlite3 *db, const char *run, FILE *out, pq_error *err);
int pq_html_steps(sqlite3 *db, const char *run, FILE *out, pq_error *err);
int pq_html_memory(sqlite3 *db, const char *run, FILE *out, pq_error *err);

#endif
