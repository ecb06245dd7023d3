/* flops_ops.c - op_flops() and op_bytes(): FLOP and byte estimates for a PyTorch operator from the
 * shapes and types a Kineto trace records on its cpu_op events ("Input Dims", "Input type",
 * "Concrete Inputs"; ../shared/notes/kineto_hta.md §1.5, flops.md §1.0).
 *
 *   op_flops(op_name, input_dims_json [, input_types_json [, recorded_flops [, concrete_inputs_json]]])
 *   op_bytes(op_name, input_dims_json [, input_types_json [, recorded_bytes [, concrete_inputs_json]]])
 *
 * These run over whole trace tables, so they never raise an error for data: an unknown op, malformed
 * JSON, dims that do not fit the op, or an overflowing count give NULL. Formulas follow PyTorch's
 * torch/utils/flop_counter.py where it has one (GEMMs, convolution, attention) and NVIDIA PyProf
 * otherwise (flops.md §1.4-§1.8), except where a comment says otherwise; docs/sql-functions.md lists them.
 * Nothing here is copied from either project: the formulas are restated from the notes.
 */
#include "flops.h"
#include "op_memo.h"

#include <math.h>
#include <string.h>

/* Element size used when an input's type is missing or not recognised: float32, PyTorch's default. */
#define PQ_DEFAULT_ELEM 4

/* One entry of "Input Dims" with its "Input type". */
typedef struct {
	int rank;               /* >= 0: a shape; -1: not a shape (null, nested list, garbage) */
	int64_t dim[PQ_MAX_RANK];
	int tensor;             /* counts as a tensor */
	int elem;               /* bytes per element */
	int list_ok;            /* a list of shapes (TensorList): list_numel is valid */
	int64_t list_numel;     /* total elements over the list */
	int64_t list_bytes;     /* total bytes over the list (element size of this entry) */
} pq_in;

typedef struct {
	int n;
	pq_in *in;              /* sqlite3_malloc64'd, n entries */
	const cJSON *concrete;  /* the "Concrete Inputs" array, or NULL */
} pq_op;

/* ---- element sizes from trace type strings ---------------------------------------------------- */

/* Non-tensor argument kinds as Kineto writes them (case matters: "Int" is a Python int argument,
 * "int" a tensor of int32). "" is an absent optional. */
static int is_nontensor_type(const char *t)
{
	static const char *const names[] = {
		"", "Scalar", "ScalarList", "GenericList", "TensorList", "Int", "Bool", "Double",
		"String", "Device", "Layout", "ScalarType", "MemoryFormat", "Generator", "Stream",
		"None", "Tuple", "SymInt", "SymFloat", "SymBool", "Object", "Storage",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(t, names[i]) == 0)
			return 1;
	return 0;
}

/* Bytes per element of a tensor type string: C++ spellings from Kineto ("float", "c10::Half",
 * "long int", "c10::complex<float>"), torch dtype names ("torch.float16", "bfloat16", "int64").
 * 0 when not recognised. */
static int type_elem_size(const char *t)
{
	static const struct {
		const char *name;
		int size;
	} sizes[] = {
		{ "float", 4 }, { "float32", 4 }, { "double", 8 }, { "float64", 8 },
		{ "half", 2 }, { "float16", 2 }, { "bfloat16", 2 },
		{ "float8_e4m3fn", 1 }, { "float8_e5m2", 1 }, { "float8_e4m3fnuz", 1 },
		{ "float8_e5m2fnuz", 1 }, { "float8_e8m0fnu", 1 },
		{ "long int", 8 }, { "long", 8 }, { "int64", 8 }, { "int64_t", 8 }, { "long long", 8 },
		{ "long long int", 8 }, { "int", 4 }, { "int32", 4 }, { "int32_t", 4 },
		{ "short", 2 }, { "short int", 2 }, { "int16", 2 }, { "int16_t", 2 },
		{ "signed char", 1 }, { "char", 1 }, { "int8", 1 }, { "int8_t", 1 },
		{ "unsigned char", 1 }, { "uint8", 1 }, { "uint8_t", 1 }, { "byte", 1 }, { "bool", 1 },
		{ "unsigned short", 2 }, { "uint16", 2 }, { "unsigned int", 4 }, { "uint32", 4 },
		{ "unsigned long", 8 }, { "uint64", 8 },
		{ "complex<float>", 8 }, { "complex64", 8 }, { "cfloat", 8 },
		{ "complex<double>", 16 }, { "complex128", 16 }, { "cdouble", 16 },
		{ "complex<half>", 4 }, { "complex32", 4 }, { "chalf", 4 },
	};
	char buf[48];
	size_t n = 0;

	/* drop namespace prefixes (c10::, torch., at::) anywhere, e.g. c10::complex<c10::Half> */
	for (const char *p = t; *p != '\0' && n + 1 < sizeof buf; p++) {
		if (strncmp(p, "c10::", 5) == 0 || strncmp(p, "at::", 4) == 0) {
			p += (p[0] == 'c') ? 4 : 3;
			continue;
		}
		if (strncmp(p, "torch.", 6) == 0) {
			p += 5;
			continue;
		}
		buf[n++] = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p);
	}
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(buf, sizes[i].name) == 0)
			return sizes[i].size;
	return 0;
}

/* ---- parsing the arguments -------------------------------------------------------------------- */

/* Fills op from the dims and types JSON. 1 on success, 0 when the dims are not an array, -1 when
 * out of memory. */
static int op_parse(pq_op *op, const cJSON *dims, const cJSON *types)
{
	const cJSON *e;
	int i = 0, ntypes = (types != NULL && cJSON_IsArray(types)) ? cJSON_GetArraySize(types) : -1;

	op->n = 0;
	op->in = NULL;
	if (dims == NULL || !cJSON_IsArray(dims))
		return 0;
	op->n = cJSON_GetArraySize(dims);
	if (op->n == 0)
		return 1;
	op->in = sqlite3_malloc64((sqlite3_uint64)op->n * sizeof op->in[0]);
	if (op->in == NULL)
		return -1;
	cJSON_ArrayForEach(e, dims) {
		pq_in *in = &op->in[i];
		const cJSON *t = ntypes > i ? cJSON_GetArrayItem(types, i) : NULL;
		const char *ts = (t != NULL && cJSON_IsString(t)) ? t->valuestring : NULL;

		memset(in, 0, sizeof *in);
		in->rank = pq_json_shape(e, in->dim, PQ_MAX_RANK);
		in->elem = ts != NULL ? type_elem_size(ts) : 0;
		if (ts != NULL)
			in->tensor = in->rank >= 0 && !is_nontensor_type(ts);
		else
			in->tensor = in->rank >= 1;
		if (in->elem == 0)
			in->elem = PQ_DEFAULT_ELEM;
		/* a TensorList recorded as a list of shapes: [[2, 3], [2, 3]] */
		if (in->rank < 0 && cJSON_IsArray(e) && cJSON_GetArraySize(e) > 0) {
			const cJSON *s;
			int64_t dd[PQ_MAX_RANK], total = 0, nb;
			int ok = 1;

			cJSON_ArrayForEach(s, e) {
				int r = pq_json_shape(s, dd, PQ_MAX_RANK);
				int64_t ne;

				if (r < 0 || !pq_numel(dd, r, &ne) || !pq_add(total, ne, &total)) {
					ok = 0;
					break;
				}
			}
			if (ok && pq_mul(total, in->elem, &nb)) {
				in->list_ok = 1;
				in->list_numel = total;
				in->list_bytes = nb;
			}
		} else if (in->rank == 0 && cJSON_IsArray(e) && ts != NULL &&
			   strcmp(ts, "TensorList") == 0) {
			in->tensor = 0;
		}
		i++;
	}
	return 1;
}

/* The i-th input as a tensor of the given rank range, or NULL. */
static const pq_in *tensor_at(const pq_op *op, int i, int rmin, int rmax)
{
	if (i < 0 || i >= op->n)
		return NULL;
	if (!op->in[i].tensor || op->in[i].rank < rmin || op->in[i].rank > rmax)
		return NULL;
	return &op->in[i];
}

/* The i-th input is present as a tensor with at least one dimension (an optional bias, weight). */
static int has_tensor(const pq_op *op, int i)
{
	return i >= 0 && i < op->n && op->in[i].tensor && op->in[i].rank >= 1;
}

static int numel_of(const pq_in *t, int64_t *out)
{
	return pq_numel(t->dim, t->rank, out);
}

static int bytes_of(const pq_in *t, int64_t *out)
{
	int64_t n;

	return numel_of(t, &n) && pq_mul(n, t->elem, out);
}

/* Concrete Inputs: entry i parsed as JSON ("[2, 2]", "1", "True"); caller deletes. NULL if absent. */
static cJSON *concrete_json(const pq_op *op, int i)
{
	const cJSON *e;
	const char *s;

	if (op->concrete == NULL || i < 0)
		return NULL;
	e = cJSON_GetArrayItem(op->concrete, i);
	if (e == NULL)
		return NULL;
	if (!cJSON_IsString(e))
		return cJSON_Duplicate(e, 1);
	s = e->valuestring;
	if (strcmp(s, "True") == 0)
		return cJSON_CreateTrue();
	if (strcmp(s, "False") == 0)
		return cJSON_CreateFalse();
	if (strcmp(s, "same") == 0 || strcmp(s, "valid") == 0)
		return cJSON_CreateString(s);
	return cJSON_Parse(s);
}

/* A per-dimension integer list from Concrete Inputs entry i. 1 ok, 0 absent or not integers.
 * *same is set for padding 'same' (only when same != NULL). */
static int concrete_ivec(const pq_op *op, int i, pq_ivec *v, int *same)
{
	cJSON *j = concrete_json(op, i);
	int64_t d[PQ_MAX_RANK];
	int r, ok = 0;

	v->n = 0;
	if (j == NULL)
		return 0;
	if (same != NULL && cJSON_IsString(j)) {
		*same = strcmp(j->valuestring, "same") == 0;
		ok = 1;	/* 'valid' = no padding */
	} else if (cJSON_IsNumber(j) && j->valuedouble >= 0 && j->valuedouble <= PQ_MAX_JSON_DIM &&
		   j->valuedouble == floor(j->valuedouble)) {
		v->n = 1;
		v->v[0] = (int64_t)j->valuedouble;
		ok = 1;
	} else {
		r = pq_json_shape(j, d, PQ_MAX_RANK);
		if (r >= 1 && r <= PQ_CONV_MAXSP) {
			v->n = r;
			memcpy(v->v, d, (size_t)r * sizeof d[0]);
			ok = 1;
		}
	}
	cJSON_Delete(j);
	return ok;
}

static int concrete_int(const pq_op *op, int i, int64_t *out)
{
	pq_ivec v;

	if (!concrete_ivec(op, i, &v, NULL) || v.n != 1)
		return 0;
	*out = v.v[0];
	return 1;
}

/* A boolean (True/False/1/0); dflt when absent. */
static int concrete_bool(const pq_op *op, int i, int dflt)
{
	cJSON *j = concrete_json(op, i);
	int r = dflt;

	if (j != NULL) {
		if (cJSON_IsBool(j))
			r = cJSON_IsTrue(j);
		else if (cJSON_IsNumber(j))
			r = j->valuedouble != 0;
		cJSON_Delete(j);
	}
	return r;
}

/* A list of booleans ("[True, False, True]"): bit i set when element i is true; dflt when absent.
 * Python's repr is not JSON, so the string is scanned for True/False/1/0 tokens. */
static unsigned concrete_mask(const pq_op *op, int i, unsigned dflt)
{
	const cJSON *e;
	const char *s;
	unsigned m = 0;
	int n = 0;

	if (op->concrete == NULL || i < 0 || (e = cJSON_GetArrayItem(op->concrete, i)) == NULL ||
	    !cJSON_IsString(e))
		return dflt;
	for (s = e->valuestring; *s != '\0' && n < 8;) {
		if (strncmp(s, "True", 4) == 0 || strncmp(s, "true", 4) == 0 || *s == '1') {
			m |= 1u << n++;
			s += (*s == '1') ? 1 : 4;
		} else if (strncmp(s, "False", 5) == 0 || strncmp(s, "false", 5) == 0 || *s == '0') {
			n++;
			s += (*s == '0') ? 1 : 5;
		} else {
			s++;
		}
	}
	return n > 0 ? m : dflt;
}

/* ---- the op table ----------------------------------------------------------------------------- */

enum fam {
	F_MM, F_ADDMM, F_BMM, F_BADDBMM, F_MATMUL, F_LINEAR, F_MV, F_ADDMV, F_DOT, F_SCALED_MM,
	F_CONV, F_CONV_BWD, F_ATTN, F_ATTN_BWD,
	F_SOFTMAX, F_LOG_SOFTMAX, F_NORM_AFFINE, F_BATCH_NORM, F_BATCH_NORM_BWD,
	F_UNARY, F_TRANSC, F_BINARY, F_COMPARE, F_POW, F_TERNARY, F_ACT, F_ACT_BWD, F_DROPOUT,
	F_COPY, F_TO_COPY, F_CLONE, F_CAT, F_FILL, F_EMBEDDING, F_EMBEDDING_BWD,
	F_SUM, F_MEAN, F_VNORM, F_MSE,
};

/* Where a convolution op keeps its arguments (-1: not an argument of that op). */
typedef struct {
	int stride, pad, dil, groups, transposed, opad; /* indices into Concrete Inputs */
	int is_transposed;                              /* fixed by the op (conv_transposeNd) */
	int bias;                                       /* index of the bias tensor, -1 none */
} conv_layout;

static const conv_layout CONV_ND = { 3, 4, 5, 6, -1, -1, 0, 2 };             /* conv1d/2d/3d */
static const conv_layout CONV_GEN = { 3, 4, 5, 8, 6, 7, 0, 2 };              /* convolution, _convolution */
static const conv_layout CONV_TND = { 3, 4, 7, 6, -1, 5, 1, 2 };             /* conv_transposeNd */
static const conv_layout CONV_CUDNN = { 3, 2, 4, 5, -1, -1, 0, -1 };         /* cudnn_convolution */
static const conv_layout CONV_CUDNN_T = { 4, 2, 5, 6, -1, 3, 1, -1 };        /* cudnn_convolution_transpose */
static const conv_layout CONV_BIASPSD = { 4, 3, 5, 6, -1, -1, 0, 2 };        /* mkldnn/miopen_convolution */
static const conv_layout CONV_SLOW2D = { 4, 5, -1, -1, -1, -1, 0, 3 };       /* _slow_conv2d_forward */

/* Convolution backward: which inputs hold grad_output, input and weight (or the weight's sizes in
 * Concrete Inputs), and the default output mask (bit 0 grad_input, bit 1 grad_weight). */
typedef struct {
	int gy, x, w, w_sizes, groups, transposed, mask;
	unsigned dflt_mask;
} conv_bwd_layout;

static const conv_bwd_layout CONVB_GEN = { 0, 1, 2, -1, 9, 7, 10, 3 };       /* convolution_backward */
static const conv_bwd_layout CONVB_CUDNN = { 1, 0, 2, -1, 6, -1, 10, 3 };    /* cudnn_convolution_backward */
static const conv_bwd_layout CONVB_INPUT = { 1, -1, 2, -1, 6, -1, -1, 1 };   /* cudnn_convolution_backward_input */
static const conv_bwd_layout CONVB_WEIGHT = { 1, 2, -1, 0, 6, -1, -1, 2 };   /* cudnn_convolution_backward_weight */

/* Attention: where q, k, v are and whether they are [B, H, S, D] (0) or [B, S, H, D] (1). */
typedef struct {
	int q, bshd;
} attn_layout;

static const attn_layout ATTN_BHSD = { 0, 0 }, ATTN_BSHD = { 0, 1 };
static const attn_layout ATTNB_BHSD = { 1, 0 }, ATTNB_BSHD = { 1, 1 };

/* For affine norms: the index of the weight (affine when present). */
static const int W_AT_1 = 1, W_AT_2 = 2;

typedef struct {
	const char *name;
	enum fam fam;
	const void *arg;
} op_entry;

static const op_entry ops[] = {
	/* GEMM family (flop_counter.py mm/addmm/bmm/baddbmm/_scaled_mm; flops.md §1.1) */
	{ "mm", F_MM, NULL }, { "addmm", F_ADDMM, NULL }, { "bmm", F_BMM, NULL },
	{ "baddbmm", F_BADDBMM, NULL }, { "matmul", F_MATMUL, NULL }, { "linear", F_LINEAR, NULL },
	{ "mv", F_MV, NULL }, { "addmv", F_ADDMV, NULL }, { "dot", F_DOT, NULL }, { "vdot", F_DOT, NULL },
	{ "_scaled_mm", F_SCALED_MM, NULL },
	/* convolution (flop_counter.py conv_flop_count; flops.md §1.2) */
	{ "conv1d", F_CONV, &CONV_ND }, { "conv2d", F_CONV, &CONV_ND }, { "conv3d", F_CONV, &CONV_ND },
	{ "convolution", F_CONV, &CONV_GEN }, { "_convolution", F_CONV, &CONV_GEN },
	{ "conv_transpose1d", F_CONV, &CONV_TND }, { "conv_transpose2d", F_CONV, &CONV_TND },
	{ "conv_transpose3d", F_CONV, &CONV_TND },
	{ "cudnn_convolution", F_CONV, &CONV_CUDNN },
	{ "cudnn_convolution_transpose", F_CONV, &CONV_CUDNN_T },
	{ "mkldnn_convolution", F_CONV, &CONV_BIASPSD }, { "miopen_convolution", F_CONV, &CONV_BIASPSD },
	{ "_slow_conv2d_forward", F_CONV, &CONV_SLOW2D }, { "thnn_conv2d", F_CONV, &CONV_SLOW2D },
	{ "convolution_backward", F_CONV_BWD, &CONVB_GEN },
	{ "cudnn_convolution_backward", F_CONV_BWD, &CONVB_CUDNN },
	{ "cudnn_convolution_backward_input", F_CONV_BWD, &CONVB_INPUT },
	{ "cudnn_convolution_backward_weight", F_CONV_BWD, &CONVB_WEIGHT },
	/* attention (flop_counter.py sdpa_flop_count / sdpa_backward_flop_count; flops.md §1.3) */
	{ "scaled_dot_product_attention", F_ATTN, &ATTN_BHSD },
	{ "_scaled_dot_product_flash_attention", F_ATTN, &ATTN_BHSD },
	{ "_scaled_dot_product_flash_attention_for_cpu", F_ATTN, &ATTN_BHSD },
	{ "_scaled_dot_product_efficient_attention", F_ATTN, &ATTN_BHSD },
	{ "_scaled_dot_product_cudnn_attention", F_ATTN, &ATTN_BHSD },
	{ "_flash_attention_forward", F_ATTN, &ATTN_BSHD },
	{ "_efficient_attention_forward", F_ATTN, &ATTN_BSHD },
	{ "_scaled_dot_product_flash_attention_backward", F_ATTN_BWD, &ATTNB_BHSD },
	{ "_scaled_dot_product_efficient_attention_backward", F_ATTN_BWD, &ATTNB_BHSD },
	{ "_scaled_dot_product_cudnn_attention_backward", F_ATTN_BWD, &ATTNB_BHSD },
	{ "_flash_attention_backward", F_ATTN_BWD, &ATTNB_BSHD },
	{ "_efficient_attention_backward", F_ATTN_BWD, &ATTNB_BSHD },
	/* softmax (PyProf softmax.py; flops.md §1.5) */
	{ "softmax", F_SOFTMAX, NULL }, { "_softmax", F_SOFTMAX, NULL },
	{ "log_softmax", F_LOG_SOFTMAX, NULL }, { "_log_softmax", F_LOG_SOFTMAX, NULL },
	/* normalisation (fvcore for layer/group/instance norm, PyProf for batch norm; flops.md §1.4) */
	{ "layer_norm", F_NORM_AFFINE, &W_AT_2 }, { "native_layer_norm", F_NORM_AFFINE, &W_AT_2 },
	{ "group_norm", F_NORM_AFFINE, &W_AT_2 }, { "native_group_norm", F_NORM_AFFINE, &W_AT_1 },
	{ "instance_norm", F_NORM_AFFINE, &W_AT_1 },
	{ "batch_norm", F_BATCH_NORM, NULL }, { "native_batch_norm", F_BATCH_NORM, NULL },
	{ "cudnn_batch_norm", F_BATCH_NORM, NULL }, { "miopen_batch_norm", F_BATCH_NORM, NULL },
	{ "_batch_norm_impl_index", F_BATCH_NORM, NULL },
	{ "_native_batch_norm_legit", F_BATCH_NORM, NULL },
	{ "_native_batch_norm_legit_no_training", F_BATCH_NORM, NULL },
	{ "native_batch_norm_backward", F_BATCH_NORM_BWD, NULL },
	{ "cudnn_batch_norm_backward", F_BATCH_NORM_BWD, NULL },
	{ "miopen_batch_norm_backward", F_BATCH_NORM_BWD, NULL },
	/* pointwise (PyProf pointwise.py, activation.py, dropout.py; flops.md §1.6) */
	{ "abs", F_UNARY, NULL }, { "neg", F_UNARY, NULL }, { "negative", F_UNARY, NULL },
	{ "reciprocal", F_UNARY, NULL }, { "ceil", F_UNARY, NULL }, { "floor", F_UNARY, NULL },
	{ "round", F_UNARY, NULL }, { "sign", F_UNARY, NULL }, { "sgn", F_UNARY, NULL },
	{ "trunc", F_UNARY, NULL }, { "fix", F_UNARY, NULL }, { "frac", F_UNARY, NULL },
	{ "clamp", F_UNARY, NULL }, { "clip", F_UNARY, NULL }, { "clamp_min", F_UNARY, NULL },
	{ "clamp_max", F_UNARY, NULL }, { "square", F_UNARY, NULL },
	{ "bitwise_not", F_UNARY, NULL }, { "nan_to_num", F_UNARY, NULL },
	{ "exp", F_TRANSC, NULL }, { "exp2", F_TRANSC, NULL }, { "expm1", F_TRANSC, NULL },
	{ "log", F_TRANSC, NULL }, { "log2", F_TRANSC, NULL }, { "log10", F_TRANSC, NULL },
	{ "log1p", F_TRANSC, NULL }, { "sqrt", F_TRANSC, NULL }, { "rsqrt", F_TRANSC, NULL },
	{ "sin", F_TRANSC, NULL }, { "cos", F_TRANSC, NULL }, { "tan", F_TRANSC, NULL },
	{ "asin", F_TRANSC, NULL }, { "acos", F_TRANSC, NULL }, { "atan", F_TRANSC, NULL },
	{ "sinh", F_TRANSC, NULL }, { "cosh", F_TRANSC, NULL }, { "tanh", F_TRANSC, NULL },
	{ "asinh", F_TRANSC, NULL }, { "acosh", F_TRANSC, NULL }, { "atanh", F_TRANSC, NULL },
	{ "sigmoid", F_TRANSC, NULL }, { "erf", F_TRANSC, NULL }, { "erfc", F_TRANSC, NULL },
	{ "erfinv", F_TRANSC, NULL },
	{ "add", F_BINARY, NULL }, { "sub", F_BINARY, NULL }, { "subtract", F_BINARY, NULL },
	{ "rsub", F_BINARY, NULL }, { "mul", F_BINARY, NULL }, { "multiply", F_BINARY, NULL },
	{ "div", F_BINARY, NULL }, { "divide", F_BINARY, NULL }, { "true_divide", F_BINARY, NULL },
	{ "floor_divide", F_BINARY, NULL }, { "remainder", F_BINARY, NULL }, { "fmod", F_BINARY, NULL },
	{ "maximum", F_BINARY, NULL }, { "minimum", F_BINARY, NULL }, { "fmax", F_BINARY, NULL },
	{ "fmin", F_BINARY, NULL }, { "bitwise_and", F_BINARY, NULL }, { "bitwise_or", F_BINARY, NULL },
	{ "bitwise_xor", F_BINARY, NULL },
	{ "eq", F_COMPARE, NULL }, { "ne", F_COMPARE, NULL }, { "lt", F_COMPARE, NULL },
	{ "le", F_COMPARE, NULL }, { "gt", F_COMPARE, NULL }, { "ge", F_COMPARE, NULL },
	{ "greater", F_COMPARE, NULL }, { "less", F_COMPARE, NULL },
	{ "greater_equal", F_COMPARE, NULL }, { "less_equal", F_COMPARE, NULL },
	{ "not_equal", F_COMPARE, NULL }, { "logical_and", F_COMPARE, NULL },
	{ "logical_or", F_COMPARE, NULL }, { "logical_xor", F_COMPARE, NULL },
	{ "pow", F_POW, NULL }, { "float_power", F_POW, NULL },
	{ "addcmul", F_TERNARY, NULL }, { "addcdiv", F_TERNARY, NULL },
	{ "relu", F_ACT, NULL }, { "relu6", F_ACT, NULL }, { "gelu", F_ACT, NULL }, { "silu", F_ACT, NULL },
	{ "mish", F_ACT, NULL }, { "elu", F_ACT, NULL }, { "selu", F_ACT, NULL }, { "celu", F_ACT, NULL },
	{ "leaky_relu", F_ACT, NULL }, { "hardtanh", F_ACT, NULL }, { "hardswish", F_ACT, NULL },
	{ "hardsigmoid", F_ACT, NULL }, { "softplus", F_ACT, NULL }, { "softshrink", F_ACT, NULL },
	{ "hardshrink", F_ACT, NULL }, { "threshold", F_ACT, NULL }, { "rrelu", F_ACT, NULL },
	{ "log_sigmoid", F_ACT, NULL },
	{ "threshold_backward", F_ACT_BWD, NULL }, { "gelu_backward", F_ACT_BWD, NULL },
	{ "silu_backward", F_ACT_BWD, NULL }, { "hardtanh_backward", F_ACT_BWD, NULL },
	{ "elu_backward", F_ACT_BWD, NULL }, { "leaky_relu_backward", F_ACT_BWD, NULL },
	{ "sigmoid_backward", F_ACT_BWD, NULL }, { "tanh_backward", F_ACT_BWD, NULL },
	{ "softplus_backward", F_ACT_BWD, NULL }, { "hardswish_backward", F_ACT_BWD, NULL },
	{ "hardsigmoid_backward", F_ACT_BWD, NULL }, { "mish_backward", F_ACT_BWD, NULL },
	{ "dropout", F_DROPOUT, NULL }, { "native_dropout", F_DROPOUT, NULL },
	{ "feature_dropout", F_DROPOUT, NULL }, { "alpha_dropout", F_DROPOUT, NULL },
	{ "_fused_dropout", F_DROPOUT, NULL },
	/* data movement (PyProf misc.py, convert.py; flops.md §1.6, §1.8) */
	{ "copy", F_COPY, NULL }, { "_to_copy", F_TO_COPY, NULL }, { "clone", F_CLONE, NULL },
	{ "cat", F_CAT, NULL }, { "concat", F_CAT, NULL }, { "concatenate", F_CAT, NULL },
	{ "stack", F_CAT, NULL }, { "fill", F_FILL, NULL }, { "zero", F_FILL, NULL },
	{ "embedding", F_EMBEDDING, NULL }, { "embedding_backward", F_EMBEDDING_BWD, NULL },
	{ "embedding_dense_backward", F_EMBEDDING_BWD, NULL },
	/* reductions and loss (PyProf reduction.py, loss.py; flops.md §1.7) */
	{ "sum", F_SUM, NULL }, { "nansum", F_SUM, NULL }, { "mean", F_MEAN, NULL },
	{ "nanmean", F_MEAN, NULL }, { "norm", F_VNORM, NULL }, { "linalg_vector_norm", F_VNORM, NULL },
	{ "frobenius_norm", F_VNORM, NULL }, { "mse_loss", F_MSE, NULL },
};

static const op_entry *find_op(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strlen(ops[i].name) == len && memcmp(ops[i].name, name, len) == 0)
			return &ops[i];
	return NULL;
}

/* "aten::add_" -> add; "aten.mm.default" -> mm; "mm" -> mm. An in-place or out-of-place trailing '_'
 * is dropped when the exact name is not in the table. */
static const op_entry *lookup_op(const char *name)
{
	const op_entry *e;
	size_t len;

	if (strncmp(name, "aten::", 6) == 0) {
		name += 6;
		len = strlen(name);
	} else if (strncmp(name, "aten.", 5) == 0) {
		const char *dot;

		name += 5;
		dot = strchr(name, '.');
		len = dot != NULL ? (size_t)(dot - name) : strlen(name);
	} else {
		len = strlen(name);
	}
	if (len == 0)
		return NULL;
	e = find_op(name, len);
	if (e == NULL && len > 1 && name[len - 1] == '_')
		e = find_op(name, len - 1);
	return e;
}

/* ---- formulas --------------------------------------------------------------------------------- */

typedef struct {
	int64_t flops, bytes;
} pq_cost;

/* GEMM with batch b: A [m, k], B [k, n]; bytes = b·(m·k·sa + k·n·sb + m·n·so). */
static int gemm_cost(int64_t b, int64_t m, int64_t n, int64_t k, int sa, int sb, int so, pq_cost *c)
{
	int64_t x, y, z;

	if (!pq_mul(2, b, &c->flops) || !pq_mul(c->flops, m, &c->flops) ||
	    !pq_mul(c->flops, n, &c->flops) || !pq_mul(c->flops, k, &c->flops))
		return 0;
	if (!pq_mul(m, k, &x) || !pq_mul(x, sa, &x) || !pq_mul(k, n, &y) || !pq_mul(y, sb, &y) ||
	    !pq_mul(m, n, &z) || !pq_mul(z, so, &z) || !pq_add(x, y, &x) || !pq_add(x, z, &x) ||
	    !pq_mul(x, b, &c->bytes))
		return 0;
	return 1;
}

/* Adds the bytes of an optional extra tensor input (bias, C). */
static int add_tensor_bytes(const pq_op *op, int i, pq_cost *c)
{
	int64_t b;

	if (!has_tensor(op, i))
		return 1;
	return bytes_of(&op->in[i], &b) && pq_add(c->bytes, b, &c->bytes);
}

static int cost_mm(const pq_op *op, int ia, int ib, int out_elem, pq_cost *c)
{
	const pq_in *a = tensor_at(op, ia, 2, 2), *b = tensor_at(op, ib, 2, 2);

	if (a == NULL || b == NULL || a->dim[1] != b->dim[0])
		return 0;
	return gemm_cost(1, a->dim[0], b->dim[1], a->dim[1], a->elem, b->elem,
			 out_elem > 0 ? out_elem : a->elem, c);
}

static int cost_bmm(const pq_op *op, int ia, int ib, pq_cost *c)
{
	const pq_in *a = tensor_at(op, ia, 3, 3), *b = tensor_at(op, ib, 3, 3);

	if (a == NULL || b == NULL || a->dim[0] != b->dim[0] || a->dim[2] != b->dim[1])
		return 0;
	return gemm_cost(a->dim[0], a->dim[1], b->dim[2], a->dim[2], a->elem, b->elem, a->elem, c);
}

/* Broadcast two shapes (right-aligned, NumPy rules) into out; the rank, or -1 if incompatible. */
static int broadcast(const int64_t *a, int ra, const int64_t *b, int rb, int64_t *out)
{
	int r = ra > rb ? ra : rb;

	for (int i = 0; i < r; i++) {
		int64_t x = i < ra ? a[ra - 1 - i] : 1, y = i < rb ? b[rb - 1 - i] : 1;

		if (x != y && x != 1 && y != 1)
			return -1;
		out[r - 1 - i] = x == 1 ? y : x;
	}
	return r;
}

/* torch.matmul: 1-D operands are promoted (and the added dimension removed), batch dims broadcast. */
static int cost_matmul(const pq_op *op, pq_cost *c)
{
	const pq_in *a = tensor_at(op, 0, 1, PQ_MAX_RANK), *b = tensor_at(op, 1, 1, PQ_MAX_RANK);
	int64_t m, k, n, kb, batch[PQ_MAX_RANK], nb, outn, na, nbb, x;
	int rb;

	if (a == NULL || b == NULL)
		return 0;
	m = a->rank >= 2 ? a->dim[a->rank - 2] : 1;
	k = a->dim[a->rank - 1];
	kb = b->rank >= 2 ? b->dim[b->rank - 2] : b->dim[0];
	n = b->rank >= 2 ? b->dim[b->rank - 1] : 1;
	if (k != kb)
		return 0;
	rb = broadcast(a->dim, a->rank >= 2 ? a->rank - 2 : 0, b->dim, b->rank >= 2 ? b->rank - 2 : 0,
		       batch);
	if (rb < 0 || !pq_numel(batch, rb, &nb))
		return 0;
	if (!pq_mul(2, nb, &c->flops) || !pq_mul(c->flops, m, &c->flops) ||
	    !pq_mul(c->flops, n, &c->flops) || !pq_mul(c->flops, k, &c->flops))
		return 0;
	if (!bytes_of(a, &na) || !bytes_of(b, &nbb) || !pq_mul(nb, m, &outn) || !pq_mul(outn, n, &outn) ||
	    !pq_mul(outn, a->elem, &x) || !pq_add(na, nbb, &c->bytes) || !pq_add(c->bytes, x, &c->bytes))
		return 0;
	return 1;
}

/* linear(input [..., in], weight [out, in] or [in], bias): 2·prod(input[:-1])·in·out. */
static int cost_linear(const pq_op *op, pq_cost *c)
{
	const pq_in *x = tensor_at(op, 0, 1, PQ_MAX_RANK), *w = tensor_at(op, 1, 1, 2);
	int64_t rows, in, out;

	if (x == NULL || w == NULL)
		return 0;
	in = x->dim[x->rank - 1];
	out = w->rank == 2 ? w->dim[0] : 1;
	if (w->dim[w->rank - 1] != in || !pq_numel(x->dim, x->rank - 1, &rows))
		return 0;
	return gemm_cost(1, rows, out, in, x->elem, w->elem, x->elem, c) && add_tensor_bytes(op, 2, c);
}

/* mv(A [m, k], x [k]) at inputs ia, ix. */
static int cost_mv(const pq_op *op, int ia, int ix, pq_cost *c)
{
	const pq_in *a = tensor_at(op, ia, 2, 2), *x = tensor_at(op, ix, 1, 1);

	if (a == NULL || x == NULL || a->dim[1] != x->dim[0])
		return 0;
	return gemm_cost(1, a->dim[0], 1, a->dim[1], a->elem, x->elem, a->elem, c);
}

static int cost_conv(const pq_op *op, const conv_layout *L, pq_cost *c)
{
	const pq_in *x = tensor_at(op, 0, 2, 5), *w = tensor_at(op, 1, 3, 5);
	pq_ivec stride, pad, dil, opad = { 0, { 0 } };
	int64_t groups, transposed = L->is_transposed, e;
	int same = 0, bias = L->bias;
	pq_conv g;

	if (x == NULL || w == NULL || op->concrete == NULL)
		return 0;
	/* an older cudnn_convolution had a bias tensor at 2, which shifts the rest by one */
	if (L == &CONV_CUDNN && has_tensor(op, 2)) {
		static const conv_layout old = { 4, 3, 5, 6, -1, -1, 0, 2 };

		L = &old;
		bias = 2;
	}
	if (!concrete_ivec(op, L->stride, &stride, NULL) || !concrete_ivec(op, L->pad, &pad, &same))
		return 0;
	if (L->dil < 0)
		dil.n = 0;
	else if (!concrete_ivec(op, L->dil, &dil, NULL))
		return 0;
	if (L->opad >= 0 && !concrete_ivec(op, L->opad, &opad, NULL))
		opad.n = 0;
	if (L->transposed >= 0)
		transposed = concrete_bool(op, L->transposed, 0);
	if (L->groups < 0 || !concrete_int(op, L->groups, &groups)) {
		/* infer from the shapes: C_in = weight[1]·groups for a forward convolution */
		if (transposed || w->dim[1] == 0 || x->dim[x->rank == w->rank ? 1 : 0] % w->dim[1] != 0)
			return 0;
		groups = x->dim[x->rank == w->rank ? 1 : 0] / w->dim[1];
	}
	if (pq_conv_setup(&g, x->dim, x->rank, w->dim, w->rank, &stride, &pad, same, &dil, &opad, groups,
			  (int)transposed) != NULL)
		return 0;
	if (!pq_conv_flops(&g, &c->flops) || !pq_conv_elems(&g, &e) || !pq_mul(e, x->elem, &c->bytes))
		return 0;
	return add_tensor_bytes(op, bias, c);
}

/* Convolution backward: each computed gradient costs one forward convolution (flop_counter.py:
 * grad_input is the transposed convolution of grad_output with the weight, grad_weight the
 * convolution of the input with grad_output). For groups > 1 we charge grad_weight the forward count,
 * not flop_counter's g× count (flops.md §1.2, §1.10). Bytes: grad_input reads grad_output and weight
 * and writes grad_input; grad_weight reads grad_output and input and writes grad_weight. */
static int cost_conv_bwd(const pq_op *op, const conv_bwd_layout *L, pq_cost *c)
{
	const pq_in *gy = tensor_at(op, L->gy, 3, 5), *x = tensor_at(op, L->x, 3, 5);
	const pq_in *w = tensor_at(op, L->w, 3, 5);
	int64_t wd[PQ_MAX_RANK], xd[PQ_MAX_RANK], fwd = 2, ne_gy, ne_x, ne_w, t;
	int wr, xr, transposed = 0;
	unsigned mask;

	if (gy == NULL)
		return 0;
	if (w != NULL) {
		wr = w->rank;
		memcpy(wd, w->dim, sizeof wd);
	} else {
		/* cudnn_convolution_backward_weight: the weight's sizes are a list argument */
		cJSON *j = concrete_json(op, L->w_sizes);

		wr = pq_json_shape(j, wd, PQ_MAX_RANK);
		cJSON_Delete(j);
	}
	if (x != NULL) {
		xr = x->rank;
		memcpy(xd, x->dim, sizeof xd);
	} else {
		/* cudnn_convolution_backward_input: the input's sizes are a list argument */
		cJSON *j = concrete_json(op, 0);

		xr = pq_json_shape(j, xd, PQ_MAX_RANK);
		cJSON_Delete(j);
	}
	if (wr != gy->rank || (xr >= 0 && xr != wr))
		return 0;
	if (L->transposed >= 0)
		transposed = concrete_bool(op, L->transposed, 0);
	mask = (L->mask >= 0 ? concrete_mask(op, L->mask, L->dflt_mask) : L->dflt_mask) & L->dflt_mask;
	/* grad_output has the forward output's channels: w0, or w1·groups when transposed */
	if (!transposed && gy->dim[1] != wd[0])
		return 0;
	if (transposed && xr < 0)
		return 0;
	/* the forward count 2·N·w0·w1·prod(kernel)·prod(spatial); spatial = the forward output's
	 * (grad_output's), or the forward input's for a transposed convolution */
	if (!pq_mul(fwd, gy->dim[0], &fwd) || !pq_mul(fwd, wd[0], &fwd) || !pq_mul(fwd, wd[1], &fwd))
		return 0;
	for (int i = 2; i < wr; i++)
		if (!pq_mul(fwd, wd[i], &fwd) || !pq_mul(fwd, transposed ? xd[i] : gy->dim[i], &fwd))
			return 0;
	if (!numel_of(gy, &ne_gy) || !pq_numel(wd, wr, &ne_w))
		return 0;
	/* without the input's size (an old trace with no Concrete Inputs) the bytes are unknown */
	if (xr < 0)
		ne_x = -1;
	else if (!pq_numel(xd, xr, &ne_x))
		return 0;
	c->flops = 0;
	c->bytes = 0;
	for (unsigned part = 1; part <= 2; part++) {
		if (!(mask & part))
			continue;
		/* grad_input: gy + w read, grad_input written; grad_weight: gy + x read, grad_w written */
		if (!pq_add(c->flops, fwd, &c->flops))
			return 0;
		if (ne_x < 0)
			c->bytes = -1;
		else if (c->bytes >= 0 && (!pq_add(ne_gy, ne_w, &t) || !pq_add(t, ne_x, &t) ||
					   !pq_mul(t, gy->elem, &t) || !pq_add(c->bytes, t, &c->bytes)))
			return 0;
	}
	return mask != 0;
}

/* Attention shapes: batch·heads, s_q, s_k, d_q, d_v and the element counts of q, k, v, out. */
typedef struct {
	int64_t bh, sq, sk, dq, dv, nq, nk, nv, no;
	int elem;
} attn_dims;

static int attn_shape(const pq_op *op, const attn_layout *L, attn_dims *a)
{
	const pq_in *q, *k, *v;

	if (L->bshd) {
		/* [B, S, H, D]; a 3-D (variable-length, packed) query needs cu_seqlens: not counted */
		q = tensor_at(op, L->q, 4, 4);
		k = tensor_at(op, L->q + 1, 4, 4);
		v = tensor_at(op, L->q + 2, 4, 4);
		if (q == NULL || k == NULL || v == NULL)
			return 0;
		if (!pq_mul(q->dim[0], q->dim[2], &a->bh))
			return 0;
		a->sq = q->dim[1];
		a->dq = q->dim[3];
		a->sk = k->dim[1];
		a->dv = v->dim[3];
		if (k->dim[3] != a->dq || v->dim[1] != a->sk || k->dim[0] != q->dim[0])
			return 0;
	} else {
		/* [..., S, D], leading dims (batch, heads) of the query; fewer key/value heads (GQA) are
		 * broadcast, so the query's heads count */
		q = tensor_at(op, L->q, 2, PQ_MAX_RANK);
		k = tensor_at(op, L->q + 1, 2, PQ_MAX_RANK);
		v = tensor_at(op, L->q + 2, 2, PQ_MAX_RANK);
		if (q == NULL || k == NULL || v == NULL)
			return 0;
		if (!pq_numel(q->dim, q->rank - 2, &a->bh))
			return 0;
		a->sq = q->dim[q->rank - 2];
		a->dq = q->dim[q->rank - 1];
		a->sk = k->dim[k->rank - 2];
		a->dv = v->dim[v->rank - 1];
		if (k->dim[k->rank - 1] != a->dq || v->dim[v->rank - 2] != a->sk)
			return 0;
	}
	a->elem = q->elem;
	return numel_of(q, &a->nq) && numel_of(k, &a->nk) && numel_of(v, &a->nv) &&
	       pq_mul(a->bh, a->sq, &a->no) && pq_mul(a->no, a->dv, &a->no);
}

/* Forward: 2·bh·sq·sk·dq (Q·Kᵀ) + 2·bh·sq·sk·dv (P·V); softmax, scaling, masking not counted and
 * causal masking not discounted, as in flop_counter.py. Bytes: a fused kernel reading q, k, v and
 * writing out once (no materialised attention matrix). Backward: five such products,
 * 2·bh·sq·sk·(3·dq + 2·dv) = 2.5× forward when dq = dv; bytes read grad_out, q, k, v, out and write
 * grad_q, grad_k, grad_v. */
static int cost_attn(const pq_op *op, const attn_layout *L, int backward, pq_cost *c)
{
	attn_dims a;
	int64_t base, d, t;

	if (!attn_shape(op, L, &a))
		return 0;
	if (!pq_mul(2, a.bh, &base) || !pq_mul(base, a.sq, &base) || !pq_mul(base, a.sk, &base))
		return 0;
	if (!backward) {
		if (!pq_add(a.dq, a.dv, &d))
			return 0;
		if (!pq_add(a.nq, a.nk, &t) || !pq_add(t, a.nv, &t) || !pq_add(t, a.no, &t))
			return 0;
	} else {
		int64_t d3, d2;

		if (!pq_mul(a.dq, 3, &d3) || !pq_mul(a.dv, 2, &d2) || !pq_add(d3, d2, &d))
			return 0;
		if (!pq_add(a.nq, a.nk, &t) || !pq_add(t, a.nv, &t) || !pq_mul(t, 2, &t) ||
		    !pq_add(t, a.no, &t) || !pq_add(t, a.no, &t))
			return 0;
	}
	return pq_mul(base, d, &c->flops) && pq_mul(t, a.elem, &c->bytes);
}

/* cost = (flops_per_elem·numel(in0) + flops_add, bytes_factor·bytes(in0)) */
static int cost_scaled(const pq_op *op, int64_t fpe, int64_t fadd, int64_t bf, pq_cost *c)
{
	const pq_in *x = tensor_at(op, 0, 0, PQ_MAX_RANK);
	int64_t n, b;

	if (x == NULL || !numel_of(x, &n) || !pq_mul(n, x->elem, &b))
		return 0;
	return pq_mul(n, fpe, &c->flops) && pq_add(c->flops, fadd, &c->flops) && pq_mul(b, bf, &c->bytes);
}

/* Elementwise over the first `arity` inputs (later ones are an out= tensor or scalars): the output
 * is their broadcast shape; FLOPs = fpe·numel(out); bytes = Σ bytes(inputs) + numel(out)·out_elem,
 * out_elem = 1 for comparisons (bool) or the largest input element size. */
static int cost_elementwise(const pq_op *op, int arity, int64_t fpe, int bool_out, pq_cost *c)
{
	int64_t shape[PQ_MAX_RANK], tmp[PQ_MAX_RANK], no, in_bytes = 0, b;
	int rank = -1, elem = 0;

	for (int i = 0; i < arity && i < op->n; i++) {
		const pq_in *t = &op->in[i];

		if (!t->tensor || t->rank < 0)
			continue;
		if (rank < 0) {
			rank = t->rank;
			memcpy(shape, t->dim, (size_t)rank * sizeof shape[0]);
		} else {
			rank = broadcast(shape, rank, t->dim, t->rank, tmp);
			if (rank < 0)
				return 0;
			memcpy(shape, tmp, (size_t)rank * sizeof shape[0]);
		}
		if (!bytes_of(t, &b) || !pq_add(in_bytes, b, &in_bytes))
			return 0;
		if (t->elem > elem)
			elem = t->elem;
	}
	if (rank < 0 || !pq_numel(shape, rank, &no))
		return 0;
	if (bool_out)
		elem = 1;
	return pq_mul(no, fpe, &c->flops) && pq_mul(no, elem, &b) && pq_add(in_bytes, b, &c->bytes);
}

/* Affine norms (layer/group/instance): fvcore's 5·numel with weight, 4·numel without; bytes
 * (ours, ideal): read x once, write y once, read weight and bias. */
static int cost_norm_affine(const pq_op *op, int wi, pq_cost *c)
{
	int affine = has_tensor(op, wi);

	if (!cost_scaled(op, affine ? 5 : 4, 0, 2, c))
		return 0;
	return add_tensor_bytes(op, wi, c) && add_tensor_bytes(op, wi + 1, c);
}

/* embedding(weight [V, D], indices): bytes(indices) + 2·numel(indices)·D·elem(weight) (PyProf). */
static int cost_embedding(const pq_op *op, pq_cost *c)
{
	const pq_in *w = tensor_at(op, 0, 2, 2), *ix = tensor_at(op, 1, 0, PQ_MAX_RANK);
	int64_t ni, bi, t;

	if (w == NULL || ix == NULL || !numel_of(ix, &ni) || !bytes_of(ix, &bi))
		return 0;
	c->flops = 0;
	return pq_mul(ni, w->dim[1], &t) && pq_mul(t, 2 * (int64_t)w->elem, &t) &&
	       pq_add(t, bi, &c->bytes);
}

/* embedding backward (grad [..., D], indices): 3·numel(indices)·D·elem(grad) (PyProf). */
static int cost_embedding_bwd(const pq_op *op, pq_cost *c)
{
	const pq_in *g = tensor_at(op, 0, 1, PQ_MAX_RANK), *ix = tensor_at(op, 1, 0, PQ_MAX_RANK);
	int64_t ni, t;

	if (g == NULL || ix == NULL || !numel_of(ix, &ni))
		return 0;
	c->flops = 0;
	return pq_mul(ni, g->dim[g->rank - 1], &t) && pq_mul(t, 3 * (int64_t)g->elem, &c->bytes);
}

/* copy_(self (destination), src): numel·(elem(src) + elem(dst)) bytes, no FLOPs (PyProf convert.py). */
static int cost_copy(const pq_op *op, pq_cost *c)
{
	const pq_in *d = tensor_at(op, 0, 0, PQ_MAX_RANK), *s = tensor_at(op, 1, 0, PQ_MAX_RANK);
	int64_t n;

	if (d == NULL || !numel_of(d, &n))
		return 0;
	c->flops = 0;
	return pq_mul(n, (int64_t)d->elem + (s != NULL ? s->elem : d->elem), &c->bytes);
}

/* cat/stack: 2·Σ bytes(inputs), no FLOPs (PyProf misc.py). Needs the tensor list's shapes. */
static int cost_cat(const pq_op *op, pq_cost *c)
{
	if (op->n < 1 || !op->in[0].list_ok)
		return 0;
	c->flops = 0;
	return pq_mul(op->in[0].list_bytes, 2, &c->bytes);
}

static int op_cost(const op_entry *e, const pq_op *op, pq_cost *c)
{
	c->flops = 0;
	c->bytes = 0;
	switch (e->fam) {
	case F_MM: return cost_mm(op, 0, 1, 0, c);
	case F_ADDMM: return cost_mm(op, 1, 2, 0, c) && add_tensor_bytes(op, 0, c);
	case F_BMM: return cost_bmm(op, 0, 1, c);
	case F_BADDBMM: return cost_bmm(op, 1, 2, c) && add_tensor_bytes(op, 0, c);
	case F_MATMUL: return cost_matmul(op, c);
	case F_LINEAR: return cost_linear(op, c);
	case F_MV: return cost_mv(op, 0, 1, c);
	case F_ADDMV: return cost_mv(op, 1, 2, c) && add_tensor_bytes(op, 0, c);
	case F_DOT: {
		const pq_in *a = tensor_at(op, 0, 1, 1), *b = tensor_at(op, 1, 1, 1);

		if (a == NULL || b == NULL || a->dim[0] != b->dim[0])
			return 0;
		return gemm_cost(1, 1, 1, a->dim[0], a->elem, b->elem, a->elem, c);
	}
	/* FP8 inputs; the output dtype is an argument we cannot see: assume 2 bytes (bf16/fp16) */
	case F_SCALED_MM: return cost_mm(op, 0, 1, 2, c) && add_tensor_bytes(op, 4, c);
	case F_CONV: return cost_conv(op, e->arg, c);
	case F_CONV_BWD: return cost_conv_bwd(op, e->arg, c);
	case F_ATTN: return cost_attn(op, e->arg, 0, c);
	case F_ATTN_BWD: return cost_attn(op, e->arg, 1, c);
	/* PyProf softmax.py: 40 (softmax) / 21 (log_softmax) FLOPs per element, 3× the input's bytes */
	case F_SOFTMAX: return cost_scaled(op, 40, 0, 3, c);
	case F_LOG_SOFTMAX: return cost_scaled(op, 21, 0, 3, c);
	case F_NORM_AFFINE: return cost_norm_affine(op, *(const int *)e->arg, c);
	/* PyProf normalization.py: 8 FLOPs per element; 4× bytes forward (2 reads, 2 writes), 5× backward */
	case F_BATCH_NORM: return cost_scaled(op, 8, 0, 4, c);
	case F_BATCH_NORM_BWD: return cost_scaled(op, 8, 0, 5, c);
	case F_UNARY: return cost_scaled(op, 1, 0, 2, c);
	case F_TRANSC: return cost_scaled(op, 20, 0, 2, c);
	case F_BINARY: return cost_elementwise(op, 2, 1, 0, c);
	case F_COMPARE: return cost_elementwise(op, 2, 1, 1, c);
	case F_POW: return cost_elementwise(op, 2, 20, 0, c);
	case F_TERNARY: return cost_elementwise(op, 3, 3, 0, c);
	case F_ACT: return cost_scaled(op, 1, 0, 2, c);
	case F_ACT_BWD: return cost_scaled(op, 1, 0, 3, c);
	case F_DROPOUT: return cost_scaled(op, 5, 0, 2, c);
	case F_COPY: return cost_copy(op, c);
	case F_TO_COPY: return cost_scaled(op, 0, 0, 2, c);
	case F_CLONE: return cost_scaled(op, 0, 0, 2, c);
	case F_CAT: return cost_cat(op, c);
	case F_FILL: return cost_scaled(op, 0, 0, 1, c);
	case F_EMBEDDING: return cost_embedding(op, c);
	case F_EMBEDDING_BWD: return cost_embedding_bwd(op, c);
	/* PyProf reduction.py / loss.py */
	case F_SUM: return cost_scaled(op, 1, 0, 1, c);
	case F_MEAN: {
		const pq_in *x = tensor_at(op, 0, 0, PQ_MAX_RANK);

		return cost_scaled(op, 1, 1, 1, c) && x != NULL && pq_add(c->bytes, x->elem, &c->bytes);
	}
	case F_VNORM: return cost_scaled(op, 2, 1, 1, c);
	case F_MSE: return cost_scaled(op, 2, 1, 1, c);
	}
	return 0;
}

/* ---- the SQL functions ------------------------------------------------------------------------ */

/* Parses a JSON argument; NULL for SQL NULL, non-text, or malformed JSON (caller deletes). */
static cJSON *json_arg(sqlite3_value *v)
{
	if (sqlite3_value_type(v) != SQLITE_TEXT)
		return NULL;
	return cJSON_Parse((const char *)sqlite3_value_text(v));
}

/* The recorded value (argument 4) when it is a non-negative number: 1 and the result set. */
static int use_recorded(sqlite3_context *ctx, sqlite3_value *v)
{
	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_INTEGER:
		if (sqlite3_value_int64(v) < 0)
			return 0;
		sqlite3_result_int64(ctx, sqlite3_value_int64(v));
		return 1;
	case SQLITE_FLOAT: {
		double d = sqlite3_value_double(v);

		if (!(d >= 0.0) || isinf(d))
			return 0;
		sqlite3_result_double(ctx, d);
		return 1;
	}
	default:
		return 0;
	}
}

/* Both counts of one call (the formulas give both at once). */
static int op_compute(int argc, sqlite3_value **argv, pq_op_result *r)
{
	const op_entry *e;
	cJSON *dims = NULL, *types = NULL, *conc = NULL;
	pq_op op = { 0, NULL, NULL };
	pq_cost c;
	const char *name = (const char *)sqlite3_value_text(argv[0]);
	int rc;

	memset(r, 0, sizeof(*r));
	if (name == NULL || (e = lookup_op(name)) == NULL)
		return 0;
	dims = json_arg(argv[1]);
	if (argc >= 3)
		types = json_arg(argv[2]);
	if (argc >= 5) {
		conc = json_arg(argv[4]);
		if (conc != NULL && cJSON_IsArray(conc))
			op.concrete = conc;
	}
	rc = dims != NULL ? op_parse(&op, dims, types) : 0;
	/* a negative count means "not known for this op" (bytes of an old conv backward) */
	if (rc > 0 && op_cost(e, &op, &c)) {
		r->flops = c.flops;
		r->bytes = c.bytes;
		r->ok_flops = c.flops >= 0;
		r->ok_bytes = c.bytes >= 0;
	}
	sqlite3_free(op.in);
	cJSON_Delete(dims);
	cJSON_Delete(types);
	cJSON_Delete(conc);
	return rc < 0 ? -1 : 0;
}

static void op_func(sqlite3_context *ctx, int argc, sqlite3_value **argv, int want_bytes)
{
	pq_op_memo *memo = sqlite3_user_data(ctx);
	pq_op_result r;
	char key[4096];
	size_t len;

	if (argc >= 4 && use_recorded(ctx, argv[3]))
		return;
	if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
		sqlite3_result_null(ctx);
		return;
	}
	len = memo != NULL ? pq_op_memo_key(key, sizeof(key), argc, argv) : 0;
	if (len == 0 || !pq_op_memo_get(memo, key, len, &r)) {
		if (op_compute(argc, argv, &r) != 0) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		if (len != 0)
			pq_op_memo_put(memo, key, len, &r);
	}
	if (want_bytes ? r.ok_bytes : r.ok_flops)
		sqlite3_result_int64(ctx, want_bytes ? r.bytes : r.flops);
	else
		sqlite3_result_null(ctx);
}

static void op_flops_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	op_func(ctx, argc, argv, 0);
}

static void op_bytes_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	op_func(ctx, argc, argv, 1);
}

int pq_flops_ops_init(sqlite3 *db)
{
	/* one memo for the eight registrations (op_flops and op_bytes, 2 to 5 arguments) */
	pq_op_memo *memo = pq_op_memo_new(8);
	int rc = SQLITE_OK;

	if (memo == NULL)
		return SQLITE_NOMEM;
	for (int n = 2; n <= 5; n++) {
		int a = sqlite3_create_function_v2(db, "op_flops", n, PQ_FUNC_FLAGS, memo,
						   op_flops_func, NULL, NULL, pq_op_memo_release);
		int b = sqlite3_create_function_v2(db, "op_bytes", n, PQ_FUNC_FLAGS, memo,
						   op_bytes_func, NULL, NULL, pq_op_memo_release);

		if (rc == SQLITE_OK)
			rc = a != SQLITE_OK ? a : b;
	}
	return rc;
}
