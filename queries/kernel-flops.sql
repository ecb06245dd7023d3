-- PyProf-style kernel FLOPs and roofline: work, bytes, achieved TFLOP/s and % of peak per kernel (or per op)
-- option by=kernel|op (default kernel): one row per kernel, or per operator name and precision
.load build/profq
-- Columns (per kernel, in start order): run_id, kernel, op (the launching operator, NULL when none is
-- found), kernels (1), dur_ns, flops, bytes, tflops_s, pct_of_peak (rounded to 2 places), arithmetic_intensity
-- (FLOP/byte, 4 places), bound ('compute' or 'memory'), tensor_cores (1/0), precision (the peak's).
-- With :by = 'op': one row per operator name and precision, kernel NULL, kernels = their number,
-- sums of dur_ns, flops and bytes, the ratios recomputed from the sums (peak: the group's), and
-- tensor_cores 1 when any kernel used Tensor Cores; sorted by dur_ns descending. Rows for each run
-- that holds a PyTorch profiler trace (cpu_op, user_annotation or python_function ranges; not an
-- nsys export), by run.
-- Parameters: :by ('kernel', the default, or 'op'); :run (default: every run).
--
-- Definition (NVIDIA PyProf's per-kernel model, with the extension's formulas; docs/sql-functions.md
-- "FLOPs and roofline", ../shared/notes/flops.md):
--  * kernel -> launching runtime call (api_calls, same process and correlation id) -> the cpu_op
--    range with that call's external id (the innermost when several: latest start, then shortest).
--  * op FLOPs = op_flops(name, "Input Dims", "Input type", the op's recorded "flops" arg — used as
--    is when present); op bytes = op_bytes(name, "Input Dims", "Input type"). When one op launched
--    several kernels, its FLOPs and bytes are split among them in proportion to their durations
--    (rounded to integers); one kernel gets them whole. No op or no formula: NULL.
--  * tflops_s = flops / dur; pct_of_peak = achieved_pct(flops, dur_ns, peak);
--    arithmetic_intensity(flops, bytes); bound = roofline_bound(flops, bytes, peak, bandwidth).
--  * peak = device_peak_flops(kernel's devices.id, precision), bandwidth =
--    device_peak_bandwidth(devices.id): NULL when the device is unknown (no deviceProperties).
--  * precision from the op's first floating-point or 8-bit integer "Input type": c10::Half fp16,
--    c10::BFloat16 bf16, c10::Float8_* fp8, signed/unsigned char int8, double fp64 (fp64_tc on a
--    Tensor Core kernel), float fp32 (tf32 on a Tensor Core kernel: PyTorch's TF32 matmuls); no
--    such type (or no op): fp32, tf32 on a Tensor Core kernel.
--  * tensor_cores = tensor_core_kernel(kernel name).
WITH
sel AS (  -- the runs holding a PyTorch profiler trace
  SELECT id AS run_id FROM runs r WHERE (:run IS NULL OR id = :run)
    AND EXISTS (SELECT 1 FROM ranges x WHERE x.run_id = r.id AND x.kind IN (2, 3, 5))
),
k AS MATERIALIZED (  -- each kernel and its launching operator (rid), by the indexes
  SELECT k.id, k.run_id, k.device_id, k.start_ns, k.end_ns - k.start_ns AS dur, k.name_id,
         (SELECT r.id FROM api_calls a
            JOIN ranges r ON r.external_id = a.external_id AND +r.run_id = k.run_id AND r.kind = 2
           WHERE a.process_id = k.process_id AND a.correlation_id = k.correlation_id
             AND +a.run_id = k.run_id AND a.api_kind = 0
           ORDER BY r.start_ns DESC, r.end_ns ASC, r.id DESC LIMIT 1) AS rid
  FROM kernels k WHERE k.run_id IN (SELECT run_id FROM sel)
),
kw AS MATERIALIZED (  -- narrow rows: the window sorts little
  SELECT k.*, count(*) OVER (PARTITION BY k.rid) AS nk, sum(k.dur) OVER (PARTITION BY k.rid) AS op_dur
  FROM k
),
opk AS MATERIALIZED (  -- the launching operator's inputs
  SELECT k.*, m.value AS name, tensor_core_kernel(m.value) AS tc, n.value AS op,
         coalesce(json_extract(r.args, '$."Input Dims"'), json_extract(r.args, '$."Input dims"')) AS dims,
         json_extract(r.args, '$."Input type"') AS types, json_extract(r.args, '$.flops') AS recorded
  FROM kw k JOIN strings m ON m.id = k.name_id
  LEFT JOIN ranges r ON r.id = k.rid LEFT JOIN strings n ON n.id = r.name_id
),
ptypes AS MATERIALIZED (  -- each distinct "Input type" list's first floating-point or 8-bit integer type
  SELECT d.types,
         (SELECT t.value FROM json_each(CASE WHEN json_valid(d.types) THEN d.types ELSE '[]' END) t
           WHERE t.value IN ('c10::Half', 'c10::BFloat16', 'double', 'float', 'signed char', 'unsigned char')
              OR t.value GLOB 'c10::Float8*' ORDER BY t.key LIMIT 1) AS first
  FROM (SELECT DISTINCT types FROM opk) d
),
prec_m AS MATERIALIZED (
  SELECT o.id, o.run_id, o.device_id, o.start_ns, o.dur, o.name, o.tc, o.op, o.nk, o.op_dur,
         op_flops(o.op, o.dims, o.types, o.recorded) AS op_fl,
         op_bytes(o.op, o.dims, o.types) AS op_by,
         CASE (SELECT p.first FROM ptypes p WHERE p.types IS o.types)
           WHEN 'c10::Half' THEN 'fp16' WHEN 'c10::BFloat16' THEN 'bf16'
           WHEN 'signed char' THEN 'int8' WHEN 'unsigned char' THEN 'int8'
           WHEN 'double' THEN CASE WHEN o.tc THEN 'fp64_tc' ELSE 'fp64' END
           WHEN 'float' THEN CASE WHEN o.tc THEN 'tf32' ELSE 'fp32' END
           ELSE CASE WHEN o.types GLOB '*c10::Float8*' THEN 'fp8' WHEN o.tc THEN 'tf32' ELSE 'fp32' END
         END AS precision
  FROM opk o
),
peaks AS MATERIALIZED (  -- the device lookups once per device and precision, not per kernel
  SELECT device_id, precision, device_peak_flops(device_id, precision) AS peak,
         device_peak_bandwidth(device_id) AS bw
  FROM (SELECT DISTINCT device_id, precision FROM prec_m)
),
rows_ AS MATERIALIZED (
  SELECT p.*,
         CASE WHEN p.nk = 1 OR p.op_dur = 0 THEN p.op_fl ELSE CAST(round(1.0 * p.op_fl * p.dur / p.op_dur) AS INTEGER) END AS flops,
         CASE WHEN p.nk = 1 OR p.op_dur = 0 THEN p.op_by ELSE CAST(round(1.0 * p.op_by * p.dur / p.op_dur) AS INTEGER) END AS bytes,
         x.peak, x.bw
  FROM prec_m p JOIN peaks x ON x.device_id IS p.device_id AND x.precision = p.precision
),
per_kernel AS (
  SELECT run_id, 0 AS grp, start_ns AS ord, id, name AS kernel, op, 1 AS kernels, dur AS dur_ns, flops, bytes,
         round(1.0 * flops / nullif(dur, 0) / 1000.0, 4) AS tflops_s,
         round(achieved_pct(flops, dur, peak), 2) AS pct_of_peak,
         round(arithmetic_intensity(flops, bytes), 4) AS arithmetic_intensity,
         roofline_bound(flops, bytes, peak, bw) AS bound, tc AS tensor_cores, precision
  FROM rows_
),
per_op AS (
  SELECT run_id, 1 AS grp, -sum(dur) AS ord, min(id) AS id, NULL AS kernel, op, count(*) AS kernels, sum(dur) AS dur_ns,
         sum(flops) AS flops, sum(bytes) AS bytes,
         round(1.0 * sum(flops) / nullif(sum(dur), 0) / 1000.0, 4) AS tflops_s,
         round(achieved_pct(sum(flops), sum(dur), max(peak)), 2) AS pct_of_peak,
         round(arithmetic_intensity(sum(flops), sum(bytes)), 4) AS arithmetic_intensity,
         roofline_bound(sum(flops), sum(bytes), max(peak), max(bw)) AS bound, max(tc) AS tensor_cores, precision
  FROM rows_ GROUP BY run_id, op, precision
)
SELECT run_id, kernel, op, kernels, dur_ns, flops, bytes, tflops_s, pct_of_peak, arithmetic_intensity, bound,
       tensor_cores, precision
FROM (SELECT * FROM per_kernel WHERE coalesce(:by, 'kernel') = 'kernel'
      UNION ALL SELECT * FROM per_op WHERE :by = 'op')
ORDER BY run_id, grp, ord, id
LIMIT coalesce(:limit, -1);
