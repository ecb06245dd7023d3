/* roofline.c - device peaks and roofline arithmetic: device_peak_flops(), device_peak_bandwidth(),
 * arithmetic_intensity(), achieved_pct(), roofline_bound().
 *
 * Peaks are dense (no structured sparsity), in FLOP/s (or OP/s for int8) and bytes/s, from a built-in
 * table keyed by the names CUDA reports (cudaDeviceProp.name, torch.cuda.get_device_name()). A device
 * may also be a devices.id of the current database: its name is looked up in the table, and when the
 * name is not there the peaks are derived from the recorded properties (SM count × core clock ×
 * FLOPs per clock per SM for the compute capability; memory_bandwidth_bytes_per_s, or memory clock ×
 * bus width). Sources and pitfalls: ../shared/notes/flops.md §4; docs/sql-functions.md.
 */
#include "flops.h"

#include <math.h>
#include <string.h>

/* Precisions, in the order of the table columns. */
enum { P_FP64, P_FP64_TC, P_FP32, P_TF32, P_FP16, P_BF16, P_FP8, P_INT8, P_COUNT };

static const struct {
	const char *name;
	int prec;
} prec_names[] = {
	{ "fp64", P_FP64 }, { "float64", P_FP64 }, { "double", P_FP64 },
	{ "fp64_tc", P_FP64_TC }, { "fp64tc", P_FP64_TC },
	{ "fp32", P_FP32 }, { "float32", P_FP32 }, { "float", P_FP32 },
	{ "tf32", P_TF32 },
	{ "fp16", P_FP16 }, { "float16", P_FP16 }, { "half", P_FP16 }, { "c10::half", P_FP16 },
	{ "torch.float16", P_FP16 },
	{ "bf16", P_BF16 }, { "bfloat16", P_BF16 }, { "c10::bfloat16", P_BF16 },
	{ "torch.bfloat16", P_BF16 },
	{ "fp8", P_FP8 }, { "float8", P_FP8 }, { "e4m3", P_FP8 }, { "e5m2", P_FP8 },
	{ "float8_e4m3fn", P_FP8 }, { "float8_e5m2", P_FP8 }, { "c10::float8_e4m3fn", P_FP8 },
	{ "c10::float8_e5m2", P_FP8 },
	{ "int8", P_INT8 },
};

/* Dense peaks in TFLOP/s (TOP/s for int8; 0 = not published or not supported) and memory bandwidth
 * in decimal GB/s. fp64 and fp32 are the non-tensor (CUDA core) rates; tf32/fp16/bf16/fp8/int8 and
 * fp64_tc are Tensor Core rates. NVIDIA datasheets from A100 on print Tensor Core figures "with
 * sparsity" (asterisked): the values here are half of those. GeForce fp16/bf16/fp8 are the rates
 * with FP32 accumulation (PyTorch's default), half the FP16-accumulate figure.
 *
 * `match` lists the words the normalised name (lowercase, every non-alphanumeric character a space)
 * must contain, and with '!' the words it must not; the first matching row wins, so more specific
 * rows come first. */
typedef struct {
	const char *match;
	double tf[P_COUNT];
	double bw_gbs;
} gpu_row;

static const gpu_row gpus[] = {
	/* NVIDIA Tesla V100 datasheet (V100S PCIe, V100 PCIe, V100 SXM2) */
	{ "v100s", { 8.2, 0, 16.4, 0, 130, 0, 0, 0 }, 1134 },
	{ "v100 pcie", { 7.0, 0, 14.0, 0, 112, 0, 0, 0 }, 900 },
	/* SXM2 16/32GB; also DGXS (DGX Station: 4 GPUs, 500 TFLOPS tensor = 125 each) and SXM3 */
	{ "v100", { 7.8, 0, 15.7, 0, 125, 0, 0, 0 }, 900 },
	/* NVIDIA T4 datasheet: FP32 8.1, mixed FP16/FP32 65, INT8 130 TOPS, 320 GB/s (no FP64 figure) */
	{ "t4", { 0, 0, 8.1, 0, 65, 0, 0, 130 }, 320 },
	/* NVIDIA A100 datasheet: FP64 9.7, FP64 TC 19.5, FP32 19.5, TF32 156, BF16/FP16 312, INT8 624;
	 * bandwidth 80GB PCIe 1935, 40GB PCIe 1555, 80GB SXM 2039, 40GB SXM 1555 GB/s */
	{ "a100 pcie 80gb", { 9.7, 19.5, 19.5, 156, 312, 312, 0, 624 }, 1935 },
	{ "a100 pcie", { 9.7, 19.5, 19.5, 156, 312, 312, 0, 624 }, 1555 },
	{ "a100 80gb", { 9.7, 19.5, 19.5, 156, 312, 312, 0, 624 }, 2039 },
	{ "a100", { 9.7, 19.5, 19.5, 156, 312, 312, 0, 624 }, 1555 },
	/* NVIDIA A30 datasheet: FP64 5.2, FP64 TC 10.3, FP32 10.3, TF32 82, BF16/FP16 165, INT8 330, 933 GB/s */
	{ "a30", { 5.2, 10.3, 10.3, 82, 165, 165, 0, 330 }, 933 },
	/* NVIDIA A10 datasheet: FP32 31.2, TF32 62.5, BF16/FP16 125, INT8 250, 600 GB/s */
	{ "a10", { 0, 0, 31.2, 62.5, 125, 125, 0, 250 }, 600 },
	/* NVIDIA A40 datasheet: FP32 37.4, TF32 74.8, BF16/FP16 149.7, INT8 299.3, 696 GB/s */
	{ "a40", { 0, 0, 37.4, 74.8, 149.7, 149.7, 0, 299.3 }, 696 },
	/* NVIDIA L4 datasheet: FP32 30.3; TF32 120, FP16/BF16 242, FP8/INT8 485 with sparsity; 300 GB/s */
	{ "l4", { 0, 0, 30.3, 60, 121, 121, 242.5, 242.5 }, 300 },
	/* NVIDIA L40S datasheet: FP32 91.6, TF32 183, BF16/FP16 362.05, FP8/INT8 733 (dense), 864 GB/s */
	{ "l40s", { 0, 0, 91.6, 183, 362.05, 362.05, 733, 733 }, 864 },
	/* NVIDIA Ada GPU architecture whitepaper, RTX 4090: FP32 82.6, TF32 82.6, FP16/BF16 (FP32 acc.)
	 * 165.2, FP8 (FP32 acc.) 330.3, INT8 660.6, 1008 GB/s */
	{ "rtx 4090 !laptop", { 0, 0, 82.6, 82.6, 165.2, 165.2, 330.3, 660.6 }, 1008 },
	/* NVIDIA Ampere GA102 GPU architecture whitepaper: RTX 3090 FP32 35.6, TF32 35.6, FP16/BF16
	 * (FP32 acc.) 71, INT8 284, 936 GB/s; RTX 3080 FP32 29.8, TF32 29.8, FP16/BF16 (FP32 acc.)
	 * 59.5, INT8 238, 760 GB/s */
	{ "rtx 3090 !ti !laptop", { 0, 0, 35.6, 35.6, 71, 71, 0, 284 }, 936 },
	{ "rtx 3080 !ti !laptop", { 0, 0, 29.8, 29.8, 59.5, 59.5, 0, 238 }, 760 },
	/* RTX 3060 (12GB): derived, no whitepaper table. NVIDIA's spec page gives 3584 CUDA cores (28 SMs),
	 * 1.78 GHz boost, 192-bit 15 Gbps GDDR6 (360 GB/s); GA10x per-SM rates from the GA102
	 * whitepaper (256 FP32, 512 FP16-tensor with FP32 accumulation, 2048 INT8 ops per clock). */
	{ "rtx 3060 !ti !laptop", { 0, 0, 12.7, 12.7, 25.5, 25.5, 0, 101.9 }, 360 },
	/* NVIDIA H100 Tensor Core GPU architecture whitepaper (dense): SXM5 FP64 33.5, FP64 TC 66.9,
	 * FP32 66.9, TF32 494.7, FP16/BF16 989.4, FP8/INT8 1978.9, 3350 GB/s; PCIe FP64 25.6, FP64 TC
	 * 51.2, FP32 51.2, TF32 378, FP16/BF16 756, FP8/INT8 1513, 2000 GB/s.
	 * H100 NVL (H100 datasheet, sparse/2): FP64 30, FP64 TC 60, FP32 60, TF32 417.5,
	 * FP16/BF16 835.5, FP8/INT8 1670.5, 3900 GB/s. */
	{ "h100 pcie", { 25.6, 51.2, 51.2, 378, 756, 756, 1513, 1513 }, 2000 },
	{ "h100 nvl", { 30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5 }, 3900 },
	{ "h100", { 33.5, 66.9, 66.9, 494.7, 989.4, 989.4, 1978.9, 1978.9 }, 3350 },
	/* NVIDIA H200 datasheet (sparse/2): SXM FP64 34, FP64 TC 67, FP32 67, TF32 494.5, FP16/BF16
	 * 989.5, FP8/INT8 1979, 4800 GB/s; NVL FP64 30, FP64 TC 60, FP32 60, TF32 417.5, FP16/BF16
	 * 835.5, FP8/INT8 1670.5, 4800 GB/s */
	{ "h200 nvl", { 30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5 }, 4800 },
	{ "h200", { 34, 67, 67, 494.5, 989.5, 989.5, 1979, 1979 }, 4800 },
};

/* FLOPs (ops for int8) per clock per SM by compute capability, for devices not in the table:
 * [inferred] datasheet peak / (SM count × boost clock), e.g. A100 312e12 / (108 × 1.41e9) = 2048 for
 * FP16 tensor, H100 SXM 989.4e12 / (132 × 1.83e9) = 4096 (flops.md §4.2). For 8.6 and 8.9 the
 * tensor rates are the data-centre parts' (A10, L4); GeForce parts run FP16/BF16 with FP32
 * accumulation at half that, so a derived GeForce peak is an upper bound. */
static const struct {
	int major, minor;
	int per_sm[P_COUNT];
} cc_rates[] = {
	{ 7, 0, { 64, 0, 128, 0, 1024, 0, 0, 0 } },
	{ 7, 5, { 4, 0, 128, 0, 1024, 0, 0, 2048 } },
	{ 8, 0, { 64, 128, 128, 1024, 2048, 2048, 0, 4096 } },
	{ 8, 6, { 4, 0, 256, 512, 1024, 1024, 0, 2048 } },
	{ 8, 9, { 4, 0, 256, 512, 1024, 1024, 2048, 2048 } },
	{ 9, 0, { 128, 256, 256, 2048, 4096, 4096, 8192, 8192 } },
};

/* Resolved peaks of one device: FLOP/s per precision and bytes/s, 0 when unknown. */
typedef struct {
	int64_t id;             /* for the auxdata cache */
	double flops[P_COUNT];
	double bw;
} peaks;

/* Lowercase, every run of non-alphanumerics one space, with a leading and trailing space, so that
 * " word " finds whole words. */
static void normalise(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	int sep = 1;

	if (cap < 3)
		return;
	out[n++] = ' ';
	for (; *in != '\0' && n + 2 < cap; in++) {
		char c = *in;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			out[n++] = c;
			sep = 0;
		} else if (!sep) {
			out[n++] = ' ';
			sep = 1;
		}
	}
	if (!sep)
		out[n++] = ' ';
	out[n] = '\0';
}

static int has_word(const char *norm, const char *w, size_t len)
{
	char buf[40];

	if (len + 3 > sizeof buf)
		return 0;
	buf[0] = ' ';
	memcpy(buf + 1, w, len);
	buf[len + 1] = ' ';
	buf[len + 2] = '\0';
	return strstr(norm, buf) != NULL;
}

static int row_matches(const char *norm, const char *match)
{
	const char *p = match;

	while (*p != '\0') {
		const char *end;
		int neg = 0;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		if (*p == '!') {
			neg = 1;
			p++;
		}
		end = strchr(p, ' ');
		if (end == NULL)
			end = p + strlen(p);
		if (has_word(norm, p, (size_t)(end - p)) == neg)
			return 0;
		p = end;
	}
	return 1;
}

/* The table row for a device name, or NULL. */
static const gpu_row *find_gpu(const char *name)
{
	char norm[256];

	normalise(name, norm, sizeof norm);
	for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++)
		if (row_matches(norm, gpus[i].match))
			return &gpus[i];
	return NULL;
}

static void peaks_from_row(const gpu_row *r, peaks *p)
{
	for (int i = 0; i < P_COUNT; i++)
		p->flops[i] = r->tf[i] * 1e12;
	p->bw = r->bw_gbs * 1e9;
}

/* Reads devices row `id` into *p. 1 found, 0 no such row, -1 error (message set). */
static int peaks_from_db(sqlite3_context *ctx, const char *fn, int64_t id, peaks *p)
{
	static const char sql[] =
		"SELECT name, compute_major, compute_minor, sm_count, core_clock_hz,"
		" memory_bandwidth_bytes_per_s, memory_clock_hz, memory_bus_width_bits"
		" FROM devices WHERE id = ?1";
	sqlite3 *db = sqlite3_context_db_handle(ctx);
	sqlite3_stmt *st = NULL;
	int rc, found = 0;

	memset(p, 0, sizeof *p);
	p->id = id;
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		pq_flops_error(ctx, fn, "cannot read the devices table: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const gpu_row *r = name != NULL ? find_gpu(name) : NULL;

		found = 1;
		if (r != NULL) {
			peaks_from_row(r, p);
		} else {
			int major = sqlite3_column_int(st, 1), minor = sqlite3_column_int(st, 2);
			double sms = sqlite3_column_double(st, 3), clk = sqlite3_column_double(st, 4);
			double bw = sqlite3_column_double(st, 5), mclk = sqlite3_column_double(st, 6);
			double bus = sqlite3_column_double(st, 7);

			for (size_t i = 0; i < sizeof cc_rates / sizeof cc_rates[0]; i++)
				if (cc_rates[i].major == major && cc_rates[i].minor == minor &&
				    sqlite3_column_type(st, 1) != SQLITE_NULL && sms > 0 && clk > 0)
					for (int j = 0; j < P_COUNT; j++)
						p->flops[j] = sms * clk * cc_rates[i].per_sm[j];
			/* memory clock × bus bytes × 2 (double data rate), as stas00/ml-engineering
			 * derives it (flops.md §4.2) */
			p->bw = bw > 0 ? bw : (mclk > 0 && bus > 0 ? mclk * (bus / 8.0) * 2.0 : 0);
		}
	} else if (rc != SQLITE_DONE) {
		pq_flops_error(ctx, fn, "cannot read the devices table: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return found;
}

/* Resolves argv[0] (a name or a devices.id). 1 with *p filled, 0 for NULL/unknown, -1 on error. */
static int resolve_device(sqlite3_context *ctx, const char *fn, sqlite3_value *v, peaks *p)
{
	int type = sqlite3_value_type(v);

	if (type == SQLITE_NULL)
		return 0;
	if (type == SQLITE_TEXT) {
		const gpu_row *r = find_gpu((const char *)sqlite3_value_text(v));

		if (r == NULL)
			return 0;
		peaks_from_row(r, p);
		return 1;
	}
	if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
		double d = sqlite3_value_double(v);
		int64_t id = sqlite3_value_int64(v);
		peaks *cached;
		int rc;

		if (type == SQLITE_FLOAT && (d != floor(d) || !(fabs(d) < 9e18))) {
			pq_flops_error(ctx, fn, "device must be a name or an integer devices.id");
			return -1;
		}
		if (type == SQLITE_FLOAT)
			id = (int64_t)d;
		/* a constant device argument is looked up once per statement */
		cached = sqlite3_get_auxdata(ctx, 0);
		if (cached != NULL && cached->id == id) {
			*p = *cached;
			return 1;
		}
		rc = peaks_from_db(ctx, fn, id, p);
		if (rc == 1) {
			cached = sqlite3_malloc64(sizeof *cached);
			if (cached != NULL) {
				*cached = *p;
				sqlite3_set_auxdata(ctx, 0, cached, sqlite3_free);
			}
		}
		return rc;
	}
	pq_flops_error(ctx, fn, "device must be a name or an integer devices.id, not a blob");
	return -1;
}

static void device_peak_flops_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *ps;
	int prec = -1, rc;
	peaks p;

	(void)argc;
	if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	ps = (const char *)sqlite3_value_text(argv[1]);
	for (size_t i = 0; ps != NULL && i < sizeof prec_names / sizeof prec_names[0]; i++)
		if (sqlite3_stricmp(ps, prec_names[i].name) == 0)
			prec = prec_names[i].prec;
	if (prec < 0) {
		pq_flops_error(ctx, "device_peak_flops",
			       "unknown precision '%s' (expected fp64, fp64_tc, fp32, tf32, fp16, bf16, fp8 or int8)",
			       ps != NULL ? ps : "");
		return;
	}
	rc = resolve_device(ctx, "device_peak_flops", argv[0], &p);
	if (rc < 0)
		return;
	if (rc == 0 || !(p.flops[prec] > 0))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, p.flops[prec]);
}

static void device_peak_bandwidth_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	peaks p;
	int rc;

	(void)argc;
	rc = resolve_device(ctx, "device_peak_bandwidth", argv[0], &p);
	if (rc < 0)
		return;
	if (rc == 0 || !(p.bw > 0))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, p.bw);
}

/* ---- roofline arithmetic ---------------------------------------------------------------------- */

enum { NUM_NULL = 0, NUM_OK = 1, NUM_ERR = -1 };

/* A finite number >= 0 (numeric TEXT converted); NUM_NULL for NULL, NUM_ERR with the error set. */
static int arg_num(sqlite3_context *ctx, const char *fn, sqlite3_value *v, const char *name, double *out)
{
	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_NULL:
		return NUM_NULL;
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		*out = sqlite3_value_double(v);
		break;
	default:
		pq_flops_error(ctx, fn, "%s must be a number", name);
		return NUM_ERR;
	}
	if (!isfinite(*out) || *out < 0) {
		pq_flops_error(ctx, fn, "%s must be a finite number >= 0 (got %g)", name, *out);
		return NUM_ERR;
	}
	return NUM_OK;
}

/* Reads argc numbers; 1 when all are present, else the result (NULL or error) is already set. */
static int nums(sqlite3_context *ctx, const char *fn, int argc, sqlite3_value **argv,
		const char *const *names, double *out)
{
	int any_null = 0;

	for (int i = 0; i < argc; i++) {
		int rc = arg_num(ctx, fn, argv[i], names[i], &out[i]);

		if (rc == NUM_ERR)
			return 0;
		if (rc == NUM_NULL)
			any_null = 1;
	}
	if (any_null) {
		sqlite3_result_null(ctx);
		return 0;
	}
	return 1;
}

/* arithmetic_intensity(flops, bytes) = flops / bytes, FLOP/byte; NULL when bytes = 0. */
static void arithmetic_intensity_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[] = { "flops", "bytes" };
	double v[2];

	if (!nums(ctx, "arithmetic_intensity", argc, argv, names, v))
		return;
	if (v[1] == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, v[0] / v[1]);
}

/* achieved_pct(flops, dur_ns, peak_flops) = 100 · (flops / (dur_ns · 1e-9)) / peak_flops;
 * NULL when dur_ns or peak_flops is 0. */
static void achieved_pct_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[] = { "flops", "dur_ns", "peak_flops" };
	double v[3];

	if (!nums(ctx, "achieved_pct", argc, argv, names, v))
		return;
	if (v[1] == 0 || v[2] == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, 100.0 * (v[0] / (v[1] * 1e-9)) / v[2]);
}

/* roofline_bound(flops, bytes, peak_flops, peak_bandwidth): 'compute' when the arithmetic
 * intensity flops/bytes is at or above the ridge point peak_flops/peak_bandwidth, else 'memory'.
 * Compared as flops·peak_bandwidth >= bytes·peak_flops, so bytes = 0 (with flops > 0) is 'compute'.
 * NULL when flops and bytes are both 0 or a peak is 0. */
static void roofline_bound_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[] = { "flops", "bytes", "peak_flops", "peak_bandwidth" };
	double v[4];

	if (!nums(ctx, "roofline_bound", argc, argv, names, v))
		return;
	if ((v[0] == 0 && v[1] == 0) || v[2] == 0 || v[3] == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_text(ctx, v[0] * v[3] >= v[1] * v[2] ? "compute" : "memory", -1,
				    SQLITE_STATIC);
}

int pq_roofline_init(sqlite3 *db)
{
	static const struct {
		const char *name;
		int nargs, flags;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} funcs[] = {
		/* not deterministic: a devices.id reads the database */
		{ "device_peak_flops", 2, SQLITE_UTF8, device_peak_flops_func },
		{ "device_peak_bandwidth", 1, SQLITE_UTF8, device_peak_bandwidth_func },
		{ "arithmetic_intensity", 2, PQ_FUNC_FLAGS, arithmetic_intensity_func },
		{ "achieved_pct", 3, PQ_FUNC_FLAGS, achieved_pct_func },
		{ "roofline_bound", 4, PQ_FUNC_FLAGS, roofline_bound_func },
	};
	int rc = SQLITE_OK;

	for (size_t i = 0; rc == SQLITE_OK && i < sizeof funcs / sizeof funcs[0]; i++)
		rc = sqlite3_create_function_v2(db, funcs[i].name, funcs[i].nargs, funcs[i].flags, NULL,
						funcs[i].fn, NULL, NULL, NULL);
	return rc;
}
