#!/bin/sh
# tensor_core_kernel() and tensor_core_pattern() (ext/tensor_core.c): tb_plugin/PyProf allowlist
# semantics (case-sensitive substring, any pattern) plus the newer kernel families of flops.md 2.3.
. "${0%/*}/../lib.sh"

q() { sqlite -cmd ".load $EXT" :memory: "$1" 2>&1; }
tc() { q "select tensor_core_kernel('$1')"; }

# The 18 patterns of tb_plugin TC_Allowlist (= PyProf TC_Whitelist): each one, alone and inside
# a longer name, is a hit; so the function is a superset of tb_plugin.
for p in h884 s884 h1688 s1688 hmma i8816 16816 dgrad_1x1_stride_2x2 first_layer_wgrad_kernel \
	conv1x1 conv2d_c1_k1 direct_group xmma_implicit_gemm xmma_sparse_conv \
	xmma_warp_specialized_implicit_gemm xmma_gemm xmma_sparse_gemm c1688; do
	is "$(tc "$p")|$(tc "void ns::k<${p}_128x128>(int)")" "1|1" "tb_plugin pattern $p"
done

# Names from flops.md and tb_plugin/PyProf: positives.
while read -r name; do
	is "$(tc "$name")" 1 "Tensor Core: $name"
done <<'POS'
volta_h884gemm_128x128_ldg8_nn
volta_s884cudnn_256x64_ldg8_relu_exp_small_nhwc_tn_v1
turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn
ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_32x3_nn
ampere_tf32_s1688gemm_tf32_128x128_16x4_nn
sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel
void cutlass::Kernel<cutlass_75_tensorop_s1688gemm_f16_256x128_32x2_tn_align8>(cutlass_75_tensorop_s1688gemm_f16_256x128_32x2_tn_align8::Params)
nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NNT
cutlass3x_sm90_tensorop_s64x128x16gemm_f16_f16_f32_void_f16_128x256x64_2x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma
sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas_gmma
sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16
void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t>, false, true>(Flash_fwd_params)
void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<64>>(pytorch_flash::Flash_bwd_params)
fmha_cutlassF_f16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::half_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)
sm75_xmma_gemm_s8s8_s32_imma_tn
void wmma_gemm_kernel(const half *, const half *, float *, int, int, int)
POS

# Negatives: PyProf's non-GEMM kernels, SIMT GEMMs, elementwise and Triton kernels.
while read -r name; do
	is "$(tc "$name")" 0 "no Tensor Core: $name"
done <<'NEG'
kernelPointwiseApply2
reduce_1Block_kernel
elementwise_kernel
dot_kernel
volta_sgemm_128x64_nn
ampere_sgemm_128x64_tn
implicit_convolve_sgemm
gemv2T_kernel_val
void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)
void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, const T1 *, int, int, int, const bool *, int, bool)
triton_poi_fused_add_0
VOLTA_H884GEMM_128X128
XMMA_GEMM
NEG

# Case-sensitive, as tb_plugin: "H884" is not "h884".
is "$(tc H884gemm)" 0 "matching is case-sensitive"
is "$(q "select tensor_core_kernel(NULL) is NULL, tensor_core_pattern(NULL) is NULL, typeof(tensor_core_kernel('x'))")" "1|1|integer" \
	"NULL gives NULL; the result is an INTEGER"
is "$(q "select tensor_core_pattern('volta_h884gemm_128x128'), tensor_core_pattern('nvjet_hsh_256'), tensor_core_pattern('elementwise') is NULL")" \
	"h884|nvjet|1" "tensor_core_pattern names the matched pattern"
is "$(q "select tensor_core_kernel(16816)")" 1 "a number is matched as its text"
# Kept for tb_plugin compatibility although ffma means a SIMT FP32 kernel (docs/sql-functions.md).
is "$(tc sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas)" 1 \
	"tb_plugin's xmma_gemm also hits cuBLAS FP32 ffma kernels (known false positive)"

done_testing
