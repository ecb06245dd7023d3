/* tensor_core.c - tensor_core_kernel(name) and tensor_core_pattern(name): did a kernel use
 * Tensor Cores, judged from its name.
 *
 *   tensor_core_kernel(name)   1 when the name contains one of the patterns below, else 0
 *   tensor_core_pattern(name)  the first pattern found (so a result can be audited), else NULL
 *
 * Both return NULL for NULL; a number is read as its text.
 *
 * The rule is the one of the PyTorch TensorBoard profiler plugin (tb_plugin tensor_core.py,
 * TC_Allowlist) and NVIDIA PyProf (pyprof/prof/tc.py, TC_Whitelist, commit 7239fb6): a
 * case-sensitive substring match of any pattern against the kernel name. Those 18 patterns are
 * kept unchanged, so results agree with tb_plugin wherever it says 1. Newer kernel families
 * they miss are added after them (research notes: docs flops.md section 2.3):
 * cuBLAS >= 12 nvjet kernels, CUTLASS "tensorop" names (2.x and 3.x sm90), Hopper wgmma/gmma,
 * cuDNN "tensor16x8x16"-style shapes, the sm80+ 16x8x32 IMMA shape, the MMA instruction names
 * (imma, dmma, mma_sm), the WMMA API, TF32 GEMMs, FlashAttention and fused MHA kernels.
 *
 * Known limits (names do not prove anything; counters do): tb_plugin's "xmma_gemm" also
 * matches cuBLAS FP32 SIMT kernels such as "sm80_xmma_gemm_f32f32_..._ffma_..." (ffma = plain
 * FP32 FMA), which is kept for compatibility; Triton kernels ("triton_...") are not matched,
 * because a name does not say whether tl.dot ran on Tensor Cores.
 */
#include "ext.h"

#include <stddef.h>
#include <string.h>

static const char *const azTcPattern[] = {
	/* tb_plugin TC_Allowlist == PyProf TC_Whitelist, in their order. */
	"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816",
	"dgrad_1x1_stride_2x2", "first_layer_wgrad_kernel", "conv1x1",
	"conv2d_c1_k1", "direct_group", "xmma_implicit_gemm",
	"xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
	"xmma_gemm", "xmma_sparse_gemm", "c1688",
	/* Newer families (flops.md section 2.3, "suggested extension"). */
	"nvjet", "tensorop", "wgmma", "gmma", "tensor16x8x", "tensor8x8x", "i16832",
	"imma", "dmma", "mma_sm", "wmma", "_tf32", "tf32gemm",
	"flash_fwd", "flash_bwd", "fmha_",
};

/* The first pattern contained in z, or NULL. */
static const char *tcMatch(const char *z)
{
	size_t j;

	for (j = 0; j < sizeof(azTcPattern) / sizeof(azTcPattern[0]); j++)
		if (strstr(z, azTcPattern[j]) != NULL)
			return azTcPattern[j];
	return NULL;
}

/* Shared by both functions: bPattern 0 gives 1/0, 1 gives the pattern or NULL. */
static void tcFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int bPattern = sqlite3_user_data(ctx) != NULL;
	const char *z, *zPat;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	z = (const char *)sqlite3_value_text(argv[0]);
	if (z == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	zPat = tcMatch(z);
	if (bPattern) {
		if (zPat != NULL)
			sqlite3_result_text(ctx, zPat, -1, SQLITE_STATIC);
	} else {
		sqlite3_result_int(ctx, zPat != NULL);
	}
}

int pq_ext_tensor_core_init(sqlite3 *db)
{
	static char bPattern = 1; /* any non-NULL user data selects tensor_core_pattern() */
	int rc = sqlite3_create_function_v2(db, "tensor_core_kernel", 1, PQ_FUNC_FLAGS, NULL,
					    tcFunc, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, "tensor_core_pattern", 1, PQ_FUNC_FLAGS,
						&bPattern, tcFunc, NULL, NULL, NULL);
	return rc;
}
