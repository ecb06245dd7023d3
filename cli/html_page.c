/* html_page.c - the HTML report's page: head and style, a section per run (summary, GPU table,
 * the chart sections of html_sections.c, the analyze findings). */
#include "html_page.h"

#include <string.h>

#include "html_text.h"
#include "queries.h"
#include "report_table.h"
#include "version.h"

static const char style[] =
	"body{font-family:sans-serif;margin:0 auto;max-width:1320px;padding:0 24px 40px;"
	"color:#222;line-height:1.4}\n"
	"h1{border-bottom:2px solid #0072B2;padding-bottom:6px}\n"
	"h2{background:#eef4fa;padding:6px 10px;margin-top:40px}\n"
	"h3{margin:28px 0 4px}\n"
	".src{font-size:13px;font-weight:normal;color:#777;font-family:monospace}\n"
	"table{border-collapse:collapse;margin:8px 0;font-size:14px}\n"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"th{background:#f4f4f4}\n"
	"svg.chart{display:block;max-width:1200px;margin:6px 0}\n"
	".sev-warning{color:#b35900;font-weight:bold}.sev-info{color:#0072B2}.sev-ok{color:#2a7a2a}\n"
	"p.note{color:#555;font-size:14px}\n";

/* The summary rows, labelled; run-summary's columns by name (absent ones are skipped). */
static const struct {
	const char *col, *label;
	int count;
} summary_rows[] = {
	{ "source", "source", 0 },
	{ "source_path", "file", 0 },
	{ "hostname", "host", 0 },
	{ "status", "status", 0 },
	{ "start_utc", "start (UTC)", 0 },
	{ "duration_s", "duration (s)", 0 },
	{ "devices", "devices", 0 },
	{ "processes", "processes", 1 },
	{ "kernels", "kernels", 1 },
	{ "memcpys", "memcpys", 1 },
	{ "memsets", "memsets", 1 },
	{ "api_calls", "CUDA API calls", 1 },
	{ "ranges", "ranges (NVTX, operators, annotations)", 1 },
	{ "marks", "marks", 1 },
	{ "memory_events", "memory events", 1 },
	{ "counters", "counter samples", 1 },
};

static void summary(FILE *out, const pq_table *runs, int r)
{
	fputs("<table class=\"summary\">\n", out);
	for (size_t i = 0; i < sizeof(summary_rows) / sizeof(summary_rows[0]); i++) {
		const pq_cell *c = pq_table_get(runs, r, summary_rows[i].col);
		char n[32];

		if (c->text == NULL || pq_table_col(runs, summary_rows[i].col) < 0)
			continue;
		fprintf(out, "<tr><th>%s</th><td%s>", summary_rows[i].label,
			summary_rows[i].count ? " class=\"n\"" : "");
		if (summary_rows[i].count) {
			pq_fmt_count(n, sizeof(n), c->num);
			fputs(n, out);
		} else {
			pq_html(out, c->text);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Any report's rows as a table (at most max_rows), run_id left out (the section says the run). */
static void table(FILE *out, const pq_table *t, int max_rows)
{
	fputs("<table>\n<tr>", out);
	for (int c = 0; c < t->ncols; c++)
		if (strcmp(t->names[c], "run_id") != 0) {
			fputs("<th>", out);
			pq_html(out, t->names[c]);
			fputs("</th>", out);
		}
	fputs("</tr>\n", out);
	for (int r = 0; r < t->nrows && r < max_rows; r++) {
		fputs("<tr>", out);
		for (int c = 0; c < t->ncols; c++) {
			const pq_cell *cell = &t->cells[(long)r * t->ncols + c];

			if (strcmp(t->names[c], "run_id") == 0)
				continue;
			fputs(cell->type == SQLITE_INTEGER || cell->type == SQLITE_FLOAT
				      ? "<td class=\"n\">" : "<td>", out);
			pq_html_text(out, cell->text, 120);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* gpu-summary (TensorBoard's per-GPU figures), when it has any besides the device column. */
static int gpus(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	pq_params p = { 0 };
	pq_table t;
	int any = 0;

	pq_params_add(&p, "run", run);
	if (pq_table_report(db, "gpu-summary", &p, &t, err) != 0)
		return -1;
	for (int r = 0; r < t.nrows; r++)
		for (int c = 0; c < t.ncols; c++)
			if (strcmp(t.names[c], "device") != 0 && strcmp(t.names[c], "run_id") != 0 &&
			    t.cells[(long)r * t.ncols + c].text != NULL)
				any = 1;
	if (any) {
		fputs("<h3>GPUs <span class=\"src\">profq gpu-summary</span></h3>\n", out);
		table(out, &t, 64);
	}
	pq_table_free(&t);
	return 0;
}

/* The text after "-- <tag>: " in a report file's header, into buf ("" when absent). */
static void header_line(const char *sql, const char *tag, char *buf, size_t size)
{
	size_t tl = strlen(tag);

	buf[0] = '\0';
	for (const char *line = sql; *line;) {
		size_t len = strcspn(line, "\n");

		if (len > tl + 5 && strncmp(line, "-- ", 3) == 0 && strncmp(line + 3, tag, tl) == 0 &&
		    strncmp(line + 3 + tl, ": ", 2) == 0) {
			snprintf(buf, size, "%.*s", (int)(len - tl - 5), line + tl + 5);
			return;
		}
		line += len + (line[len] == '\n');
	}
}

/* `profq analyze`: every analyze-<rule> report for the run, its events counted, the first few
 * listed for the rules that found some. */
static int findings(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	static const char prefix[] = "analyze-";
	pq_params p = { 0 };

	pq_params_add(&p, "run", run);
	fputs("<h3>Findings <span class=\"src\">profq analyze</span></h3>\n<table>\n"
	      "<tr><th>rule</th><th>severity</th><th>events</th><th>total time</th><th>advice</th></tr>\n", out);
	for (const pq_query *q = pq_queries; q->name != NULL; q++) {
		char severity[32], advice[512], dur[32], n[32];
		double total = 0;
		pq_table t;

		if (strncmp(q->name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		if (pq_table_report(db, q->name, &p, &t, err) != 0)
			return -1;
		header_line(q->sql, "severity", severity, sizeof(severity));
		header_line(q->sql, "advice", advice, sizeof(advice));
		for (int r = 0; r < t.nrows; r++)
			total += pq_table_get(&t, r, "duration_ns")->num;
		pq_fmt_count(n, sizeof(n), t.nrows);
		pq_fmt_duration(dur, sizeof(dur), total);
		fprintf(out, "<tr><td>%s</td><td class=\"sev-%s\">", q->name + sizeof(prefix) - 1,
			t.nrows == 0 ? "ok" : strcmp(severity, "warning") == 0 ? "warning" : "info");
		pq_html(out, t.nrows ? severity : "ok");
		fprintf(out, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>", n,
			t.nrows ? dur : "");
		if (t.nrows)
			pq_html(out, advice);
		else
			fputs("nothing found", out);
		fputs("</td></tr>\n", out);
		pq_table_free(&t);
	}
	fputs("</table>\n", out);
	return 0;
}

/* The events behind each rule that found some: the first rows of its report. */
static int finding_events(sqlite3 *db, const char *run, FILE *out, pq_error *err)
{
	static const char prefix[] = "analyze-";
	pq_params p = { 0 };

	pq_params_add(&p, "run", run);
	pq_params_add(&p, "limit", "5");
	for (const pq_query *q = pq_queries; q->name != NULL; q++) {
		pq_table t;

		if (strncmp(q->name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		if (pq_table_report(db, q->name, &p, &t, err) != 0)
			return -1;
		if (t.nrows > 0) {
			fprintf(out, "<p class=\"note\">%s: the first %d events "
				"(<code>profq analyze --rule %s</code> lists them all)</p>\n",
				q->name + sizeof(prefix) - 1, t.nrows, q->name + sizeof(prefix) - 1);
			table(out, &t, 5);
		}
		pq_table_free(&t);
	}
	return 0;
}

static int run_section(sqlite3 *db, const pq_table *runs, int r, FILE *out, pq_error *err)
{
	const char *run = pq_table_get(runs, r, "run_id")->text;
	const char *path = pq_table_get(runs, r, "source_path")->text;
	const char *base = path ? strrchr(path, '/') : NULL;
	int (*const sections[])(sqlite3 *, const char *, FILE *, pq_error *) = {
		pq_html_utilization, pq_html_kernels, pq_html_api, pq_html_nvtx, pq_html_steps,
		pq_html_memory,
	};

	fprintf(out, "<section id=\"run-%s\">\n<h2>Run %s", run, run);
	if (path) {
		fputs(": ", out);
		pq_html(out, base ? base + 1 : path);
	}
	fputs("</h2>\n<h3>Summary <span class=\"src\">profq run-summary</span></h3>\n", out);
	summary(out, runs, r);
	if (gpus(db, run, out, err) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (sections[i](db, run, out, err) != 0)
			return -1;
	if (findings(db, run, out, err) != 0 || finding_events(db, run, out, err) != 0)
		return -1;
	fputs("</section>\n", out);
	return 0;
}

int pq_html_page(sqlite3 *db, const char *title, const char *run_id, FILE *out, pq_error *err)
{
	pq_params p = { 0 };
	pq_table runs;
	int rc = 0;

	if (run_id)
		pq_params_add(&p, "run", run_id);
	if (pq_table_report(db, "run-summary", &p, &runs, err) != 0)
		return -1;
	if (run_id && runs.nrows == 0) {
		pq_table_free(&runs);
		return pq_fail(err, "no run %s in the database", run_id);
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width\"/>\n<title>profq: ", out);
	pq_html(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>profq report: ", style);
	pq_html(out, title);
	fputs("</h1>\n", out);
	fprintf(out, "<p class=\"note\">%d run%s. Every figure is a row of the canned report named "
		"beside its heading (<code>profq REPORT FILE --run ID</code> prints it); written by "
		"profq %s.</p>\n", runs.nrows, runs.nrows == 1 ? "" : "s", PROFQ_VERSION);
	if (runs.nrows > 1) {
		fputs("<ul>\n", out);
		for (int r = 0; r < runs.nrows; r++) {
			const char *id = pq_table_get(&runs, r, "run_id")->text;

			fprintf(out, "<li><a href=\"#run-%s\">run %s</a>: ", id, id);
			pq_html(out, pq_table_get(&runs, r, "source_path")->text);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	for (int r = 0; r < runs.nrows && rc == 0; r++)
		rc = run_section(db, &runs, r, out, err);
	if (rc == 0)
		fputs("</body>\n</html>\n", out);
	pq_table_free(&runs);
	return rc;
}
