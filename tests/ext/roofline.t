#!/bin/sh
# Device peaks (device_peak_flops, device_peak_bandwidth) against the datasheet figures collected in
# ../shared/notes/flops.md §4, lookup by devices.id in a real profq database, and the roofline
# arithmetic (arithmetic_intensity, achieved_pct, roofline_bound).
. "${0%/*}/../lib.sh"

q() {
	sqlite :memory: ".load $EXT" "$1" 2>&1
}

# tf NAME PRECISION: the peak in TFLOP/s, as printf %g (NULL stays NULL)
tf() {
	q "select case when v is null then 'NULL' else printf('%g', v / 1e12) end
		from (select device_peak_flops('$1', '$2') as v)"
}
# gbs NAME: the bandwidth in decimal GB/s
gbs() {
	q "select case when v is null then 'NULL' else printf('%g', v / 1e9) end
		from (select device_peak_bandwidth('$1') as v)"
}

# ---- the built-in table vs the datasheet figures (dense, TFLOP/s; GB/s) --------------------------
# V100 datasheet: SXM2 FP64 7.8, FP32 15.7, tensor 125, 900 GB/s; PCIe 7 / 14 / 112
is "$(tf 'Tesla V100-SXM2-16GB' fp16)" 125 "V100 SXM2 fp16 tensor"
is "$(tf 'Tesla V100-SXM2-16GB' fp32)" 15.7 "V100 SXM2 fp32"
is "$(tf 'Tesla V100-SXM2-16GB' fp64)" 7.8 "V100 SXM2 fp64"
is "$(gbs 'Tesla V100-SXM2-16GB')" 900 "V100 SXM2 bandwidth"
is "$(tf 'Tesla V100-DGXS-32GB' fp16)" 125 "V100 DGXS (DGX Station) fp16 tensor"
is "$(tf 'Tesla V100-PCIE-16GB' fp16)" 112 "V100 PCIe fp16 tensor"
is "$(tf 'Tesla V100-PCIE-16GB' fp32)" 14 "V100 PCIe fp32"
is "$(tf 'Tesla V100-SXM2-16GB' bf16)" NULL "V100 has no bf16: NULL"
is "$(tf 'Tesla V100-SXM2-16GB' tf32)" NULL "V100 has no tf32: NULL"
# T4 datasheet: FP32 8.1, FP16 65, INT8 130, 320 GB/s
is "$(tf 'Tesla T4' fp16)" 65 "T4 fp16 tensor"
is "$(tf 'Tesla T4' fp32)" 8.1 "T4 fp32"
is "$(tf 'Tesla T4' int8)" 130 "T4 int8"
is "$(gbs 'Tesla T4')" 320 "T4 bandwidth"
# A100 datasheet: FP64 9.7, FP64 TC 19.5, FP32 19.5, TF32 156, BF16 312 (dense); bandwidths per model
is "$(tf 'NVIDIA A100-SXM4-40GB' bf16)" 312 "A100 SXM4 40GB bf16 (dense, not the 624 sparse)"
is "$(tf 'NVIDIA A100-SXM4-40GB' tf32)" 156 "A100 tf32"
is "$(tf 'NVIDIA A100-SXM4-40GB' fp32)" 19.5 "A100 fp32"
is "$(tf 'NVIDIA A100-SXM4-40GB' fp64)" 9.7 "A100 fp64"
is "$(tf 'NVIDIA A100-SXM4-40GB' fp64_tc)" 19.5 "A100 fp64 tensor"
is "$(tf 'NVIDIA A100-SXM4-40GB' fp8)" NULL "A100 has no fp8: NULL"
is "$(gbs 'NVIDIA A100-SXM4-40GB')" 1555 "A100 SXM4 40GB bandwidth"
is "$(gbs 'NVIDIA A100-SXM4-80GB')" 2039 "A100 SXM4 80GB bandwidth"
is "$(gbs 'NVIDIA A100 80GB PCIe')" 1935 "A100 80GB PCIe bandwidth"
is "$(gbs 'NVIDIA A100-PCIE-40GB')" 1555 "A100 40GB PCIe bandwidth"
is "$(tf 'NVIDIA A100 80GB PCIe' fp16)" 312 "A100 80GB PCIe fp16"
# A10 datasheet: FP32 31.2, TF32 62.5, BF16 125, 600 GB/s -- and not matched as an A100
is "$(tf 'NVIDIA A10' fp32)" 31.2 "A10 fp32 (not the A100 row)"
is "$(tf 'NVIDIA A10' bf16)" 125 "A10 bf16"
is "$(gbs 'NVIDIA A10')" 600 "A10 bandwidth"
# L4 datasheet (sparse figures halved): FP32 30.3, TF32 60, BF16 121, FP8 242.5; 300 GB/s
is "$(tf 'NVIDIA L4' bf16)" 121 "L4 bf16 (dense, not the 242 sparse)"
is "$(tf 'NVIDIA L4' fp8)" 242.5 "L4 fp8"
is "$(tf 'NVIDIA L4' fp32)" 30.3 "L4 fp32"
is "$(gbs 'NVIDIA L4')" 300 "L4 bandwidth (not inductor's 3350)"
is "$(tf 'NVIDIA L40S' bf16)" 362.05 "L40S bf16"
is "$(gbs 'NVIDIA L40S')" 864 "L40S bandwidth"
# GeForce: FP32-accumulate tensor rates (Ada / GA102 whitepapers)
is "$(tf 'NVIDIA GeForce RTX 4090' fp16)" 165.2 "RTX 4090 fp16 tensor (FP32 accumulate)"
is "$(tf 'NVIDIA GeForce RTX 4090' fp32)" 82.6 "RTX 4090 fp32"
is "$(gbs 'NVIDIA GeForce RTX 4090')" 1008 "RTX 4090 bandwidth"
is "$(tf 'NVIDIA GeForce RTX 3080' fp32)" 29.8 "RTX 3080 fp32"
is "$(tf 'NVIDIA GeForce RTX 3080' fp16)" 59.5 "RTX 3080 fp16 tensor (FP32 accumulate)"
is "$(gbs 'NVIDIA GeForce RTX 3080')" 760 "RTX 3080 bandwidth"
is "$(tf 'NVIDIA GeForce RTX 3060' fp32)" 12.7 "RTX 3060 fp32"
is "$(gbs 'NVIDIA GeForce RTX 3060')" 360 "RTX 3060 bandwidth"
is "$(tf 'NVIDIA GeForce RTX 3080 Ti' fp32)" NULL "RTX 3080 Ti is not the RTX 3080 row"
# H100 (whitepaper dense): SXM BF16 989.4, FP8 1978.9, TF32 494.7, FP32 66.9, 3350 GB/s;
# PCIe BF16 756, 2000 GB/s; NVL 835.5, 3900 GB/s; H200 989.5, 4800 GB/s
is "$(tf 'NVIDIA H100 80GB HBM3' bf16)" 989.4 "H100 SXM bf16 (dense, not inductor's 1979)"
is "$(tf 'NVIDIA H100 80GB HBM3' fp8)" 1978.9 "H100 SXM fp8"
is "$(tf 'NVIDIA H100 80GB HBM3' tf32)" 494.7 "H100 SXM tf32 (not A100's 156)"
is "$(tf 'NVIDIA H100 80GB HBM3' fp32)" 66.9 "H100 SXM fp32"
is "$(tf 'NVIDIA H100 80GB HBM3' fp64_tc)" 66.9 "H100 SXM fp64 tensor"
is "$(gbs 'NVIDIA H100 80GB HBM3')" 3350 "H100 SXM bandwidth"
is "$(tf 'NVIDIA H100 PCIe' bf16)" 756 "H100 PCIe bf16"
is "$(gbs 'NVIDIA H100 PCIe')" 2000 "H100 PCIe bandwidth"
is "$(tf 'NVIDIA H100 NVL' bf16)" 835.5 "H100 NVL bf16"
is "$(gbs 'NVIDIA H100 NVL')" 3900 "H100 NVL bandwidth"
is "$(tf 'NVIDIA H200' bf16)" 989.5 "H200 bf16"
is "$(gbs 'NVIDIA H200')" 4800 "H200 bandwidth"
# ridge points (flops.md §4): H100 SXM ≈ 295, A100 80GB SXM ≈ 153, L4 ≈ 403 FLOP/byte
is "$(q "select cast(round(device_peak_flops('NVIDIA H100 80GB HBM3', 'bf16') / device_peak_bandwidth('NVIDIA H100 80GB HBM3')) as int)")" \
	295 "H100 SXM ridge point"
is "$(q "select cast(round(device_peak_flops('NVIDIA A100-SXM4-80GB', 'bf16') / device_peak_bandwidth('NVIDIA A100-SXM4-80GB')) as int)")" \
	153 "A100 80GB ridge point"
is "$(q "select cast(round(device_peak_flops('NVIDIA L4', 'bf16') / device_peak_bandwidth('NVIDIA L4')) as int)")" \
	403 "L4 ridge point"

# ---- name matching and precision names -----------------------------------------------------------
is "$(tf 'NVIDIA_A100-SXM4-80GB' bf16)" 312 "underscores match (vLLM style)"
is "$(tf 'nvidia a100-sxm4-80gb' bf16)" 312 "case-insensitive"
is "$(tf 'NVIDIA H100 80GB HBM3' BFloat16)" 989.4 "precision alias bfloat16"
is "$(tf 'NVIDIA H100 80GB HBM3' 'c10::Half')" 989.4 "precision alias c10::Half (trace type)"
is "$(tf 'NVIDIA H100 80GB HBM3' float)" 66.9 "precision alias float"
is "$(tf 'Radeon Instinct MI250X' bf16)" NULL "unknown device: NULL"
is "$(gbs 'Radeon Instinct MI250X')" NULL "unknown device bandwidth: NULL"
is "$(q "select quote(device_peak_flops(NULL, 'bf16')), quote(device_peak_flops('NVIDIA L4', NULL)), quote(device_peak_bandwidth(NULL))")" \
	"NULL|NULL|NULL" "NULL arguments give NULL"
like "$(q "select device_peak_flops('NVIDIA L4', 'fp12')")" "device_peak_flops: unknown precision 'fp12'" \
	"unknown precision is an error"
like "$(q "select device_peak_flops(x'01', 'bf16')")" "device_peak_flops: device must be a name or an integer" \
	"blob device is an error"
like "$(q "select device_peak_bandwidth(1.5)")" "device_peak_bandwidth: device must be a name or an integer" \
	"fractional device id is an error"
like "$(q "select device_peak_flops(1, 'bf16')")" "device_peak_flops: cannot read the devices table: no such table: devices" \
	"device id without a devices table is an error"

# ---- lookup by devices.id in a profq database -----------------------------------------------------
db=$TMP/profile.db
cat "$TOP/schema/schema.sql" "$TOP/schema/views.sql" | sqlite "$db"
sqlite "$db" "
INSERT INTO runs (id, source, created_utc, profq_version) VALUES (1, 'test', '2024-01-01T00:00:00Z', 'test');
INSERT INTO devices (id, run_id, ordinal, name, compute_major, compute_minor, sm_count, core_clock_hz,
                     memory_clock_hz, memory_bus_width_bits, memory_bandwidth_bytes_per_s) VALUES
  (1, 1, 0, 'NVIDIA A100-SXM4-80GB', 8, 0, 108, 1410000000, 1593000000, 5120, NULL),
  (2, 1, 1, 'Future GPU X', 9, 0, 132, 1830000000, NULL, NULL, 3350000000000),
  (3, 1, 2, 'Mystery GPU', 12, 0, 100, 2000000000, 1000000000, 256, NULL),
  (4, 1, 3, NULL, 8, 0, 108, 1410000000, 1593000000, 5120, NULL),
  (5, 1, 4, 'NVIDIA L4', 8, 9, 58, 2040000000, NULL, NULL, 1);"
ok $? "profq database with devices created"
d() {
	sqlite "$db" ".load $EXT" "$1" 2>&1
}
is "$(d "select printf('%g', device_peak_flops(1, 'bf16') / 1e12), printf('%g', device_peak_bandwidth(1) / 1e9)")" \
	"312|2039" "devices.id with a known name uses the table"
# derived: 132 SMs × 1.83 GHz × 4096 FLOP/clk/SM (CC 9.0 bf16) = 989.43e12; fp32: × 256 = 61.84e12
is "$(d "select printf('%.1f', device_peak_flops(2, 'bf16') / 1e12), printf('%.2f', device_peak_flops(2, 'fp32') / 1e12)")" \
	"989.4|61.84" "unknown name: derived from SMs × clock × FLOPs/clk/SM"
is "$(d "select printf('%g', device_peak_bandwidth(2) / 1e9)")" 3350 "unknown name: recorded memory_bandwidth_bytes_per_s"
is "$(d "select quote(device_peak_flops(3, 'bf16'))")" NULL "unknown compute capability: NULL"
# memory clock 1 GHz × 256/8 bytes × 2 = 64 GB/s
is "$(d "select printf('%g', device_peak_bandwidth(3) / 1e9)")" 64 "bandwidth from memory clock × bus width × 2"
# no name, CC 8.0: 108 × 1.41 GHz × 2048 = 311.87e12 (flops.md: 311.9); 1.593 GHz × 640 B × 2 = 2039.04 GB/s
is "$(d "select printf('%.1f', device_peak_flops(4, 'bf16') / 1e12), printf('%.2f', device_peak_bandwidth(4) / 1e9)")" \
	"311.9|2039.04" "NULL name: derived A100 figures"
is "$(d "select quote(device_peak_flops(4, 'fp8'))")" NULL "derived: precision the CC lacks is NULL"
is "$(d "select printf('%g', device_peak_flops(5, 'bf16') / 1e12), printf('%g', device_peak_bandwidth(5) / 1e9)")" \
	"121|300" "a table name wins over recorded properties"
is "$(d "select quote(device_peak_flops(99, 'bf16')), quote(device_peak_bandwidth(99))")" "NULL|NULL" "missing id: NULL"
is "$(d "select group_concat(case when v is null then 'NULL' else printf('%.1f', v / 1e12) end, ',')
	from (select device_peak_flops(id, 'bf16') as v from devices order by id)")" \
	"312.0,989.4,NULL,311.9,121.0" "per-row device ids in one query"
is "$(d "with recursive r(i) as (select 1 union all select i + 1 from r where i < 2000)
	select count(*) from r where device_peak_flops(1, 'bf16') = 312e12 and device_peak_flops(2, 'fp16') > 9e14")" \
	2000 "a constant device id over many rows"
is "$(d "select group_concat(printf('%.1f', device_peak_flops(1 + i % 2, 'bf16') / 1e12), ',')
	from (select 0 as i union all select 1 union all select 2 union all select 3)")" \
	"312.0,989.4,312.0,989.4" "alternating device ids"
# the CLI links the same functions in
is "$($PROFQ sql "$db" "select cast(device_peak_flops(1, 'tf32') / 1e12 as int) as tf" --format csv 2>&1 | tail -1)" 156 \
	"profq sql sees device_peak_flops"

# ---- roofline arithmetic ---------------------------------------------------------------------------
is "$(q "select arithmetic_intensity(17179869184, 29360128)")" 585.142857142857 "arithmetic_intensity = flops / bytes"
is "$(q "select quote(arithmetic_intensity(100, 0)), quote(arithmetic_intensity(NULL, 1)), quote(arithmetic_intensity(1, NULL))")" \
	"NULL|NULL|NULL" "arithmetic_intensity: bytes 0 or NULL gives NULL"
like "$(q "select arithmetic_intensity(-1, 10)")" "arithmetic_intensity: flops must be a finite number >= 0" "negative flops is an error"
like "$(q "select arithmetic_intensity(1, 'ten')")" "arithmetic_intensity: bytes must be a number" "text bytes is an error"
# 1e12 FLOPs in 1 ms = 1e15 FLOP/s = 100% of 1e15
is "$(q "select achieved_pct(1e12, 1e6, 1e15)")" 100.0 "achieved_pct 100%"
# a 4096³ bf16 GEMM (137438953472 FLOPs) in 250 us on an H100 SXM: 5.4976e17 FLOP/s... 55.6% of 989.4e12
is "$(q "select printf('%.2f', achieved_pct(gemm_flops(4096, 4096, 4096), 250000, device_peak_flops('NVIDIA H100 80GB HBM3', 'bf16')))")" \
	55.56 "achieved_pct of a GEMM on H100"
is "$(q "select quote(achieved_pct(1, 0, 1)), quote(achieved_pct(1, 1, 0)), quote(achieved_pct(1, 1, NULL))")" \
	"NULL|NULL|NULL" "achieved_pct: zero duration, zero or NULL peak give NULL"
like "$(q "select achieved_pct(1, -5, 1)")" "achieved_pct: dur_ns must be a finite number >= 0" "negative duration is an error"
like "$(q "select achieved_pct(1e999, 1, 1)")" "achieved_pct: flops must be a finite number" "infinite flops is an error"
# H100 ridge ≈ 295: a 4096³ bf16 GEMM (AI ≈ 1365) is compute-bound; an elementwise add (AI 1/12) memory-bound
is "$(q "select roofline_bound(gemm_flops(4096, 4096, 4096), gemm_bytes(4096, 4096, 4096, 2), 989.4e12, 3.35e12)")" \
	compute "roofline_bound: large GEMM is compute-bound"
is "$(q "select roofline_bound(op_flops('aten::add', '[[1048576],[1048576]]'), op_bytes('aten::add', '[[1048576],[1048576]]'), 989.4e12, 3.35e12)")" \
	memory "roofline_bound: elementwise add is memory-bound"
is "$(q "select roofline_bound(295, 1, 295, 1), roofline_bound(294, 1, 295, 1)")" "compute|memory" "roofline_bound: the ridge point itself is compute"
is "$(q "select roofline_bound(10, 0, 1, 1)")" compute "roofline_bound: no bytes is compute"
is "$(q "select quote(roofline_bound(0, 0, 1, 1)), quote(roofline_bound(1, 1, 0, 1)), quote(roofline_bound(1, 1, 1, NULL))")" \
	"NULL|NULL|NULL" "roofline_bound: NULLs"
like "$(q "select roofline_bound(1, 1, 1, -1)")" "roofline_bound: peak_bandwidth must be a finite number >= 0" "negative bandwidth is an error"
is "$(d "select roofline_bound(1000, 10, device_peak_flops(1, 'bf16'), device_peak_bandwidth(1))")" memory \
	"roofline_bound with peaks from a devices row (AI 100 < 153)"

# ---- the per-kernel roofline query of docs/sql-functions.md on a small profile ----------------------------
sqlite "$db" "
INSERT INTO strings (id, value) VALUES (1, 'aten::mm'), (2, 'ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_nn');
INSERT INTO ranges (id, run_id, start_ns, end_ns, kind, name_id, external_id, args) VALUES
  (1, 1, 1000, 50000, 2, 1, 7,
   '{\"Input Dims\": [[2048, 1024], [1024, 4096]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]}');
INSERT INTO kernels (id, run_id, device_id, start_ns, end_ns, external_id, name_id) VALUES
  (1, 1, 1, 60000, 160000, 7, 2);"
ok $? "a cpu_op and its kernel inserted"
# 2·2048·4096·1024 = 17179869184 FLOPs in 100 us = 1.718e14 FLOP/s = 55.06% of 312e12;
# bytes 2·(2048·1024 + 1024·4096 + 2048·4096) = 29360128: AI 585 > ridge 153 -> compute
is "$(d "SELECT name, flops, dur_ns, printf('%.2f', achieved_pct(flops, dur_ns, device_peak_flops(device_id, 'bf16'))),
       roofline_bound(flops, bytes, device_peak_flops(device_id, 'bf16'), device_peak_bandwidth(device_id))
FROM (SELECT o.name, k.device_id, k.end_ns - k.start_ns AS dur_ns,
             op_flops(o.name, json_extract(o.args, '\$.\"Input Dims\"'), json_extract(o.args, '\$.\"Input type\"'),
                      json_extract(o.args, '\$.flops'), json_extract(o.args, '\$.\"Concrete Inputs\"')) AS flops,
             op_bytes(o.name, json_extract(o.args, '\$.\"Input Dims\"'), json_extract(o.args, '\$.\"Input type\"'),
                      NULL, json_extract(o.args, '\$.\"Concrete Inputs\"')) AS bytes
      FROM kernels k
      JOIN v_ranges o ON o.run_id = k.run_id AND o.external_id = k.external_id AND o.kind = 'cpu_op')")" \
	"aten::mm|17179869184|100000|55.06|compute" "per-kernel roofline query from the docs"

done_testing
