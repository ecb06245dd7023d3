/* html_sections.c - the chart sections of the HTML report, one canned report each. Columns are
 * read by name, so a report that gains columns (run_id) still draws. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_page.h"
#include "html_text.h"
#include "report_table.h"
#include "svg_chart.h"

enum { TOP_N = 15 };

/* The report for one run (and at most limit rows when limit is not NULL). */
static int run_report(sqlite3 *db, const char *name, const char *run, const char *limit,
		      pq_table *t, pq_error *err)
{
	pq_params p = { 0 };

	pq_params_add(&p, "run", run);
	if (limit)
		pq_params_add(&p, "limit", limit);
	return pq_table_report(db, name, &p, t, err);
}

static void heading(FILE *out, const char *title, const char *report)
{
	fprintf(out, "<h3>%s <span class=\"src\">profq %s</span></h3>\n", title, report);
}

int pq_html_utilization(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_table t;
	double t0 = INFINITY, *x, *y;
	int start = 0;

	if (run_report(db, "gpu-util-timeline", run, NULL, &t, err) != 0)
		return -1;
	if (t.nrows == 0) {
		pq_table_free(&t);
		return 0;
	}
	if ((x = calloc((size_t)t.nrows, sizeof(double))) == NULL ||
	    (y = calloc((size_t)t.nrows, sizeof(double))) == NULL) {
		free(x);
		pq_table_free(&t);
		return pq_fail(err, "out of memory");
	}
	for (int i = 0; i < t.nrows; i++)
		if (pq_table_get(&t, i, "start_ns")->num < t0)
			t0 = pq_table_get(&t, i, "start_ns")->num;
	heading(out, "GPU utilization over time", "gpu-util-timeline");
	fputs("<p>Share of each interval in which the device ran at least one kernel, memcpy or "
	      "memset.</p>\n", out);
	/* One chart per device: the rows come ordered by device, then time. */
	for (int i = 1; i <= t.nrows; i++) {
		const pq_cell *d = pq_table_get(&t, start, "device");

		if (i < t.nrows && pq_table_get(&t, i, "device")->type == d->type &&
		    (d->text == NULL || strcmp(pq_table_get(&t, i, "device")->text, d->text) == 0))
			continue;
		char name[64];
		pq_series s = { name, x + start, y + start, i - start };

		for (int k = start; k < i; k++) {
			x[k] = ((pq_table_get(&t, k, "start_ns")->num +
				 pq_table_get(&t, k, "end_ns")->num) / 2 - t0) / 1e9;
			y[k] = pq_table_get(&t, k, "util_pct")->num;
		}
		snprintf(name, sizeof(name), "GPU %s", d->text ? d->text : "(unknown)");
		pq_svg_lines(out, &s, 1, "time since the first GPU operation (s)", "busy (%)", 100, 1,
			     140);
		start = i;
	}
	free(x);
	free(y);
	pq_table_free(&t);
	return 0;
}

/* Horizontal bars of the first TOP_N rows of a *-sum report: total_ns in ms, labelled by column
 * label_col (shortened by short_sql when given), with time_pct and the count column in the note. */
static int sum_bars(sqlite3 *db, const pq_table *t, const char *label_col, const char *count_col,
		    const char *one, const char *many, const char *short_sql, FILE *out,
		    pq_error *err)
{
	pq_bar bars[TOP_N];
	char notes[TOP_N][96], *labels[TOP_N] = { 0 };
	sqlite3_stmt *st = NULL;
	int n = t->nrows < TOP_N ? t->nrows : TOP_N, rc = 0;

	if (short_sql && sqlite3_prepare_v2(db, short_sql, -1, &st, NULL) != SQLITE_OK)
		return pq_fail(err, "%s", sqlite3_errmsg(db));
	for (int i = 0; i < n && rc == 0; i++) {
		const char *full = pq_table_get(t, i, label_col)->text;
		char dur[32], cnt[32];

		if (full == NULL)
			full = "(unnamed)";
		if (st) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, full, -1, SQLITE_STATIC);
			if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
			    (labels[i] = strdup((const char *)sqlite3_column_text(st, 0))) == NULL)
				rc = pq_fail(err, "out of memory");
		}
		pq_fmt_duration(dur, sizeof(dur), pq_table_get(t, i, "total_ns")->num);
		pq_fmt_count(cnt, sizeof(cnt), pq_table_get(t, i, count_col)->num);
		snprintf(notes[i], sizeof(notes[i]), "%s, %.1f %%, %s %s", dur,
			 pq_table_get(t, i, "time_pct")->num, cnt,
			 pq_table_get(t, i, count_col)->num == 1 ? one : many);
		bars[i] = (pq_bar){ labels[i] ? labels[i] : full, full, notes[i],
				    pq_table_get(t, i, "total_ns")->num / 1e6 };
	}
	sqlite3_finalize(st);
	if (rc == 0)
		pq_svg_hbars(out, bars, n, "total time (ms)");
	for (int i = 0; i < n; i++)
		free(labels[i]);
	return rc;
}

int pq_html_kernels(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_table t;
	int rc;

	if (run_report(db, "top-kernels", run, NULL, &t, err) != 0)
		return -1;
	if (t.nrows == 0) {
		pq_table_free(&t);
		return 0;
	}
	heading(out, "Top kernels by total GPU time", "top-kernels");
	fprintf(out, "<p>%d kernel names; the %d with the most time. Names are shortened; hover a bar "
		"for the whole name.</p>\n", t.nrows, t.nrows < TOP_N ? t.nrows : TOP_N);
	rc = sum_bars(db, &t, "name", "instances", "launch", "launches",
		      "SELECT kernel_short_name(?1)", out, err);
	pq_table_free(&t);
	return rc;
}

int pq_html_api(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_table t;
	int rc;

	if (run_report(db, "api-sum", run, NULL, &t, err) != 0)
		return -1;
	if (t.nrows == 0) {
		pq_table_free(&t);
		return 0;
	}
	heading(out, "Top CUDA API calls by total time", "api-sum");
	rc = sum_bars(db, &t, "name", "num_calls", "call", "calls", NULL, out, err);
	pq_table_free(&t);
	return rc;
}

int pq_html_nvtx(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_table t;
	int rc;

	if (run_report(db, "nvtx-sum", run, NULL, &t, err) != 0)
		return -1;
	if (t.nrows == 0) {
		pq_table_free(&t);
		return 0;
	}
	heading(out, "NVTX ranges by total time", "nvtx-sum");
	rc = sum_bars(db, &t, "range", "instances", "range", "ranges", NULL, out, err);
	pq_table_free(&t);
	return rc;
}

int pq_html_steps(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_table t;
	const char *parts[16], *cats[1024];
	char names[16][32];
	double *v;
	int np = 0, nc = 0;

	if (run_report(db, "step-breakdown", run, NULL, &t, err) != 0)
		return -1;
	/* The parts: every *_ns column but total_ns, in the report's order. */
	for (int c = 0; c < t.ncols && np < 16; c++) {
		size_t len = strlen(t.names[c]);

		if (len > 3 && strcmp(t.names[c] + len - 3, "_ns") == 0 &&
		    strcmp(t.names[c], "total_ns") != 0) {
			snprintf(names[np], sizeof(names[np]), "%.*s", (int)(len - 3), t.names[c]);
			parts[np] = names[np];
			np++;
		}
	}
	if ((v = calloc((size_t)(t.nrows + 1) * (size_t)(np + 1), sizeof(double))) == NULL) {
		pq_table_free(&t);
		return pq_fail(err, "out of memory");
	}
	for (int r = 0; r < t.nrows && nc < 1024; r++) {
		const char *step = pq_table_get(&t, r, "step")->text;
		char col[40];

		if (step == NULL || strcmp(step, "average") == 0)
			continue;
		cats[nc] = step;
		for (int p = 0; p < np; p++) {
			snprintf(col, sizeof(col), "%s_ns", parts[p]);
			v[nc * np + p] = pq_table_get(&t, r, col)->num / 1e6;
		}
		nc++;
	}
	if (nc > 0 && np > 0) {
		heading(out, "PyTorch step time breakdown", "step-breakdown");
		fputs("<p>Each step's time split by what ran (TensorBoard profiler's priorities: "
		      "kernel over memcpy over memset over communication over runtime over "
		      "dataloader over CPU).</p>\n", out);
		pq_svg_stacked(out, cats, nc, parts, np, v, "step", "time (ms)");
	}
	free(v);
	pq_table_free(&t);
	return 0;
}

int pq_html_memory(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_table t;
	pq_series s[16];
	double *x, *y, t0 = INFINITY, max = 0, scale;
	const char *unit;
	char label[48];
	int ns = 0;

	if (run_report(db, "memory-curve", run, NULL, &t, err) != 0)
		return -1;
	if (t.nrows == 0) {
		pq_table_free(&t);
		return 0;
	}
	if ((x = calloc((size_t)t.nrows, sizeof(double))) == NULL ||
	    (y = calloc((size_t)t.nrows, sizeof(double))) == NULL) {
		free(x);
		pq_table_free(&t);
		return pq_fail(err, "out of memory");
	}
	for (int i = 0; i < t.nrows; i++) {
		double ts = pq_table_get(&t, i, "ts_ns")->num, b = pq_table_get(&t, i, "allocated_bytes")->num;

		t0 = ts < t0 ? ts : t0;
		max = b > max ? b : max;
	}
	scale = max >= 1073741824.0 ? 1073741824.0 : max >= 1048576.0 ? 1048576.0 : 1024.0;
	unit = max >= 1073741824.0 ? "GiB" : max >= 1048576.0 ? "MiB" : "KiB";
	/* One series per device; the rows come ordered by device, then time. */
	for (int i = 0, start = 0; i < t.nrows; i++) {
		const char *d = pq_table_get(&t, i, "device")->text;
		const char *next = i + 1 < t.nrows ? pq_table_get(&t, i + 1, "device")->text : NULL;

		x[i] = (pq_table_get(&t, i, "ts_ns")->num - t0) / 1e9;
		y[i] = pq_table_get(&t, i, "allocated_bytes")->num / scale;
		if (next && d && strcmp(next, d) == 0)
			continue;
		if (ns < 16)
			s[ns++] = (pq_series){ d ? d : "(unknown)", x + start, y + start, i + 1 - start };
		start = i + 1;
	}
	heading(out, "Memory allocated over time", "memory-curve");
	snprintf(label, sizeof(label), "allocated (%s)", unit);
	pq_svg_lines(out, s, ns, "time since the first memory event (s)", label, 0, 0, 220);
	free(x);
	free(y);
	pq_table_free(&t);
	return 0;
}
