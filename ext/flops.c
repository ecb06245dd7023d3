/* flops.c - FLOP and byte formulas for GEMM and convolution: gemm_flops(), gemm_bytes(),
 * conv_flops(), conv_bytes(); the family's registration, pq_ext_flops_init(), which also registers
 * op_flops()/op_bytes() (flops_ops.c) and the device peak and roofline functions (roofline.c).
 *
 * These functions take numbers a person types, so a bad argument (wrong type, negative, malformed
 * JSON, wrong rank, channels that do not match, a count beyond 2^63-1) is an SQL error naming the
 * function and the argument; a NULL shape argument gives NULL. Formulas and their sources are in
 * docs/sql-functions.md and ../shared/notes/flops.md (§1.1 GEMM, §1.2 convolution).
 */
#include "flops.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void pq_flops_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	char *full;

	va_start(ap, fmt);
	msg = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	full = msg != NULL ? sqlite3_mprintf("%s: %s", fn, msg) : NULL;
	if (full != NULL)
		sqlite3_result_error(ctx, full, -1);
	else
		sqlite3_result_error_nomem(ctx);
	sqlite3_free(msg);
	sqlite3_free(full);
}

int pq_json_shape(const cJSON *a, int64_t *dims, int max)
{
	const cJSON *e;
	int rank = 0;

	if (a == NULL || !cJSON_IsArray(a))
		return -1;
	cJSON_ArrayForEach(e, a) {
		double v;

		if (!cJSON_IsNumber(e) || rank >= max)
			return -1;
		v = e->valuedouble;
		if (!(v >= 0.0 && v <= PQ_MAX_JSON_DIM) || v != floor(v))
			return -1;
		dims[rank++] = (int64_t)v;
	}
	return rank;
}

int pq_numel(const int64_t *dims, int rank, int64_t *out)
{
	int64_t n = 1;

	for (int i = 0; i < rank; i++)
		if (!pq_mul(n, dims[i], &n))
			return 0;
	*out = n;
	return 1;
}

/* The value of a per-dimension parameter for spatial dimension i. */
static int64_t ivec_at(const pq_ivec *v, int i, int64_t dflt)
{
	if (v == NULL || v->n == 0)
		return dflt;
	return v->n == 1 ? v->v[0] : v->v[i];
}

const char *pq_conv_setup(pq_conv *c, const int64_t *x, int xrank, const int64_t *w, int wrank,
			  const pq_ivec *stride, const pq_ivec *pad, int pad_same, const pq_ivec *dil,
			  const pq_ivec *opad, int64_t groups, int transposed)
{
	const int64_t *xs;

	memset(c, 0, sizeof *c);
	if (wrank < 3 || wrank > 2 + PQ_CONV_MAXSP)
		return "weight must have 3 to 5 dimensions [Cout, Cin/groups, k...]";
	c->nsp = wrank - 2;
	if (xrank == wrank) {
		c->n = x[0];
		xs = x + 1;
	} else if (xrank == wrank - 1) {
		c->n = 1;	/* unbatched input [C, spatial...] */
		xs = x;
	} else {
		return "input rank does not match weight rank (expected [N, C, spatial...])";
	}
	if (groups < 1)
		return "groups must be >= 1";
	{
		const pq_ivec *vs[4] = { stride, pad, dil, opad };

		for (int j = 0; j < 4; j++)
			if (vs[j] != NULL && vs[j]->n > 1 && vs[j]->n != c->nsp)
				return "stride, padding, dilation and output_padding need 1 value or one per spatial dimension";
	}
	c->transposed = transposed;
	c->groups = groups;
	c->cin = xs[0];
	c->w0 = w[0];
	c->w1 = w[1];
	if (!transposed) {
		if (!pq_mul(w[1], groups, &c->cout) || c->cout != c->cin)
			return "input channels do not equal weight dim 1 times groups";
		if (w[0] % groups != 0)
			return "weight dim 0 (output channels) is not a multiple of groups";
		c->cout = w[0];
	} else {
		if (w[0] != c->cin)
			return "input channels do not equal weight dim 0 (transposed convolution)";
		if (c->cin % groups != 0)
			return "input channels are not a multiple of groups";
		if (!pq_mul(w[1], groups, &c->cout))
			return "output channels overflow";
	}
	c->pad_same = pad_same;
	for (int i = 0; i < c->nsp; i++) {
		int64_t s = ivec_at(stride, i, 1), p = ivec_at(pad, i, 0), d = ivec_at(dil, i, 1);
		int64_t op = ivec_at(opad, i, 0), k = w[2 + i], in = xs[1 + i], span, num;

		if (s < 1 || d < 1)
			return "stride and dilation must be >= 1";
		if (p < 0 || op < 0)
			return "padding and output_padding must be >= 0";
		if (k < 1)
			return "kernel sizes must be >= 1";
		c->in[i] = in;
		c->k[i] = k;
		c->stride[i] = s;
		c->pad[i] = p;
		c->dil[i] = d;
		c->opad[i] = op;
		/* span = d·(k−1), the receptive field minus one */
		if (!pq_mul(d, k - 1, &span))
			return "kernel span overflows";
		if (pad_same) {
			/* PyTorch's padding='same' keeps the spatial size (it needs stride 1). */
			c->out[i] = in;
			continue;
		}
		if (!transposed) {
			/* out = floor((in + 2p − d(k−1) − 1) / s) + 1 (PyTorch Conv docs; PyProf conv.py) */
			int64_t pp;

			if (!pq_mul(p, 2, &pp) || !pq_add(in, pp, &num))
				return "padded input size overflows";
			if (num <= span)
				return "kernel (with dilation) is larger than the padded input: empty output";
			c->out[i] = (num - span - 1) / s + 1;
		} else {
			/* out = (in − 1)·s − 2p + d(k−1) + output_padding + 1 (PyTorch ConvTranspose docs) */
			int64_t a;

			if (in < 1)
				return "transposed convolution input size must be >= 1";
			if (!pq_mul(in - 1, s, &a) || !pq_add(a, span, &a) || !pq_add(a, op, &a) ||
			    !pq_add(a, 1, &a))
				return "output size overflows";
			if (!pq_mul(p, 2, &num) || a < num)
				return "padding is larger than the transposed output: empty output";
			c->out[i] = a - num;
		}
	}
	return NULL;
}

int pq_conv_flops(const pq_conv *c, int64_t *out)
{
	int64_t f = 2;

	if (!pq_mul(f, c->n, &f) || !pq_mul(f, c->w0, &f) || !pq_mul(f, c->w1, &f))
		return 0;
	for (int i = 0; i < c->nsp; i++) {
		if (!pq_mul(f, c->k[i], &f))
			return 0;
		if (!pq_mul(f, c->transposed ? c->in[i] : c->out[i], &f))
			return 0;
	}
	*out = f;
	return 1;
}

int pq_conv_elems(const pq_conv *c, int64_t *out)
{
	int64_t xi, wi, yo;

	if (!pq_mul(c->n, c->cin, &xi) || !pq_mul(c->w0, c->w1, &wi) || !pq_mul(c->n, c->cout, &yo))
		return 0;
	for (int i = 0; i < c->nsp; i++)
		if (!pq_mul(xi, c->in[i], &xi) || !pq_mul(wi, c->k[i], &wi) || !pq_mul(yo, c->out[i], &yo))
			return 0;
	return pq_add(xi, wi, out) && pq_add(*out, yo, out);
}

/* ---- argument parsing for the formula functions ---------------------------------------------- */

enum { ARG_NULL = 0, ARG_OK = 1, ARG_ERR = -1 };

/* An integer argument >= min. REAL values are accepted when integral; numeric TEXT is converted as
 * SQLite's numeric affinity would. ARG_NULL for NULL, ARG_ERR (error already set) otherwise. */
static int arg_int(sqlite3_context *ctx, const char *fn, sqlite3_value *v, const char *name,
		   int64_t min, int64_t *out)
{
	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_NULL:
		return ARG_NULL;
	case SQLITE_INTEGER:
		*out = sqlite3_value_int64(v);
		break;
	case SQLITE_FLOAT: {
		double d = sqlite3_value_double(v);

		if (!(d >= -9.2e18 && d <= 9.2e18) || d != floor(d)) {
			pq_flops_error(ctx, fn, "%s must be an integer (got %g)", name, d);
			return ARG_ERR;
		}
		*out = (int64_t)d;
		break;
	}
	default:
		pq_flops_error(ctx, fn, "%s must be an integer, not %s", name,
			       sqlite3_value_type(v) == SQLITE_BLOB ? "a blob" : "text");
		return ARG_ERR;
	}
	if (*out < min) {
		pq_flops_error(ctx, fn, "%s must be >= %lld (got %lld)", name, (long long)min,
			       (long long)*out);
		return ARG_ERR;
	}
	return ARG_OK;
}

/* A shape argument: TEXT holding a JSON array of non-negative integers. */
static int arg_shape(sqlite3_context *ctx, const char *fn, sqlite3_value *v, const char *name,
		     int64_t *dims, int *rank)
{
	cJSON *j;

	if (sqlite3_value_type(v) == SQLITE_NULL)
		return ARG_NULL;
	if (sqlite3_value_type(v) != SQLITE_TEXT) {
		pq_flops_error(ctx, fn, "%s must be a JSON array of dimensions, e.g. '[32, 3, 224, 224]'",
			       name);
		return ARG_ERR;
	}
	j = cJSON_Parse((const char *)sqlite3_value_text(v));
	if (j == NULL) {
		pq_flops_error(ctx, fn, "%s is not valid JSON", name);
		return ARG_ERR;
	}
	*rank = pq_json_shape(j, dims, PQ_MAX_RANK);
	cJSON_Delete(j);
	if (*rank < 0) {
		pq_flops_error(ctx, fn, "%s must be a JSON array of at most %d integers in [0, 2^53]", name,
			       PQ_MAX_RANK);
		return ARG_ERR;
	}
	return ARG_OK;
}

/* A per-dimension parameter: NULL (default), an integer, or TEXT holding a JSON integer or array of
 * 1..3 integers. For padding, also 'same' or 'valid' (*same set for 'same'). */
static int arg_ivec(sqlite3_context *ctx, const char *fn, sqlite3_value *v, const char *name,
		    pq_ivec *out, int *same)
{
	int64_t dims[PQ_MAX_RANK];
	int rank;
	cJSON *j;
	const char *t;

	out->n = 0;
	if (same != NULL)
		*same = 0;
	switch (sqlite3_value_type(v)) {
	case SQLITE_NULL:
		return ARG_OK;
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		out->n = 1;
		return arg_int(ctx, fn, v, name, 0, &out->v[0]) == ARG_ERR ? ARG_ERR : ARG_OK;
	case SQLITE_TEXT:
		break;
	default:
		pq_flops_error(ctx, fn, "%s must be an integer or a JSON array of integers", name);
		return ARG_ERR;
	}
	t = (const char *)sqlite3_value_text(v);
	if (same != NULL && t != NULL && sqlite3_stricmp(t, "same") == 0) {
		*same = 1;
		return ARG_OK;
	}
	if (same != NULL && t != NULL && sqlite3_stricmp(t, "valid") == 0)
		return ARG_OK;
	j = t != NULL ? cJSON_Parse(t) : NULL;
	if (j == NULL) {
		pq_flops_error(ctx, fn, "%s is not valid JSON", name);
		return ARG_ERR;
	}
	if (cJSON_IsNumber(j)) {
		cJSON *arr = cJSON_CreateArray();

		/* a bare number: treat as a one-element array */
		if (arr == NULL) {
			cJSON_Delete(j);
			sqlite3_result_error_nomem(ctx);
			return ARG_ERR;
		}
		cJSON_AddItemToArray(arr, j);
		j = arr;
	}
	rank = pq_json_shape(j, dims, PQ_MAX_RANK);
	cJSON_Delete(j);
	if (rank < 1 || rank > PQ_CONV_MAXSP) {
		pq_flops_error(ctx, fn, "%s must be an integer or a JSON array of 1 to 3 integers >= 0", name);
		return ARG_ERR;
	}
	out->n = rank;
	memcpy(out->v, dims, (size_t)rank * sizeof dims[0]);
	return ARG_OK;
}

/* ---- gemm_flops, gemm_bytes ------------------------------------------------------------------- */

/* gemm_flops(m, n, k [, batch]) = 2·batch·m·n·k: (m×k)·(k×n), one multiply-add = 2 FLOPs. */
static void gemm_flops_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[] = { "m", "n", "k", "batch" };
	int64_t v[4] = { 0, 0, 0, 1 }, f = 2;

	for (int i = 0; i < argc; i++) {
		int rc = arg_int(ctx, "gemm_flops", argv[i], names[i], 0, &v[i]);

		if (rc != ARG_OK) {
			if (rc == ARG_NULL)
				sqlite3_result_null(ctx);
			return;
		}
	}
	for (int i = 0; i < 4; i++)
		if (!pq_mul(f, v[i], &f)) {
			pq_flops_error(ctx, "gemm_flops", "result overflows a 64-bit integer");
			return;
		}
	sqlite3_result_int64(ctx, f);
}

/* gemm_bytes(m, n, k, elem_size [, batch]) = elem_size·batch·(m·k + k·n + m·n): A and B read once,
 * C written once (PyProf blas.py; flops.md §1.1). A beta·C input adds m·n·elem_size more; not counted. */
static void gemm_bytes_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[] = { "m", "n", "k", "elem_size", "batch" };
	int64_t v[5] = { 0, 0, 0, 0, 1 }, mk, kn, mn, b;

	for (int i = 0; i < argc; i++) {
		int rc = arg_int(ctx, "gemm_bytes", argv[i], names[i], 0, &v[i]);

		if (rc != ARG_OK) {
			if (rc == ARG_NULL)
				sqlite3_result_null(ctx);
			return;
		}
	}
	if (!pq_mul(v[0], v[2], &mk) || !pq_mul(v[2], v[1], &kn) || !pq_mul(v[0], v[1], &mn) ||
	    !pq_add(mk, kn, &b) || !pq_add(b, mn, &b) || !pq_mul(b, v[3], &b) || !pq_mul(b, v[4], &b)) {
		pq_flops_error(ctx, "gemm_bytes", "result overflows a 64-bit integer");
		return;
	}
	sqlite3_result_int64(ctx, b);
}

/* ---- conv_flops, conv_bytes ------------------------------------------------------------------- */

/* Reads input_dims, weight_dims and the optional stride, padding, dilation, groups, transposed,
 * output_padding starting at argv[first_opt]. ARG_OK with *c filled, ARG_NULL, or ARG_ERR. */
static int conv_args(sqlite3_context *ctx, const char *fn, int argc, sqlite3_value **argv,
		     int first_opt, pq_conv *c)
{
	int64_t x[PQ_MAX_RANK], w[PQ_MAX_RANK], groups = 1, transposed = 0;
	int xr, wr, rc, same = 0;
	pq_ivec stride = { 0, { 0 } }, pad = { 0, { 0 } }, dil = { 0, { 0 } }, opad = { 0, { 0 } };
	const char *err;

	rc = arg_shape(ctx, fn, argv[0], "input_dims", x, &xr);
	if (rc != ARG_OK)
		return rc;
	rc = arg_shape(ctx, fn, argv[1], "weight_dims", w, &wr);
	if (rc != ARG_OK)
		return rc;
	for (int i = first_opt; i < argc; i++) {
		switch (i - first_opt) {
		case 0: rc = arg_ivec(ctx, fn, argv[i], "stride", &stride, NULL); break;
		case 1: rc = arg_ivec(ctx, fn, argv[i], "padding", &pad, &same); break;
		case 2: rc = arg_ivec(ctx, fn, argv[i], "dilation", &dil, NULL); break;
		case 3:
			rc = arg_int(ctx, fn, argv[i], "groups", 1, &groups);
			if (rc == ARG_NULL) {
				groups = 1;
				rc = ARG_OK;
			}
			break;
		case 4:
			rc = arg_int(ctx, fn, argv[i], "transposed", 0, &transposed);
			if (rc == ARG_NULL) {
				transposed = 0;
				rc = ARG_OK;
			}
			break;
		default: rc = arg_ivec(ctx, fn, argv[i], "output_padding", &opad, NULL); break;
		}
		if (rc != ARG_OK)
			return rc;
	}
	if (transposed > 1) {
		pq_flops_error(ctx, fn, "transposed must be 0 or 1");
		return ARG_ERR;
	}
	if (same && transposed) {
		pq_flops_error(ctx, fn, "padding 'same' is not supported for transposed convolutions");
		return ARG_ERR;
	}
	err = pq_conv_setup(c, x, xr, w, wr, &stride, &pad, same, &dil, &opad, groups, (int)transposed);
	if (err != NULL) {
		pq_flops_error(ctx, fn, "%s", err);
		return ARG_ERR;
	}
	return ARG_OK;
}

/* conv_flops(input_dims, weight_dims [, stride, padding, dilation, groups, transposed,
 * output_padding]) */
static void conv_flops_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	pq_conv c;
	int64_t f;
	int rc = conv_args(ctx, "conv_flops", argc, argv, 2, &c);

	if (rc == ARG_NULL)
		sqlite3_result_null(ctx);
	if (rc != ARG_OK)
		return;
	if (!pq_conv_flops(&c, &f)) {
		pq_flops_error(ctx, "conv_flops", "result overflows a 64-bit integer");
		return;
	}
	sqlite3_result_int64(ctx, f);
}

/* conv_bytes(input_dims, weight_dims, elem_size [, stride, padding, dilation, groups, transposed,
 * output_padding]) = elem_size·(numel(input) + numel(weight) + numel(output)) */
static void conv_bytes_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	pq_conv c;
	int64_t e, s;
	int rc = arg_int(ctx, "conv_bytes", argv[2], "elem_size", 0, &s);

	if (rc == ARG_OK)
		rc = conv_args(ctx, "conv_bytes", argc, argv, 3, &c);
	if (rc == ARG_NULL)
		sqlite3_result_null(ctx);
	if (rc != ARG_OK)
		return;
	if (!pq_conv_elems(&c, &e) || !pq_mul(e, s, &e)) {
		pq_flops_error(ctx, "conv_bytes", "result overflows a 64-bit integer");
		return;
	}
	sqlite3_result_int64(ctx, e);
}

int pq_ext_flops_init(sqlite3 *db)
{
	static const struct {
		const char *name;
		int nmin, nmax;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} funcs[] = {
		{ "gemm_flops", 3, 4, gemm_flops_func },
		{ "gemm_bytes", 4, 5, gemm_bytes_func },
		{ "conv_flops", 2, 8, conv_flops_func },
		{ "conv_bytes", 3, 9, conv_bytes_func },
	};
	int rc = SQLITE_OK;

	for (size_t i = 0; rc == SQLITE_OK && i < sizeof funcs / sizeof funcs[0]; i++)
		for (int n = funcs[i].nmin; rc == SQLITE_OK && n <= funcs[i].nmax; n++)
			rc = sqlite3_create_function_v2(db, funcs[i].name, n, PQ_FUNC_FLAGS, NULL,
							funcs[i].fn, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = pq_flops_ops_init(db);
	if (rc == SQLITE_OK)
		rc = pq_roofline_init(db);
	return rc;
}
