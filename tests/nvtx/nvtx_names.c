/* nvtx_names.c - names CUDA objects through NVTX's CUDA and CUDART modules with made-up handles
 * (NVTX only forwards them; no driver is involved), for tests/collector/cuda_names.t.
 *
 * Prints one line per call, in call order: "name RESOURCE API HANDLE NAME" with HANDLE in
 * decimal, which is what the database must hold.
 */
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <stdint.h>
#include <stdio.h>

#define SAY(res, api, h, n) printf("name %s %s %llu %s\n", res, api, (unsigned long long)(h), n)

int main(void)
{
	CUcontext ctx = (CUcontext)(uintptr_t)0x7f0000001000u;
	CUstream cs = (CUstream)(uintptr_t)0x7f0000002000u;
	CUevent ce = (CUevent)(uintptr_t)0x7f0000003000u;
	cudaStream_t rs = (cudaStream_t)(uintptr_t)0x7f0000004000u;
	cudaEvent_t re = (cudaEvent_t)(uintptr_t)0x7f0000005000u;

	nvtxNameCuDeviceA(0, "gpu zero");                SAY("device", "driver", 0, "gpu zero");
	nvtxNameCuDeviceW(1, L"gpu one \u00e9");        SAY("device", "driver", 1, "gpu one \u00e9");
	nvtxNameCuContextA(ctx, "main ctx");             SAY("context", "driver", (uintptr_t)ctx, "main ctx");
	nvtxNameCuContextW(ctx, L"main ctx w");          SAY("context", "driver", (uintptr_t)ctx, "main ctx w");
	nvtxNameCuStreamA(cs, "h2d");                    SAY("stream", "driver", (uintptr_t)cs, "h2d");
	nvtxNameCuStreamW(NULL, L"legacy default");      SAY("stream", "driver", 0, "legacy default");
	nvtxNameCuEventA(ce, "ev start");                SAY("event", "driver", (uintptr_t)ce, "ev start");
	nvtxNameCuEventW(ce, L"ev start w");             SAY("event", "driver", (uintptr_t)ce, "ev start w");
	nvtxNameCudaDeviceA(2, "rt gpu two");            SAY("device", "runtime", 2, "rt gpu two");
	nvtxNameCudaDeviceW(3, L"rt gpu three");         SAY("device", "runtime", 3, "rt gpu three");
	nvtxNameCudaStreamA(rs, "compute");              SAY("stream", "runtime", (uintptr_t)rs, "compute");
	nvtxNameCudaStreamW(rs, L"compute renamed");     SAY("stream", "runtime", (uintptr_t)rs, "compute renamed");
	nvtxNameCudaEventA(re, "rt ev");                 SAY("event", "runtime", (uintptr_t)re, "rt ev");
	nvtxNameCudaEventW(re, L"rt ev w");              SAY("event", "runtime", (uintptr_t)re, "rt ev w");
	return 0;
}
