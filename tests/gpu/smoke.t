#!/bin/sh
# GPU smoke test (machines with a GPU only): records a small CUDA program and checks its kernels
# and memcpys. Needs nvcc; skipped without a GPU.
. "${0%/*}/../lib.sh"
{ command -v nvidia-smi >/dev/null && [ -e /dev/nvidia0 ]; } || skip_all "no GPU (nvidia-smi or /dev/nvidia0 absent)"
NVCC=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$NVCC" ] || skip_all "no nvcc"
cd "$TMP"
cat > k.cu <<'CU'
#include <cuda_runtime.h>
__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
int main() {
	int n = 1 << 20; float *h = new float[n](), *d;
	cudaMalloc(&d, n * sizeof(float));
	cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
	for (int i = 0; i < 10; i++) scale<<<n / 256, 256>>>(d, n);
	cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
	cudaFree(d); return 0;
}
CU
"$NVCC" -o k k.cu || skip_all "nvcc failed"
"$PROFQ" record -o gpu.db -- ./k; is "$?" 0 "records a CUDA program"
is "$(sqlite gpu.db "SELECT count(*) FROM v_kernels WHERE short_name = 'scale'")" 10 "10 kernels"
is "$(sqlite gpu.db "SELECT group_concat(copy_kind) FROM (SELECT copy_kind FROM memcpys ORDER BY start_ns)")" "1,2" "HtoD then DtoH"
is "$(sqlite gpu.db "SELECT count(*) FROM kernels k JOIN api_calls a USING (process_id, correlation_id)")" 10 \
	"every kernel joins its launch call"
is "$(sqlite gpu.db "SELECT count(*) FROM devices WHERE sm_count > 0")" 1 "device properties stored"
done_testing
