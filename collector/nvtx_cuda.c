/* nvtx_cuda.c - NVTX's CUDA and CUDART modules: nvtxNameCu{Device,Context,Stream,Event}{A,W}
 * (nvtx3/nvToolsExtCuda.h, slots NVTX_CBID_CUDA_*) and nvtxNameCuda{Device,Stream,Event}{A,W}
 * (nvtx3/nvToolsExtCudaRt.h, NVTX_CBID_CUDART_*), slot ids from nvtx3/nvtxDetail/nvtxTypes.h.
 *
 * A name is kept with the handle as the program passed it (rows of cuda_names). Streams and
 * contexts are also mapped to CUPTI's ids here, at call time, because a handle means nothing
 * later: CUDA reuses addresses once an object is destroyed. That needs the driver, so it is only
 * tried while GPU tracing is on; naming is rare, so the CUPTI call costs nothing that matters.
 */
#include "nvtx_tool.h"

#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <cupti.h>

#include "cupti_collect.h"
#include "nvtx_event.h"

static int64_t stream_id(CUstream s)
{
	uint32_t id;

	/* perThreadStream 0: a handle given to NVTX is an explicit stream or the legacy default. */
	if (pq_cupti_active() && cuptiGetStreamIdEx(NULL, s, 0, &id) == CUPTI_SUCCESS)
		return id;
	return -1;
}

static int64_t context_id(CUcontext c)
{
	uint32_t id;

	if (pq_cupti_active() && c != NULL && cuptiGetContextId(c, &id) == CUPTI_SUCCESS)
		return id;
	return -1;
}

#define H(p) ((uint64_t)(uintptr_t)(p))

static void NVTX_API cu_device_a(CUdevice d, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_DEVICE, (uint64_t)(int64_t)d, -1, n, NULL); }
static void NVTX_API cu_device_w(CUdevice d, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_DEVICE, (uint64_t)(int64_t)d, -1, NULL, n); }
static void NVTX_API cu_context_a(CUcontext c, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_CONTEXT, H(c), context_id(c), n, NULL); }
static void NVTX_API cu_context_w(CUcontext c, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_CONTEXT, H(c), context_id(c), NULL, n); }
static void NVTX_API cu_stream_a(CUstream s, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_STREAM, H(s), stream_id(s), n, NULL); }
static void NVTX_API cu_stream_w(CUstream s, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_STREAM, H(s), stream_id(s), NULL, n); }
static void NVTX_API cu_event_a(CUevent e, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_EVENT, H(e), -1, n, NULL); }
static void NVTX_API cu_event_w(CUevent e, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CU_EVENT, H(e), -1, NULL, n); }

static void NVTX_API cuda_device_a(int d, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CUDA_DEVICE, (uint64_t)(int64_t)d, -1, n, NULL); }
static void NVTX_API cuda_device_w(int d, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CUDA_DEVICE, (uint64_t)(int64_t)d, -1, NULL, n); }
/* cudaStream_t and cudaEvent_t are the driver's CUstream and CUevent (driver_types.h). */
static void NVTX_API cuda_stream_a(cudaStream_t s, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CUDA_STREAM, H(s), stream_id((CUstream)s), n, NULL); }
static void NVTX_API cuda_stream_w(cudaStream_t s, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CUDA_STREAM, H(s), stream_id((CUstream)s), NULL, n); }
static void NVTX_API cuda_event_a(cudaEvent_t e, const char *n) { pq_nvtx_name_resource(PQ_NV_RES_CUDA_EVENT, H(e), -1, n, NULL); }
static void NVTX_API cuda_event_w(cudaEvent_t e, const wchar_t *n) { pq_nvtx_name_resource(PQ_NV_RES_CUDA_EVENT, H(e), -1, NULL, n); }

static const pq_nvtx_slot cuda_slots[] = {
	{ NVTX_CBID_CUDA_NameCuDeviceA, PQ_NVTX_FN(cu_device_a) },
	{ NVTX_CBID_CUDA_NameCuDeviceW, PQ_NVTX_FN(cu_device_w) },
	{ NVTX_CBID_CUDA_NameCuContextA, PQ_NVTX_FN(cu_context_a) },
	{ NVTX_CBID_CUDA_NameCuContextW, PQ_NVTX_FN(cu_context_w) },
	{ NVTX_CBID_CUDA_NameCuStreamA, PQ_NVTX_FN(cu_stream_a) },
	{ NVTX_CBID_CUDA_NameCuStreamW, PQ_NVTX_FN(cu_stream_w) },
	{ NVTX_CBID_CUDA_NameCuEventA, PQ_NVTX_FN(cu_event_a) },
	{ NVTX_CBID_CUDA_NameCuEventW, PQ_NVTX_FN(cu_event_w) },
};

static const pq_nvtx_slot cudart_slots[] = {
	{ NVTX_CBID_CUDART_NameCudaDeviceA, PQ_NVTX_FN(cuda_device_a) },
	{ NVTX_CBID_CUDART_NameCudaDeviceW, PQ_NVTX_FN(cuda_device_w) },
	{ NVTX_CBID_CUDART_NameCudaStreamA, PQ_NVTX_FN(cuda_stream_a) },
	{ NVTX_CBID_CUDART_NameCudaStreamW, PQ_NVTX_FN(cuda_stream_w) },
	{ NVTX_CBID_CUDART_NameCudaEventA, PQ_NVTX_FN(cuda_event_a) },
	{ NVTX_CBID_CUDART_NameCudaEventW, PQ_NVTX_FN(cuda_event_w) },
};

void pq_nvtx_cuda_fill(const NvtxExportTableCallbacks *cb)
{
	pq_nvtx_fill(cb, NVTX_CB_MODULE_CUDA, cuda_slots, sizeof(cuda_slots) / sizeof(cuda_slots[0]));
	pq_nvtx_fill(cb, NVTX_CB_MODULE_CUDART, cudart_slots,
		     sizeof(cudart_slots) / sizeof(cudart_slots[0]));
}
