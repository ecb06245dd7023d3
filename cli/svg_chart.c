/* svg_chart.c - drawing the HTML report's charts as SVG. Sizes are in px of a 1200 px wide
 * viewBox that the page scales to its width; text stays >= 12 px at 1400 px. */
#include "svg_chart.h"

#include <math.h>
#include <string.h>

#include "html_text.h"

enum { WIDTH = 1200 };

/* Colour-blind-safe categorical palette (Okabe-Ito, then greys). */
static const char *const palette[] = { "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
				       "#56B4E9", "#F0E442", "#000000", "#999999", "#666666" };
#define NCOLORS (int)(sizeof(palette) / sizeof(palette[0]))

/* A step of 1, 2 or 5 times a power of ten, giving about `ticks` intervals up to max. */
static double nice_step(double max, int ticks)
{
	double raw, mag, f;

	if (!(max > 0) || !isfinite(max))
		return 1;
	raw = max / ticks;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void tick_text(char *buf, size_t size, double v, double step)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) < step * 1e-6) /* no "-0.0" from rounding */
		v = 0;

	snprintf(buf, size, "%.*f", decimals > 6 ? 6 : decimals, v);
}

static void svg_open(FILE *out, int height, const char *label)
{
	fprintf(out, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\" "
		"aria-label=\"", WIDTH, height);
	pq_html(out, label);
	fputs("\" font-family=\"sans-serif\" font-size=\"13\">\n", out);
}

/* Horizontal value axis from x0 to x1 px at y, 0..max with grid lines up to y_top. */
static void value_axis_x(FILE *out, double x0, double x1, double y, double y_top, double max,
			 double step, const char *label)
{
	char t[32];

	for (double v = 0; v <= max * (1 + 1e-9); v += step) {
		double x = x0 + (x1 - x0) * v / max;

		tick_text(t, sizeof(t), v, step);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, y_top, x, y, x, y + 16, t);
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		x0, y, x1, y);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">",
		(x0 + x1) / 2, y + 36);
	pq_html(out, label);
	fputs("</text>\n", out);
}

/* Vertical value axis from y0 (bottom) to y1 px at x, 0..max, grid lines to x_right. */
static void value_axis_y(FILE *out, double x, double x_right, double y0, double y1, double max,
			 double step, const char *label)
{
	char t[32];

	for (double v = 0; v <= max * (1 + 1e-9); v += step) {
		double y = y0 - (y0 - y1) * v / max;

		tick_text(t, sizeof(t), v, step);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			x, y, x_right, y, x - 6, y + 4, t);
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		x, y0, x, y1);
	fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" "
		"font-weight=\"bold\">", x - 58, (y0 + y1) / 2);
	pq_html(out, label);
	fputs("</text>\n", out);
}

/* A row of coloured boxes and names at (x, y), wrapping at the chart's width. */
static void legend(FILE *out, const char *const *names, int n, double x, double y)
{
	double cx = x;

	for (int i = 0; i < n; i++) {
		double w = 34 + 7.5 * (double)strlen(names[i] ? names[i] : "");

		if (w > 400)
			w = 400;
		if (cx + w > WIDTH - 10 && cx > x) {
			cx = x;
			y += 20;
		}
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%.1f\" y=\"%.1f\">", cx, y - 11, palette[i % NCOLORS], cx + 19, y);
		pq_html_text(out, names[i], 48);
		fputs("</text>\n", out);
		cx += w;
	}
}

/* Rows the legend of n names takes (as legend() wraps them). */
static int legend_rows(const char *const *names, int n, double x)
{
	double cx = x;
	int rows = n > 0;

	for (int i = 0; i < n; i++) {
		double w = 34 + 7.5 * (double)strlen(names[i] ? names[i] : "");

		if (w > 400)
			w = 400;
		if (cx + w > WIDTH - 10 && cx > x) {
			cx = x;
			rows++;
		}
		cx += w;
	}
	return rows;
}

void pq_svg_hbars(FILE *out, const pq_bar *bars, int n, const char *value_label)
{
	const double left = 380, right = WIDTH - 170, top = 12, row = 24;
	double max = 0, step, bottom = top + row * n;
	char v[48];

	for (int i = 0; i < n; i++)
		if (bars[i].value > max)
			max = bars[i].value;
	step = nice_step(max, 6);
	max = step * ceil(max / step - 1e-9);
	if (max <= 0)
		max = step;
	svg_open(out, (int)bottom + 50, value_label);
	value_axis_x(out, left, right, bottom, top, max, step, value_label);
	for (int i = 0; i < n; i++) {
		double y = top + row * i, w = (right - left) * (bars[i].value > 0 ? bars[i].value : 0) / max;

		snprintf(v, sizeof(v), "%.3f", bars[i].value);
		fputs("<g><title>", out);
		pq_html(out, bars[i].title ? bars[i].title : bars[i].label);
		fprintf(out, ": %s", v);
		fprintf(out, "</title><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8,
			y + row / 2 + 4);
		pq_html_text(out, bars[i].label, 48);
		fprintf(out, "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"/>", left, y + 3, w, row - 6, palette[0]);
		if (bars[i].note) {
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", left + w + 6,
				y + row / 2 + 4);
			pq_html(out, bars[i].note);
			fputs("</text>", out);
		}
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
}

void pq_svg_stacked(FILE *out, const char *const *cats, int ncat, const char *const *parts,
		    int npart, const double *v, const char *x_label, const char *y_label)
{
	const double left = 90, right = WIDTH - 20;
	double top = 14 + 20.0 * legend_rows(parts, npart, left) + 10, bottom = top + 320;
	double max = 0, step, slot = (right - left) / (ncat > 0 ? ncat : 1), bw = slot * 0.7;
	int label_every = (int)ceil(ncat * 60.0 / (right - left));
	char t[64];

	for (int c = 0; c < ncat; c++) {
		double sum = 0;

		for (int p = 0; p < npart; p++)
			sum += v[c * npart + p] > 0 ? v[c * npart + p] : 0;
		if (sum > max)
			max = sum;
	}
	step = nice_step(max, 6);
	max = step * ceil(max / step - 1e-9);
	if (max <= 0)
		max = step;
	svg_open(out, (int)bottom + 50, y_label);
	legend(out, parts, npart, left, 26);
	value_axis_y(out, left, right, bottom, top, max, step, y_label);
	for (int c = 0; c < ncat; c++) {
		double x = left + slot * c + (slot - bw) / 2, y = bottom;

		for (int p = 0; p < npart; p++) {
			double h = (bottom - top) * (v[c * npart + p] > 0 ? v[c * npart + p] : 0) / max;

			if (h <= 0)
				continue;
			y -= h;
			snprintf(t, sizeof(t), "%.3f", v[c * npart + p]);
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>", x, y, bw, h, palette[p % NCOLORS]);
			pq_html(out, cats[c]);
			fputs(" ", out);
			pq_html(out, parts[p]);
			fprintf(out, ": %s</title></rect>\n", t);
		}
		if (label_every < 1 || c % label_every == 0) {
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				x + bw / 2, bottom + 16);
			pq_html_text(out, cats[c], 12);
			fputs("</text>\n", out);
		}
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		left, bottom, right, bottom);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">",
		(left + right) / 2, bottom + 36);
	pq_html(out, x_label);
	fputs("</text>\n</svg>\n", out);
}

/* The points of one series as SVG coordinates, at most 4 per pixel column (first, min, max, last),
 * so a series of a million points stays a small path that looks the same. */
static void polyline_points(FILE *out, const pq_series *s, double x0, double x1, double y0,
			    double y1, double xmin, double xmax, double ymax)
{
	long col = -1;
	double first = 0, lo = 0, hi = 0, last = 0, px = 0;

#define PQ_Y(v) (y0 - (y0 - y1) * ((v) < 0 ? 0 : (v) > ymax ? ymax : (v)) / ymax)
	for (int i = 0; i <= s->n; i++) {
		long c = -2;

		if (i < s->n) {
			px = x0 + (x1 - x0) * (s->x[i] - xmin) / (xmax - xmin);
			c = lround(px);
		}
		if (c != col && col >= 0) {
			fprintf(out, "%ld,%.1f %ld,%.1f %ld,%.1f %ld,%.1f ", col, PQ_Y(first), col,
				PQ_Y(lo), col, PQ_Y(hi), col, PQ_Y(last));
		}
		if (i == s->n)
			break;
		if (c != col) {
			col = c;
			first = lo = hi = s->y[i];
		}
		lo = s->y[i] < lo ? s->y[i] : lo;
		hi = s->y[i] > hi ? s->y[i] : hi;
		last = s->y[i];
	}
#undef PQ_Y
}

void pq_svg_lines(FILE *out, const pq_series *s, int ns, const char *x_label, const char *y_label,
		  double ymax, int fill, int height)
{
	const double left = 90, right = WIDTH - 20;
	const char *names[16] = { 0 };
	int nn = ns < 16 ? ns : 16;
	double top, bottom, xmin = INFINITY, xmax = -INFINITY, ystep, xstep, dmax = 0;
	char t[32];

	for (int i = 0; i < nn; i++)
		names[i] = s[i].name;
	top = 14 + 20.0 * legend_rows(names, nn, left) + 10;
	bottom = top + height;
	for (int i = 0; i < ns; i++)
		for (int k = 0; k < s[i].n; k++) {
			xmin = s[i].x[k] < xmin ? s[i].x[k] : xmin;
			xmax = s[i].x[k] > xmax ? s[i].x[k] : xmax;
			dmax = s[i].y[k] > dmax ? s[i].y[k] : dmax;
		}
	if (!(xmax > xmin)) {
		xmin = isfinite(xmin) ? xmin : 0;
		xmax = xmin + 1;
	}
	if (ymax <= 0) {
		ystep = nice_step(dmax, 5);
		ymax = ystep * ceil(dmax / ystep - 1e-9);
		if (ymax <= 0)
			ymax = ystep;
	} else {
		ystep = nice_step(ymax, 5);
	}
	svg_open(out, (int)bottom + 50, y_label);
	legend(out, names, nn, left, 26);
	value_axis_y(out, left, right, bottom, top, ymax, ystep, y_label);
	/* x ticks at nice steps from the first multiple at or after xmin */
	xstep = nice_step(xmax - xmin, 10);
	for (double v = ceil(xmin / xstep - 1e-9) * xstep; v <= xmax + xstep * 1e-9; v += xstep) {
		double x = left + (right - left) * (v - xmin) / (xmax - xmin);

		tick_text(t, sizeof(t), v, xstep);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, bottom, x, bottom + 5, x, bottom + 18, t);
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		left, bottom, right, bottom);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">",
		(left + right) / 2, bottom + 38);
	pq_html(out, x_label);
	fputs("</text>\n", out);
	for (int i = 0; i < ns; i++) {
		const char *color = palette[i % NCOLORS];

		if (s[i].n == 0)
			continue;
		if (fill) {
			fprintf(out, "<polygon fill=\"%s\" fill-opacity=\"0.15\" points=\"%.1f,%.1f ",
				color, left + (right - left) * (s[i].x[0] - xmin) / (xmax - xmin),
				bottom);
			polyline_points(out, &s[i], left, right, bottom, top, xmin, xmax, ymax);
			fprintf(out, "%.1f,%.1f\"/>\n",
				left + (right - left) * (s[i].x[s[i].n - 1] - xmin) / (xmax - xmin),
				bottom);
		}
		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			color);
		polyline_points(out, &s[i], left, right, bottom, top, xmin, xmax, ymax);
		fputs("\"><title>", out);
		pq_html(out, s[i].name);
		fputs("</title></polyline>\n", out);
	}
	fputs("</svg>\n", out);
}
