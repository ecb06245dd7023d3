#!/bin/sh
# tb_steps and tb_step_times (computed in C by lib/derive_steps.c at import) on hand-made traces
# with the cases v_tb_steps and v_tb_step_times tell apart: a device event launched before the
# steps that ends before the first step's device work, a call launching a kernel and a memcpy,
# steps extended over their device work, a trailing step dropped by tb_plugin's 0.8 rule, a
# communication kernel (by an nccl: annotation's external id), a python range named like a step,
# a zero-length call; and a run without ProfilerStep (one step 0 over cpu_op and python ranges).
# The stored rows must be what the views compute, and the numbers the hand-worked ones.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"
cd "$TMP"

trace_begin steps.json
X Runtime cudaLaunchKernel 1 50 5 '"correlation": 1, "external id": 0'
X Kernel k0 'stream 7' 95 25 '"correlation": 1, "device": 0'
X Operator 'ProfilerStep#1' 1 100 100 '"External id": 1'
X user_annotation 'enumerate(DataLoader)#_Iter.__next__' 1 105 10 '"External id": 2'
X Runtime cudaLaunchKernel 1 110 5 '"correlation": 2, "external id": 1'
X Kernel k1 'stream 7' 130 120 '"correlation": 2, "device": 0'
X Python 'a.py(1): f' 1 150 10
X Operator 'ProfilerStep#2' 1 200 100 '"External id": 3'
X Runtime cudaMemcpyAsync 1 210 5 '"correlation": 3, "external id": 3'
X Kernel k2 'stream 7' 260 20 '"correlation": 3, "device": 0'
X Memcpy 'Memcpy HtoD' 'stream 7' 285 5 '"correlation": 3, "device": 0, "stream": 7'
X python 'ProfilerStep#9' 1 290 5
X Operator 'ProfilerStep#3' 1 300 100 '"External id": 4'
X Runtime cudaLaunchKernel 1 310 5 '"correlation": 4, "external id": 4'
X Kernel k3 'stream 7' 420 10 '"correlation": 4, "device": 0'
X Runtime cudaMemsetAsync 1 320 5 '"correlation": 5, "external id": 4'
X Memset 'Memset (Device)' 'stream 7' 440 5 '"correlation": 5, "device": 0, "stream": 7'
X Runtime cudaLaunchKernel 1 330 0 '"correlation": 8, "external id": 4'
X user_annotation 'nccl:all_reduce' 1 330 20 '"External id": 77'
X Runtime cudaLaunchKernel 1 335 5 '"correlation": 7, "external id": 77'
X Kernel ncclKernel_AllReduce 'stream 9' 400 10 '"correlation": 7, "external id": 77, "device": 0'
X Operator 'ProfilerStep#4' 1 400 100 '"External id": 5'
X Runtime cudaLaunchKernel 1 410 5 '"correlation": 6, "external id": 5'
X Kernel k4 'stream 7' 450 5 '"correlation": 6, "device": 0'
trace_end
trace_begin nostep.json
X python 'main.py(1): <module>' 1 5 55
X Operator aten::add 1 10 40 '"External id": 1'
X Runtime cudaLaunchKernel 1 20 5 '"correlation": 1, "external id": 1'
X Kernel k 'stream 7' 70 10 '"correlation": 1, "device": 0'
trace_end
"$PROFQ" import -q -o steps.db steps.json nostep.json >/dev/null
ok $? "both traces import"

py "$TOP/tests/reports/derived_check.py" steps.db "$EXT" >check.out 2>&1
like "$(grep '^tb_steps' check.out)" '^tb_steps	same \(4 rows\)' "tb_steps holds what v_tb_steps computes"
like "$(grep '^tb_step_times' check.out)" '^tb_step_times	same \(4 rows\)' \
	"tb_step_times holds what v_tb_step_times computes"

# Step 1 starts where the unowned k0 ends (120) and ends with k1 (250); step 2 at step 1's end;
# step 3 ends with the memset (445); step 4 launched 1 device event, < 0.8 x step 3's 3: dropped.
# The run without ProfilerStep: one step 0 from the python range's start to its kernel's end.
is "$(sqlite steps.db "SELECT run_id, step_index, step, start_ns / 1000, end_ns / 1000 FROM tb_steps
	ORDER BY run_id, step_index")" \
"1|0|1|120|250
1|1|2|250|300
1|2|3|300|445
2|0|0|5|80" "tb_steps: hand-worked"

# Step 3 [300, 445): runtime 310-315, 320-325, 410-415 (step 4's call); communication 330-350
# (the annotation over a call) and 400-410 (its kernel); kernel 420-430; memset 440-445.
is "$(sqlite steps.db "SELECT kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
	dataloader_ns, cpu_exec_ns, other_ns, total_ns FROM tb_step_times WHERE run_id = 1 AND step = 3")" \
	"10000|0|5000|30000|15000|0|0|85000|145000" "tb_step_times, step 3: hand-worked"
# Step 1 [120, 250): kernel k1 130-250, the python range a.py under it (kernel wins); 120-130
# nothing. Step 2 [250, 300): k2 260-280, the memcpy 285-290, the python range named like a step
# 290-295 (CPU Exec: only cpu_op and user_annotation steps are left out).
is "$(sqlite steps.db "SELECT kernel_ns, cpu_exec_ns, other_ns, total_ns FROM tb_step_times
	WHERE run_id = 1 AND step = 1")" "120000|0|10000|130000" "tb_step_times, step 1: hand-worked"
is "$(sqlite steps.db "SELECT kernel_ns, memcpy_ns, cpu_exec_ns, other_ns, total_ns FROM tb_step_times
	WHERE run_id = 1 AND step = 2")" "20000|5000|5000|20000|50000" "tb_step_times, step 2: hand-worked"
done_testing
