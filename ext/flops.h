/* flops.h - internals shared by the FLOP/byte/roofline family (flops.c, flops_ops.c, roofline.c).
 *
 * Counting conventions (../../shared/notes/flops.md §1.0, §1.10): one multiply-add is 2 FLOPs, as in
 * NVIDIA PyProf and PyTorch's torch/utils/flop_counter.py; bytes are ideal DRAM traffic (every
 * operand read once, every result written once). All counts are exact non-negative 64-bit integers:
 * the helpers below multiply and add with overflow checks, and an overflowing count is reported as an
 * error by the formula functions and as NULL by the trace-driven ones (op_flops, op_bytes).
 */
#ifndef PQ_FLOPS_H
#define PQ_FLOPS_H

#include "ext.h"

#include <stdint.h>

#include <cJSON.h>

/* Ranks above this are "dims that don't fit" (PyTorch tensors rarely exceed 8 dimensions). */
#define PQ_MAX_RANK 16

/* Largest dimension accepted from JSON: 2^53, beyond which a JSON number is no longer exact. */
#define PQ_MAX_JSON_DIM 9007199254740992.0

/* Registration of the other two files of the family; pq_ext_flops_init() calls both. */
int pq_flops_ops_init(sqlite3 *db);
int pq_roofline_init(sqlite3 *db);

/* Checked arithmetic on non-negative values: 1 and *out set, or 0 on overflow (or a negative input). */
static inline int pq_mul(int64_t a, int64_t b, int64_t *out)
{
	if (a < 0 || b < 0)
		return 0;
	if (a != 0 && b > INT64_MAX / a)
		return 0;
	*out = a * b;
	return 1;
}

static inline int pq_add(int64_t a, int64_t b, int64_t *out)
{
	if (a < 0 || b < 0 || b > INT64_MAX - a)
		return 0;
	*out = a + b;
	return 1;
}

/* Convolution geometry, 1 to 3 spatial dimensions, in PyTorch's layout: input [N, C, *spatial]
 * (or unbatched [C, *spatial]), weight [Cout, Cin/groups, *kernel], or for a transposed convolution
 * [Cin, Cout/groups, *kernel]. */
#define PQ_CONV_MAXSP 3
typedef struct {
	int nsp;                        /* number of spatial dimensions, 1..3 */
	int transposed;
	int64_t n, cin, cout, groups;
	int64_t w0, w1;                 /* weight dims 0 and 1 */
	int64_t in[PQ_CONV_MAXSP], k[PQ_CONV_MAXSP], out[PQ_CONV_MAXSP];
	int64_t stride[PQ_CONV_MAXSP], pad[PQ_CONV_MAXSP], dil[PQ_CONV_MAXSP], opad[PQ_CONV_MAXSP];
	int pad_same;                   /* padding='same': output spatial size = input's */
} pq_conv;

/* A per-dimension parameter as given: n values (1 = the same for every dimension), or absent (n = 0,
 * the default is used). */
typedef struct {
	int n;
	int64_t v[PQ_CONV_MAXSP];
} pq_ivec;

/* Fills *c from the input and weight shapes and the parameters (defaults: stride 1, padding 0,
 * dilation 1, output_padding 0). Returns NULL on success, or a static message saying what does not
 * fit (channels, ranks, an empty output, overflow). */
const char *pq_conv_setup(pq_conv *c, const int64_t *x, int xrank, const int64_t *w, int wrank,
			  const pq_ivec *stride, const pq_ivec *pad, int pad_same, const pq_ivec *dil,
			  const pq_ivec *opad, int64_t groups, int transposed);

/* Forward FLOPs as torch/utils/flop_counter.py counts them: 2·N·w0·w1·prod(kernel)·prod(spatial),
 * spatial being the output's (or the input's for a transposed convolution). 0 on overflow. */
int pq_conv_flops(const pq_conv *c, int64_t *out);

/* Elements of input + weight + output (PyProf's byte model without the element size). */
int pq_conv_elems(const pq_conv *c, int64_t *out);

/* A JSON array of non-negative integers (a shape) into dims[0..max-1]: the rank, or -1 when a is not
 * such an array (not an array, an element that is not an integral number in [0, 2^53], or rank > max). */
int pq_json_shape(const cJSON *a, int64_t *dims, int max);

/* Product of dims (1 for rank 0): 1 and *out, or 0 on overflow. */
int pq_numel(const int64_t *dims, int rank, int64_t *out);

/* Error helper: sets "fn: <printf message>" as the SQL error. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void pq_flops_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...);

#endif
