#!/bin/sh
# kernel-flops on a hand-made trace with an A100 in deviceProperties (A100: fp32 19.5, fp16 312
# TFLOP/s, 1555 GB/s; docs/sql-functions.md). Expected values worked by hand:
#  * aten::mm [[64,128],[128,256]] float: 2*64*256*128 = 4194304 FLOPs,
#    4*(64*128 + 128*256 + 64*256) = 229376 bytes; one non-Tensor-Core kernel of 12 µs (fp32):
#    0.3495 TFLOP/s, 4194304/12e-6/19.5e12 = 1.79 %, AI 18.2857 > ridge 12.54 -> compute.
#  * aten::addmm (inside aten::linear, launched with addmm's external id) [[256],[32,512],[512,256]]
#    c10::Half: 2*32*256*512 = 8388608 FLOPs, 2*(32*512 + 512*256 + 32*256) + 2*256 = 311808 bytes;
#    two kernels of 8 and 2 µs share them 0.8/0.2: 6710886 / 1677722 FLOPs, 249446 / 62362 bytes;
#    fp16 peak: 0.27 %; AI 26.90 < ridge 200.6 -> memory. The s16816 kernel uses Tensor Cores.
#  * aten::conv2d with a recorded "flops": 1000000 (no Concrete Inputs, so no bytes), 5 µs fp32:
#    0.2 TFLOP/s, 1.03 %, AI and bound NULL.
#  * a kernel whose runtime's external id matches no op: op and FLOPs NULL.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

K() { X Kernel "$1" 'stream 7' "$2" "$3" "\"device\": 0, \"stream\": 7, \"correlation\": $4"; }
R() { X Runtime cudaLaunchKernel 456 "$1" 1 "\"correlation\": $2, \"External id\": $3"; }
trace_begin "$TMP/f.json"
X Operator aten::mm 456 100 100 '"External id": 10, "Input Dims": [[64,128],[128,256]], "Input type": ["float","float"]'
R 110 1 10; K ampere_sgemm_64x64_nn 150 12 1
X Operator aten::linear 456 300 200 '"External id": 20, "Input Dims": [[32,512],[256,512],[256]], "Input type": ["c10::Half","c10::Half","c10::Half"]'
X Operator aten::addmm 456 310 170 '"External id": 21, "Input Dims": [[256],[32,512],[512,256],[],[]], "Input type": ["c10::Half","c10::Half","c10::Half","Scalar","Scalar"]'
R 320 2 21; K ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn 350 8 2
R 330 3 21; K splitKreduce_kernel 358 2 3
X Operator aten::conv2d 456 600 100 '"External id": 30, "Input Dims": [[1,3,8,8],[4,3,3,3],[],[],[],[],[]], "Input type": ["float","float","","","","",""], "flops": 1000000'
R 610 4 30; K implicit_convolve_sgemm 650 5 4
R 750 5 99; K orphan 800 1 5
trace_end
# the same events in a trace object with deviceProperties
{ printf '{"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8, "computeMinor": 0, "numSms": 108}],\n"traceEvents": '
  cat "$TMP/f.json"; printf '}\n'; } >"$TMP/fd.json"
import_trace "$TMP/fd.json" "$TMP/f.db"

is "$("$PROFQ" kernel-flops "$TMP/f.db" --format csv | cut -d, -f2- | sed 1d)" \
"ampere_sgemm_64x64_nn,aten::mm,1,12000,4194304,229376,0.3495,1.79,18.2857,compute,0,fp32
ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn,aten::addmm,1,8000,6710886,249446,0.8389,0.27,26.9032,memory,1,fp16
splitKreduce_kernel,aten::addmm,1,2000,1677722,62362,0.8389,0.27,26.903,memory,0,fp16
implicit_convolve_sgemm,aten::conv2d,1,5000,1000000,,0.2,1.03,,,0,fp32
orphan,,1,1000,,,,,,,0,fp32" "kernel-flops: per kernel"

is "$("$PROFQ" kernel-flops "$TMP/f.db" --param by=op --format csv | cut -d, -f2- | sed 1d)" \
",aten::mm,1,12000,4194304,229376,0.3495,1.79,18.2857,compute,0,fp32
,aten::addmm,2,10000,8388608,311808,0.8389,0.27,26.9031,memory,1,fp16
,aten::conv2d,1,5000,1000000,,0.2,1.03,,,0,fp32
,,1,1000,,,,,,,0,fp32" "kernel-flops by op: sums, ratios from the sums"

is "$(cd "$TOP" && sqlite "$TMP/f.db" < queries/kernel-flops.sql 2>&1 | wc -l | tr -d ' ')" "5" \
	"kernel-flops runs in sqlite3"

done_testing
