/* svg_chart.h - bar, stacked bar and line charts as inline SVG, for the HTML report. Every chart
 * has axes with tick labels, an axis title with its unit, and a legend when it has several series;
 * every text from a trace is escaped (html_text.h). Values come in the unit the axis title names. */
#ifndef PQ_SVG_CHART_H
#define PQ_SVG_CHART_H

#include <stdio.h>

/* One horizontal bar: label (shortened on the chart), title (shown whole on hover), note (after
 * the bar, e.g. "15.1 %, 4,000 calls"; may be NULL). */
typedef struct pq_bar {
	const char *label;
	const char *title;
	const char *note;
	double value;
} pq_bar;

/* Horizontal bars, largest first as given; value_label is the axis title ("total time (ms)"). */
void pq_svg_hbars(FILE *out, const pq_bar *bars, int n, const char *value_label);

/* Vertical stacked bars: ncat categories (x), npart parts each; v[cat * npart + part]. */
void pq_svg_stacked(FILE *out, const char *const *cats, int ncat, const char *const *parts,
		    int npart, const double *v, const char *x_label, const char *y_label);

/* One line of a line chart: n points (x[i], y[i]), x ascending. */
typedef struct pq_series {
	const char *name;
	const double *x, *y;
	int n;
} pq_series;

/* Lines (filled below when fill) over a shared x axis, the plot `height` px tall; y from 0 to ymax
 * (0: the data's maximum). */
void pq_svg_lines(FILE *out, const pq_series *s, int ns, const char *x_label, const char *y_label,
		  double ymax, int fill, int height);

#endif
