/* libnvtxpeer.c - a shared library with its own NVTX instance (its own copy of the nvtx3 globals),
 * as a framework library inside an application would have. */
#include <nvtx3/nvToolsExt.h>

void peer_work(void);

void peer_work(void)
{
	nvtxDomainHandle_t d = nvtxDomainCreateA("profq.test");   /* same name as the app's */
	nvtxEventAttributes_t a = { 0 };

	a.version = NVTX_VERSION;
	a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a.messageType = NVTX_MESSAGE_TYPE_ASCII;
	a.message.ascii = "peer domain range";
	nvtxRangePushA("peer range");
	nvtxDomainRangePushEx(d, &a);
	nvtxDomainRangePop(d);
	nvtxMarkA("peer mark");
	nvtxRangePop();
}
