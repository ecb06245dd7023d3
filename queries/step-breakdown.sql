-- PyTorch step time breakdown per ProfilerStep, as TensorBoard's profiler plugin (tb_plugin) computes it
.load build/profq
-- Columns: run_id, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
-- dataloader_ns, cpu_exec_ns, other_ns, total_ns; per run that has steps (PyTorch profiler traces;
-- an nsys export has none), one row per step, then a row with step = 'average' (the mean over the
-- run's steps, rounded to the ns). Parameters: :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/event_parser.py
-- StepParser and overall_parser.py at 041e7ce9; /work/shared/notes/kineto_hta.md §1.2-1.3):
--  * per step: the v_tb_step_times view (schema/views.sql, docs/schema.md), stored for finished
--    runs (table tb_step_times) and computed for others. Its steps are the v_tb_steps view: the
--    ProfilerStep#N ranges (or one step 0 over the host ranges) extended to the device work their
--    runtime calls launched, trailing steps without device work dropped. A file written before
--    these views has them only on profq's own connections: sqlite3 says "no such table".
--  * roles by priority (lowest wins): Kernel 0 (kernels whose external id is not a communication
--    op's), Memcpy 1, Memset 2, Communication 3 (kernels of communication ops plus the host ranges
--    named nccl:/gloo: broadcast, reduce, all_reduce, all_gather, reduce_scatter), Runtime 4,
--    DataLoader 5 (cpu_op/user_annotation named enumerate(DataLoader)#*.__next__ or
--    enumerate(DataPipe)#*), CPU Exec 6 (every other cpu_op, user_annotation and python range,
--    ProfilerStep and python_function excluded), Other = the rest of the step. Computed with the
--    extension's priority_breakdown, the steps as its windows, so the parts add up to total_ns.
--  * deviation: gpu_user_annotation ranges (GPU-side projections) are not counted as CPU ranges
--    (tb_plugin maps them to user_annotation); the published samples have none.
WITH
per_step AS (
  SELECT run_id, step_index AS idx, step, kernel_ns, memcpy_ns, memset_ns, communication_ns,
         runtime_ns, dataloader_ns, cpu_exec_ns, other_ns, total_ns
  FROM v_tb_step_times WHERE :run IS NULL OR run_id = :run
)
SELECT run_id, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns, dataloader_ns,
       cpu_exec_ns, other_ns, total_ns
FROM (
  SELECT run_id, 0 AS grp, idx, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
         dataloader_ns, cpu_exec_ns, other_ns, total_ns FROM per_step
  UNION ALL
  SELECT run_id, 1, NULL, 'average', CAST(round(avg(kernel_ns)) AS INTEGER), CAST(round(avg(memcpy_ns)) AS INTEGER),
         CAST(round(avg(memset_ns)) AS INTEGER), CAST(round(avg(communication_ns)) AS INTEGER),
         CAST(round(avg(runtime_ns)) AS INTEGER), CAST(round(avg(dataloader_ns)) AS INTEGER),
         CAST(round(avg(cpu_exec_ns)) AS INTEGER), CAST(round(avg(other_ns)) AS INTEGER),
         CAST(round(avg(total_ns)) AS INTEGER)
  FROM per_step GROUP BY run_id
)
ORDER BY run_id, grp, idx
LIMIT coalesce(:limit, -1);
