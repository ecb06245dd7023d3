#!/bin/sh
# FLOP and byte formulas: gemm_flops, gemm_bytes, conv_flops, conv_bytes, op_flops, op_bytes.
# Expected numbers are worked out by hand in the comments, or by an independent Python formula.
. "${0%/*}/../lib.sh"

# q SQL: run SQL with the extension loaded; stdout and stderr together.
q() {
	sqlite :memory: ".load $EXT" "$1" 2>&1
}

# ---- gemm_flops / gemm_bytes -------------------------------------------------------------------
# 2·m·n·k = 2·2048·4096·1024 = 17179869184
is "$(q "select gemm_flops(2048, 4096, 1024)")" 17179869184 "gemm_flops m n k"
# 2·12·128·128·64 = 25165824
is "$(q "select gemm_flops(128, 128, 64, 12)")" 25165824 "gemm_flops with batch"
is "$(q "select typeof(gemm_flops(2048, 4096, 1024))")" integer "gemm_flops is an integer"
# 2·(2048·1024 + 1024·4096 + 2048·4096) = 2·14680064 = 29360128
is "$(q "select gemm_bytes(2048, 4096, 1024, 2)")" 29360128 "gemm_bytes: A + B read, C written"
# 4·8·(64·64·3) = 393216
is "$(q "select gemm_bytes(64, 64, 64, 4, 8)")" 393216 "gemm_bytes with batch"
is "$(q "select gemm_flops(2.0, '3', 4)")" 48 "integral REAL and numeric TEXT accepted"
is "$(q "select quote(gemm_flops(NULL, 3, 4)), quote(gemm_bytes(1, 2, 3, NULL))")" "NULL|NULL" \
	"NULL argument gives NULL"
is "$(q "select gemm_flops(0, 3, 4)")" 0 "a zero dimension is 0 FLOPs"
like "$(q "select gemm_flops(-1, 3, 4)")" "gemm_flops: m must be >= 0" "negative m is an error"
like "$(q "select gemm_flops(2, 'abc', 4)")" "gemm_flops: n must be an integer" "text n is an error"
like "$(q "select gemm_flops(2, 3, 4.5)")" "gemm_flops: k must be an integer" "fractional k is an error"
like "$(q "select gemm_bytes(2, 3, 4, x'00')")" "gemm_bytes: elem_size must be an integer" "blob is an error"
like "$(q "select gemm_flops(4294967296, 4294967296, 2)")" "gemm_flops: result overflows" \
	"overflowing product is an error"
like "$(q "select gemm_bytes(4294967296, 4294967296, 1, 1)")" "gemm_bytes: result overflows" \
	"overflowing bytes is an error"
like "$(q "select gemm_flops(1, 2)")" "wrong number of arguments" "two arguments rejected"

# ---- conv_flops / conv_bytes -------------------------------------------------------------------
# ResNet-50 conv1: x [32,3,224,224], w [64,3,7,7], stride 2, padding 3 -> out 112×112
# 2·N·Cout·(Cin/g)·kh·kw·Ho·Wo = 2·32·64·3·49·12544 = 7552892928
is "$(q "select conv_flops('[32,3,224,224]', '[64,3,7,7]', 2, 3)")" 7552892928 "conv2d (ResNet conv1)"
is "$(q "select conv_flops('[32,3,224,224]', '[64,3,7,7]', '[2,2]', '[3,3]', '[1,1]', 1, 0)")" \
	7552892928 "conv2d with JSON per-dimension parameters"
# depthwise: x [1,64,56,56], w [64,1,3,3], groups 64, pad 1 -> 56×56: 2·64·1·9·3136 = 3612672
is "$(q "select conv_flops('[1,64,56,56]', '[64,1,3,3]', 1, 1, 1, 64)")" 3612672 "depthwise conv (groups = C)"
# grouped: x [2,32,28,28], w [48,8,3,3], groups 4, stride 2, pad 1 -> (28+2-2-1)/2+1 = 14
# 2·2·48·8·9·196 = 2709504
is "$(q "select conv_flops('[2,32,28,28]', '[48,8,3,3]', 2, 1, 1, 4)")" 2709504 "grouped conv"
# dilation: x [1,8,32,32], w [16,8,3,3], pad 2, dilation 2 -> (32+4-4-1)/1+1 = 32: 2·16·8·9·1024
is "$(q "select conv_flops('[1,8,32,32]', '[16,8,3,3]', 1, 2, 2)")" 2359296 "dilated conv"
# conv1d: x [4,16,100], w [32,16,5], stride 2 -> (100-4-1)/2+1 = 48: 2·4·32·16·5·48 = 983040
is "$(q "select conv_flops('[4,16,100]', '[32,16,5]', 2)")" 983040 "conv1d"
# conv3d: x [1,4,8,16,16], w [8,4,3,3,3], stride [1,2,2], pad 1 -> 8×8×8: 2·8·4·27·512 = 884736
is "$(q "select conv_flops('[1,4,8,16,16]', '[8,4,3,3,3]', '[1,2,2]', 1)")" 884736 "conv3d"
# unbatched input [C, H, W] is N = 1
is "$(q "select conv_flops('[4,8,16,16]', '[8,4,3,3,3]', '[1,2,2]', 1)")" 884736 "unbatched conv3d input"
# padding 'same': x [1,3,10,10], w [6,3,3,3] -> 10×10: 2·6·3·9·100 = 32400
is "$(q "select conv_flops('[1,3,10,10]', '[6,3,3,3]', 1, 'same')")" 32400 "padding 'same'"
is "$(q "select conv_flops('[1,3,10,10]', '[6,3,3,3]', 1, 'valid')")" \
	"$(q "select conv_flops('[1,3,10,10]', '[6,3,3,3]', 1, 0)")" "padding 'valid' is 0"
# transposed: x [1,16,8,8], w [16,8,4,4] (Cin, Cout/g, k), stride 2, pad 1;
# flop_counter uses the input spatial size: 2·1·16·8·16·64 = 262144
is "$(q "select conv_flops('[1,16,8,8]', '[16,8,4,4]', 2, 1, 1, 1, 1)")" 262144 "transposed conv"
# conv_bytes: fp16, ResNet conv1: 2·(32·3·224·224 + 64·3·7·7 + 32·64·112·112)
#   = 2·(4816896 + 9408 + 25690112) = 61032832
is "$(q "select conv_bytes('[32,3,224,224]', '[64,3,7,7]', 2, 2, 3)")" 61032832 "conv_bytes"
# transposed output: (8-1)·2 - 2 + 3 + 1 = 16 per side, output_padding 1 -> 17
#   bytes (fp32) = 4·(16·64 + 16·8·16 + 8·17·17) = 4·(1024 + 2048 + 2312) = 21536
is "$(q "select conv_bytes('[1,16,8,8]', '[16,8,4,4]', 4, 2, 1, 1, 1, 1, 1)")" 21536 \
	"conv_bytes, transposed with output_padding"
is "$(q "select quote(conv_flops(NULL, '[64,3,7,7]'))")" NULL "NULL input dims give NULL"
like "$(q "select conv_flops('[32,4,224,224]', '[64,3,7,7]')")" \
	"conv_flops: input channels do not equal weight dim 1 times groups" "channel mismatch is an error"
like "$(q "select conv_flops('[32,3,224,224', '[64,3,7,7]')")" "conv_flops: input_dims is not valid JSON" \
	"malformed JSON is an error"
like "$(q "select conv_flops('[32,3,224,224]', '[64,3]')")" "conv_flops: weight must have 3 to 5 dimensions" \
	"rank-2 weight is an error"
like "$(q "select conv_flops('[3,224,224]', '[64,3,7,7,7]')")" "conv_flops: input rank does not match" \
	"rank mismatch is an error"
like "$(q "select conv_flops('[1,3,4,4]', '[8,3,7,7]')")" "empty output" "kernel larger than input is an error"
like "$(q "select conv_flops('[1,-3,4,4]', '[8,3,7,7]')")" "conv_flops: input_dims must be a JSON array" \
	"negative dimension is an error"
like "$(q "select conv_flops('{\"a\":1}', '[8,3,7,7]')")" "conv_flops: input_dims must be a JSON array" \
	"JSON object is an error"
like "$(q "select conv_flops('[1,3,8,8]', '[8,3,3,3]', 0)")" "stride and dilation must be >= 1" "stride 0 is an error"
like "$(q "select conv_flops('[1,3,8,8]', '[8,3,3,3]', '[1,1,1]')")" "1 value or one per spatial" \
	"stride with the wrong length is an error"
like "$(q "select conv_flops('[1,6,8,8]', '[8,3,3,3]', 1, 0, 1, 0)")" "conv_flops: groups must be >= 1" "groups 0 is an error"
like "$(q "select conv_flops('[1,3,8,8]', '[8,3,3,3]', 1, 0, 1, 1, 2)")" "transposed must be 0 or 1" "transposed 2 is an error"
like "$(q "select conv_flops('[4294967296,4294967296,8,8]', '[4294967296,4294967296,3,3]')")" "overflow" \
	"overflowing conv count is an error"

# An independent Python formula over random cases (2-D, stride/padding/dilation/groups/transposed).
py - >"$TMP/conv.sql" 2>"$TMP/conv.expected" <<'PY'
import random, sys
random.seed(4)
for _ in range(60):
    g = random.choice([1, 1, 2, 4])
    n = random.randint(1, 4); cin = g * random.randint(1, 4); cout = g * random.randint(1, 4)
    h, w = random.randint(5, 40), random.randint(5, 40)
    kh, kw = random.randint(1, 5), random.randint(1, 5)
    s, p, d = random.randint(1, 3), random.randint(0, 2), random.randint(1, 2)
    t = random.random() < 0.25
    if not t:
        ho = (h + 2 * p - d * (kh - 1) - 1) // s + 1
        wo = (w + 2 * p - d * (kw - 1) - 1) // s + 1
        if ho <= 0 or wo <= 0:
            continue
        wt = [cout, cin // g, kh, kw]
        macs = n * cout * (cin // g) * kh * kw * ho * wo
    else:
        wt = [cin, cout // g, kh, kw]
        # flop_counter: input spatial for a transposed convolution
        macs = n * cin * (cout // g) * kh * kw * h * w
    print("select conv_flops('[%d,%d,%d,%d]', '%s', %d, %d, %d, %d, %d);"
          % (n, cin, h, w, str(wt).replace(' ', ''), s, p, d, g, 1 if t else 0))
    sys.stderr.write("%d\n" % (2 * macs))
PY
sqlite -cmd ".load $EXT" :memory: <"$TMP/conv.sql" >"$TMP/conv.got" 2>&1
cmp -s "$TMP/conv.got" "$TMP/conv.expected"
ok $? "conv_flops matches a Python formula on $(wc -l <"$TMP/conv.expected") random cases"

# ---- op_flops / op_bytes: GEMM family ----------------------------------------------------------
# aten::mm [32,1000] @ [1000,2048] (ResNet-50 fc backward): 2·32·2048·1000 = 131072000
# bytes (fp32) = 4·(32·1000 + 1000·2048 + 32·2048) = 4·2145536 = 8582144
is "$(q "select op_flops('aten::mm', '[[32,1000],[1000,2048]]', '[\"float\",\"float\"]')")" 131072000 "op_flops mm"
is "$(q "select op_bytes('aten::mm', '[[32,1000],[1000,2048]]', '[\"float\",\"float\"]')")" 8582144 "op_bytes mm"
# element size from the types: c10::Half = 2 -> half the bytes
is "$(q "select op_bytes('aten::mm', '[[32,1000],[1000,2048]]', '[\"c10::Half\",\"c10::Half\"]')")" 4291072 "op_bytes mm fp16"
is "$(q "select op_bytes('aten::mm', '[[32,1000],[1000,2048]]', '[\"c10::BFloat16\",\"c10::BFloat16\"]')")" 4291072 "op_bytes mm bf16"
is "$(q "select op_bytes('aten::mm', '[[32,1000],[1000,2048]]', '[\"double\",\"double\"]')")" 17164288 "op_bytes mm fp64"
is "$(q "select op_bytes('aten::mm', '[[32,1000],[1000,2048]]')")" 8582144 "types missing: 4 bytes (float32)"
is "$(q "select op_flops('mm', '[[32,1000],[1000,2048]]')")" 131072000 "op name without aten::"
is "$(q "select op_flops('aten.mm.default', '[[32,1000],[1000,2048]]')")" 131072000 "torch.ops style op name"
# addmm(bias [1000], x [32,2048], W^T [2048,1000]): 2·32·1000·2048 = 131072000; bytes add the bias:
# 4·(32·2048 + 2048·1000 + 32·1000 + 1000) = 4·2146536 = 8586144
is "$(q "select op_flops('aten::addmm', '[[1000],[32,2048],[2048,1000],[],[]]', '[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]')")" \
	131072000 "op_flops addmm (bias ignored, as flop_counter)"
is "$(q "select op_bytes('aten::addmm', '[[1000],[32,2048],[2048,1000],[],[]]', '[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]')")" \
	8586144 "op_bytes addmm (bias read)"
# bmm [12,128,64] @ [12,64,128]: 2·12·128·128·64 = 25165824
is "$(q "select op_flops('aten::bmm', '[[12,128,64],[12,64,128]]')")" 25165824 "op_flops bmm"
is "$(q "select op_flops('aten::baddbmm', '[[12,128,128],[12,128,64],[12,64,128],[],[]]')")" 25165824 "op_flops baddbmm"
# matmul with broadcast batch: [8,1,64,32] @ [4,32,16] -> batch [8,4]: 2·32·64·16·32 = 2097152
is "$(q "select op_flops('aten::matmul', '[[8,1,64,32],[4,32,16]]')")" 2097152 "op_flops matmul broadcast"
# matmul 1-D · 2-D: [32] @ [32,16] = 2·32·16 = 1024
is "$(q "select op_flops('aten::matmul', '[[32],[32,16]]')")" 1024 "op_flops matmul vector-matrix"
# linear x [32,128,768], W [3072,768]: 2·4096·768·3072 = 19327352832
is "$(q "select op_flops('aten::linear', '[[32,128,768],[3072,768],[3072]]')")" 19327352832 "op_flops linear"
# mv [1000,512] @ [512]: 2·1000·512
is "$(q "select op_flops('aten::mv', '[[1000,512],[512]]')")" 1024000 "op_flops mv"
is "$(q "select op_flops('aten::dot', '[[512],[512]]')")" 1024 "op_flops dot"
# _scaled_mm fp8 [4096,4096] @ [4096,8192]: 2·4096·8192·4096; bytes 1·(16M + 32M) + 2·32M
is "$(q "select op_flops('aten::_scaled_mm', '[[4096,4096],[4096,8192],[],[]]', '[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\"]')")" \
	274877906944 "op_flops _scaled_mm"
is "$(q "select op_bytes('aten::_scaled_mm', '[[4096,4096],[4096,8192],[],[]]', '[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\"]')")" \
	117440512 "op_bytes _scaled_mm (fp8 in, 2-byte out)"
is "$(q "select quote(op_flops('aten::mm', '[[32,1000],[999,2048]]'))")" NULL "mm with mismatched K is NULL"
is "$(q "select quote(op_flops('aten::mm', '[[4,32,1000],[1000,2048]]'))")" NULL "mm with a 3-D operand is NULL"
is "$(q "select quote(op_flops('aten::mm', '[[4294967296,4294967296],[4294967296,4294967296]]'))")" NULL \
	"overflowing op count is NULL"

# ---- convolution ops ----------------------------------------------------------------------------
# conv2d(input, weight, bias, stride, padding, dilation, groups); stride/padding come from the
# trace's Concrete Inputs
conc1='["", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "1"]'
is "$(q "select op_flops('aten::conv2d', '[[32,3,224,224],[64,3,7,7],[],[],[],[],[]]', NULL, NULL, '$conc1')")" \
	7552892928 "op_flops conv2d with Concrete Inputs"
is "$(q "select op_bytes('aten::conv2d', '[[32,3,224,224],[64,3,7,7],[],[],[],[],[]]', '[\"c10::Half\",\"c10::Half\"]', NULL, '$conc1')")" \
	61032832 "op_bytes conv2d = conv_bytes"
is "$(q "select quote(op_flops('aten::conv2d', '[[32,3,224,224],[64,3,7,7],[],[],[],[],[]]'))")" NULL \
	"conv2d without Concrete Inputs (stride unknown) is NULL"
# convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
is "$(q "select op_flops('aten::convolution', '[[2,32,28,28],[48,8,3,3],[],[],[],[],[],[],[]]', NULL, NULL, '[\"\",\"\",\"\",\"[2, 2]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"4\"]')")" \
	2709504 "op_flops convolution, grouped"
is "$(q "select op_flops('aten::_convolution', '[[1,16,8,8],[16,8,4,4],[],[],[],[],[],[],[],[],[],[],[]]', NULL, NULL, '[\"\",\"\",\"\",\"[2, 2]\",\"[1, 1]\",\"[1, 1]\",\"True\",\"[0, 0]\",\"1\",\"False\",\"False\",\"True\",\"True\"]')")" \
	262144 "op_flops _convolution, transposed"
is "$(q "select op_flops('aten::conv_transpose2d', '[[1,16,8,8],[16,8,4,4],[],[],[],[],[],[]]', NULL, NULL, '[\"\",\"\",\"\",\"[2, 2]\",\"[1, 1]\",\"[0, 0]\",\"1\",\"[1, 1]\"]')")" \
	262144 "op_flops conv_transpose2d"
is "$(q "select op_flops('aten::cudnn_convolution', '[[32,3,224,224],[64,3,7,7],[],[],[],[],[],[],[]]', NULL, NULL, '[\"\",\"\",\"[3, 3]\",\"[2, 2]\",\"[1, 1]\",\"1\",\"False\",\"False\",\"True\"]')")" \
	7552892928 "op_flops cudnn_convolution (padding before stride)"
is "$(q "select op_flops('aten::conv1d', '[[4,16,100],[32,16,5],[32],[],[],[],[]]', NULL, NULL, '[\"\",\"\",\"\",\"[2]\",\"[0]\",\"[1]\",\"1\"]')")" \
	983040 "op_flops conv1d"
# backward (from the ResNet-50 trace): x [32,512,7,7], grad_out [32,2048,7,7], w [2048,512,1,1]
# forward = 2·32·2048·512·49 = 3288334336; grad_input + grad_weight = 2× = 6576668672
is "$(q "select op_flops('aten::cudnn_convolution_backward', '[[32,512,7,7],[32,2048,7,7],[2048,512,1,1],[],[],[],[],[],[],[],[]]')")" \
	6576668672 "op_flops cudnn_convolution_backward = 2× forward"
is "$(q "select op_flops('aten::convolution_backward', '[[32,2048,7,7],[32,512,7,7],[2048,512,1,1],[],[],[],[],[],[],[],[]]', NULL, NULL, '[\"\",\"\",\"\",\"[2048]\",\"[1, 1]\",\"[0, 0]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"1\",\"[True, False, True]\"]')")" \
	3288334336 "op_flops convolution_backward, output_mask grad_input only"
is "$(q "select op_flops('aten::cudnn_convolution_backward_input', '[[],[32,2048,7,7],[2048,512,1,1],[],[],[],[],[],[],[]]')")" \
	3288334336 "op_flops cudnn_convolution_backward_input"
# cudnn_convolution_backward_weight(weight_size, grad_output, self, padding, stride, dilation, groups, ...)
is "$(q "select op_flops('aten::cudnn_convolution_backward_weight', '[[],[32,2048,7,7],[32,512,7,7],[],[],[],[]]', NULL, NULL, '[\"[2048, 512, 1, 1]\",\"\",\"\",\"[0, 0]\",\"[1, 1]\",\"[1, 1]\",\"1\"]')")" \
	3288334336 "op_flops cudnn_convolution_backward_weight (weight size from Concrete Inputs)"
# grad_input bytes need the input's size: unknown without Concrete Inputs, known with them:
# 4·(32·2048·49 + 2048·512 + 32·512·49) = 4·(3211264 + 1048576 + 802816) = 20250624
is "$(q "select quote(op_bytes('aten::cudnn_convolution_backward_input', '[[],[32,2048,7,7],[2048,512,1,1],[],[],[],[],[],[],[]]'))")" NULL \
	"op_bytes cudnn_convolution_backward_input without the input size is NULL"
is "$(q "select op_bytes('aten::cudnn_convolution_backward_input', '[[],[32,2048,7,7],[2048,512,1,1],[],[],[],[],[],[],[]]', NULL, NULL, '[\"[32, 512, 7, 7]\"]')")" 20250624 \
	"op_bytes cudnn_convolution_backward_input with the input size"

# ---- attention -----------------------------------------------------------------------------------
# q, k, v [8,16,1024,64] bf16: forward 4·b·h·s²·d = 4·8·16·1024²·64 = 34359738368
sd='[[8,16,1024,64],[8,16,1024,64],[8,16,1024,64],[],[],[],[]]'
bf='["c10::BFloat16","c10::BFloat16","c10::BFloat16","Double","Bool","Bool",""]'
is "$(q "select op_flops('aten::_scaled_dot_product_flash_attention', '$sd', '$bf')")" 34359738368 "op_flops flash attention"
is "$(q "select op_flops('aten::scaled_dot_product_attention', '$sd', '$bf')")" 34359738368 "op_flops sdpa"
is "$(q "select op_flops('aten::_scaled_dot_product_efficient_attention', '$sd', '$bf')")" 34359738368 "op_flops efficient attention"
# [B, S, H, D] layout of _flash_attention_forward gives the same count
is "$(q "select op_flops('aten::_flash_attention_forward', '[[8,1024,16,64],[8,1024,16,64],[8,1024,16,64]]')")" \
	34359738368 "op_flops _flash_attention_forward (BSHD)"
# backward = 2.5× forward = 85899345920
is "$(q "select op_flops('aten::_scaled_dot_product_flash_attention_backward', '[[8,16,1024,64],[8,16,1024,64],[8,16,1024,64],[8,16,1024,64],[8,16,1024,64]]')")" \
	85899345920 "op_flops attention backward = 2.5× forward"
# bytes: q + k + v + out, bf16: 4·8·16·1024·64·2 = 67108864
is "$(q "select op_bytes('aten::_scaled_dot_product_flash_attention', '$sd', '$bf')")" 67108864 "op_bytes attention"
# grouped-query attention: 32 query heads, 8 kv heads, s_q = 1, s_k = 4096, d = 128:
# 2·32·1·4096·(128+128) = 67108864
is "$(q "select op_flops('aten::scaled_dot_product_attention', '[[1,32,1,128],[1,8,4096,128],[1,8,4096,128]]')")" 67108864 "op_flops GQA decode"
is "$(q "select quote(op_flops('aten::_flash_attention_forward', '[[8192,16,64],[8192,16,64],[8192,16,64]]'))")" NULL \
	"variable-length (packed 3-D) attention is NULL"

# ---- softmax, norms, pointwise, reductions, embedding ------------------------------------------
# x [32,1000]: numel 32000
is "$(q "select op_flops('aten::softmax', '[[32,1000],[],[]]'), op_bytes('aten::softmax', '[[32,1000],[],[]]')")" \
	"1280000|384000" "softmax: 40·numel FLOPs, 3× bytes (PyProf)"
is "$(q "select op_flops('aten::_log_softmax', '[[32,1000],[],[]]', '[\"float\",\"Int\",\"Bool\"]')")" 672000 "log_softmax: 21·numel"
# layer_norm x [8,512,768] (3145728 elements), affine: 5·numel; bytes 2·4·numel + 2·768·4
is "$(q "select op_flops('aten::layer_norm', '[[8,512,768],[],[768],[768],[],[]]')")" 15728640 "layer_norm affine: 5·numel"
is "$(q "select op_flops('aten::layer_norm', '[[8,512,768],[],[],[],[],[]]')")" 12582912 "layer_norm no affine: 4·numel"
is "$(q "select op_bytes('aten::layer_norm', '[[8,512,768],[],[768],[768],[],[]]')")" 25171968 "layer_norm bytes"
is "$(q "select op_flops('aten::group_norm', '[[8,64,32,32],[],[64],[64],[],[]]')")" 2621440 "group_norm affine"
# batch_norm x [32,64,112,112] = 25690112 elements: 8·numel, bytes 4·4·numel
is "$(q "select op_flops('aten::cudnn_batch_norm', '[[32,64,112,112],[64],[64],[64],[64],[],[],[]]')")" 205520896 "batch_norm: 8·numel"
is "$(q "select op_bytes('aten::batch_norm', '[[32,64,112,112],[64],[64],[64],[64],[],[],[],[]]')")" 411041792 "batch_norm bytes: 4×"
is "$(q "select op_bytes('aten::native_batch_norm_backward', '[[32,64,112,112],[32,64,112,112],[64]]')")" 513802240 "batch_norm backward bytes: 5×"
# unary: relu_ (in-place name) numel 25690112, bytes 2×
is "$(q "select op_flops('aten::relu_', '[[32,64,112,112]]'), op_bytes('aten::relu_', '[[32,64,112,112]]')")" \
	"25690112|205520896" "relu_: numel FLOPs, 2× bytes"
is "$(q "select op_flops('aten::gelu', '[[4,1024]]')")" 4096 "gelu: numel"
is "$(q "select op_flops('aten::abs', '[[4,1024]]')")" 4096 "abs: numel"
is "$(q "select op_flops('aten::exp', '[[4,1024]]')")" 81920 "exp: 20·numel (PyProf estimate)"
is "$(q "select op_bytes('aten::threshold_backward', '[[32,2048,7,7],[32,2048,7,7],[]]', '[\"float\",\"float\",\"Int\"]')")" \
	38535168 "threshold_backward: 3× bytes"
# clamp_min.out(self, min, out): only the first input counts
is "$(q "select op_flops('aten::clamp_min', '[[32,64,112,112],[],[32,64,112,112]]')")" 25690112 "clamp_min with out= tensor"
# binary with broadcasting: [32,1,64] + [1,16,64] -> [32,16,64] = 32768 elements
# bytes = 4·2048 + 4·1024 + 4·32768 = 143360
is "$(q "select op_flops('aten::add', '[[32,1,64],[1,16,64],[]]', '[\"float\",\"float\",\"Scalar\"]')")" 32768 "add broadcast: numel(out)"
is "$(q "select op_bytes('aten::add', '[[32,1,64],[1,16,64],[]]', '[\"float\",\"float\",\"Scalar\"]')")" 143360 "add bytes: inputs + output"
is "$(q "select op_flops('aten::mul', '[[3,224,224],[]]', '[\"float\",\"Scalar\"]')")" 150528 "mul by a scalar"
is "$(q "select quote(op_flops('aten::add', '[[32,3],[32,4],[]]'))")" NULL "incompatible broadcast is NULL"
# comparison writes bool: 4·1000 + 4·1000 + 1·1000
is "$(q "select op_bytes('aten::eq', '[[1000],[1000]]')")" 9000 "eq writes a bool output"
is "$(q "select op_flops('aten::pow', '[[1000],[]]', '[\"float\",\"Scalar\"]')")" 20000 "pow: 20·numel"
is "$(q "select op_flops('aten::addcmul_', '[[1000],[1000],[1000],[]]')")" 3000 "addcmul: 3·numel"
is "$(q "select op_flops('aten::dropout', '[[1000],[],[]]')")" 5000 "dropout: 5·numel"
# embedding weight [30522,768] fp32, indices [8,512] int64:
# bytes = 8·4096 + 2·4096·768·4 = 32768 + 25165824 = 25198592
is "$(q "select op_flops('aten::embedding', '[[30522,768],[8,512],[],[],[]]', '[\"float\",\"long int\",\"Int\",\"Bool\",\"Bool\"]'), op_bytes('aten::embedding', '[[30522,768],[8,512],[],[],[]]', '[\"float\",\"long int\",\"Int\",\"Bool\",\"Bool\"]')")" \
	"0|25198592" "embedding: 0 FLOPs, gathered rows read and written"
is "$(q "select op_bytes('aten::embedding_dense_backward', '[[8,512,768],[8,512],[],[],[]]')")" 37748736 "embedding backward: 3·numel(idx)·D·s"
is "$(q "select op_flops('aten::sum', '[[32,1000],[],[],[]]', '[\"float\",\"GenericList\",\"Bool\",\"\"]'), op_bytes('aten::sum', '[[32,1000],[],[],[]]')")" \
	"32000|128000" "sum: numel FLOPs, numel·s bytes"
is "$(q "select op_flops('aten::mean', '[[32,2048,7,7],[],[],[]]'), op_bytes('aten::mean', '[[32,2048,7,7],[],[],[]]')")" \
	"3211265|12845060" "mean: numel + 1 FLOPs"
# copy_ fp32 <- fp16: numel·(4 + 2)
is "$(q "select op_bytes('aten::copy_', '[[1000],[1000],[]]', '[\"float\",\"c10::Half\",\"Bool\"]')")" 6000 "copy_ with a dtype change"
# cat of a tensor list recorded as shapes: 2·4·(2·3 + 4·3)
is "$(q "select op_bytes('aten::cat', '[[[2,3],[4,3]],[]]', '[\"TensorList\",\"Int\"]')")" 144 "cat: 2× input bytes"
is "$(q "select quote(op_bytes('aten::cat', '[[],[]]'))")" NULL "cat without list shapes is NULL"

# ---- NULL handling, unknown ops, malformed input, recorded flops -------------------------------
is "$(q "select quote(op_flops('aten::frobnicate', '[[32,1000]]'))")" NULL "unknown op is NULL"
is "$(q "select quote(op_flops(NULL, '[[32,1000]]')), quote(op_flops('aten::mm', NULL))")" "NULL|NULL" "NULL arguments give NULL"
is "$(q "select quote(op_flops('aten::mm', '[[32,1000],[1000,'))")" NULL "malformed dims JSON is NULL"
is "$(q "select quote(op_flops('aten::mm', '{\"a\":1}'))")" NULL "dims not an array is NULL"
is "$(q "select quote(op_flops('aten::mm', '[[32,-1000],[-1000,2048]]'))")" NULL "negative dims are NULL"
is "$(q "select quote(op_flops('aten::mm', '[[32.5,1000],[1000,2048]]'))")" NULL "fractional dims are NULL"
is "$(q "select quote(op_flops('aten::mm', 42))")" NULL "dims that are not text give NULL"
is "$(q "select op_bytes('aten::mm', '[[32,1000],[1000,2048]]', 'not json')")" 8582144 "malformed types JSON: default sizes"
is "$(q "select quote(op_flops('aten::conv2d', '[[32,3,224,224],[64,3,7,7]]', NULL, NULL, '[oops'))")" NULL \
	"malformed Concrete Inputs is NULL"
is "$(q "select op_flops('aten::mm', '[[32,1000],[1000,2048]]', NULL, 12345)")" 12345 "recorded flops win"
is "$(q "select op_flops('aten::frobnicate', 'garbage', NULL, 7.5)")" 7.5 "recorded flops win even for unknown ops"
is "$(q "select op_flops('aten::mm', '[[32,1000],[1000,2048]]', NULL, NULL)")" 131072000 "NULL recorded flops: computed"
is "$(q "select op_flops('aten::mm', '[[32,1000],[1000,2048]]', NULL, -1)")" 131072000 "negative recorded flops ignored"
like "$(q "select op_flops('aten::mm')")" "wrong number of arguments" "one argument rejected"

# A query in the shape the docs give: Kineto args -> op_flops, using json_extract.
is "$(q "select op_flops(name, json_extract(args, '\$.\"Input Dims\"'), json_extract(args, '\$.\"Input type\"'),
		json_extract(args, '\$.flops'))
	from (select 'aten::mm' as name, '{\"Input Dims\": [[32,1000],[1000,2048]], \"Input type\": [\"float\",\"float\"]}' as args
	      union all select 'aten::mm', '{\"Input Dims\": [[1,1],[1,1]], \"flops\": 99}')")" \
	"131072000
99" "op_flops over json_extract of trace args"

# ---- the ResNet-50 sample trace: every aten::mm/addmm vs 2·M·N·K in Python ----------------------
trace=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
if [ -f "$trace" ]; then
	py - "$trace" "$TMP/ops.db" >"$TMP/mm.expected" <<'PY'
import gzip, json, sqlite3, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
db = sqlite3.connect(sys.argv[2])
db.execute("create table ops(name, args)")
total = 0
for e in ev:
    a = e.get("args", {})
    if e.get("cat", "").lower() in ("cpu_op", "operator") and e.get("name") in ("aten::mm", "aten::addmm") \
            and "Input Dims" in a:
        d = a["Input Dims"]
        A, B = (d[0], d[1]) if e["name"] == "aten::mm" else (d[1], d[2])
        total += 2 * A[0] * A[1] * B[1]
        db.execute("insert into ops values (?, ?)", (e["name"], json.dumps(a)))
db.commit()
print(total)
PY
	got=$(sqlite "$TMP/ops.db" ".load $EXT" "select sum(op_flops(name, json_extract(args, '\$.\"Input Dims\"'),
		json_extract(args, '\$.\"Input type\"'))) from ops where op_flops(name, json_extract(args, '\$.\"Input Dims\"')) is not null" 2>&1)
	like "$(cat "$TMP/mm.expected")" '^[1-9][0-9]+$' "ResNet-50 trace: Python found mm/addmm ops"
	is "$got" "$(cat "$TMP/mm.expected")" "ResNet-50 trace: sum of mm/addmm FLOPs matches Python"
	is "$(sqlite "$TMP/ops.db" ".load $EXT" "select count(*) from ops where op_flops(name, json_extract(args, '\$.\"Input Dims\"')) is null")" 0 \
		"ResNet-50 trace: every mm/addmm has a count"
else
	skip "ResNet-50 trace: Python found mm/addmm ops" "$trace not present"
	skip "ResNet-50 trace: sum of mm/addmm FLOPs" "$trace not present"
	skip "ResNet-50 trace: every mm/addmm has a count" "$trace not present"
fi

# ---- the memo: results found by the arguments' bytes ------------------------------------------
# 3000 shapes (more than the memo's 1024 slots, so slots are shared and replaced), each asked three
# times in a shuffled order, mm and bmm, fp32 and fp16, with and without types; against the GEMM
# formulas in SQL arithmetic: flops 2·b·m·k·n, bytes e·b·(m·k + k·n + m·n).
cat >"$TMP/memo.sql" <<'SQL'
WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i WHERE x < 8999),
c AS (SELECT x % 3000 AS s, x FROM i),
g AS (SELECT s, x, 1 + s % 7 AS b, 1 + s % 97 AS m, 1 + (s / 97) % 31 AS k, 2 + s % 13 AS n,
             s % 2 AS bmm, (s / 2) % 3 AS ty FROM c),
a AS (SELECT *, CASE bmm WHEN 1 THEN 'aten::bmm' ELSE 'aten::mm' END AS name,
             CASE bmm WHEN 1 THEN printf('[[%d,%d,%d],[%d,%d,%d]]', b, m, k, b, k, n)
                  ELSE printf('[[%d,%d],[%d,%d]]', m, k, k, n) END AS dims,
             CASE ty WHEN 0 THEN '["float","float"]' WHEN 1 THEN '["c10::Half","c10::Half"]' END AS types,
             CASE ty WHEN 1 THEN 2 ELSE 4 END AS e, CASE bmm WHEN 1 THEN b ELSE 1 END AS bb FROM g)
SELECT count(*),
       sum(CASE WHEN ty = 2 THEN op_flops(name, dims) ELSE op_flops(name, dims, types) END
           IS NOT 2 * bb * m * k * n),
       sum(CASE WHEN ty = 2 THEN op_bytes(name, dims) ELSE op_bytes(name, dims, types) END
           IS NOT e * bb * (m * k + k * n + m * n))
FROM (SELECT * FROM a ORDER BY (x * 7919) % 9000);
SQL
is "$(sqlite -cmd ".load $EXT" :memory: <"$TMP/memo.sql" 2>&1)" "9000|0|0" \
	"op_flops / op_bytes over 3000 shapes asked three times each: all equal to the formulas"
# the same arguments, once as text and once not: NULL for the non-text dims, never the memo's
is "$(q "select op_flops('aten::mm', '[[2,3],[3,4]]') || '|' || quote(op_flops('aten::mm', x'5b5b322c335d2c5b332c345d5d'))")" \
	"48|NULL" "dims as a blob with the same bytes: NULL, not the text's result"

done_testing
