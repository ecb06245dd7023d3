/* chrome_category.c - Kineto / PyTorch profiler categories, by what they become. */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

/* Categories ------------------------------------------------------------------------------- */

static const struct {
	const char *name;
	enum chrome_class cc;
} categories[] = {
	{ "kernel", CC_KERNEL },
	{ "gpu_memcpy", CC_MEMCPY }, { "memcpy", CC_MEMCPY },
	{ "gpu_memset", CC_MEMSET }, { "memset", CC_MEMSET },
	{ "cuda_runtime", CC_RUNTIME }, { "runtime", CC_RUNTIME },
	{ "cuda_driver", CC_DRIVER },
	{ "cpu_op", CC_CPU_OP }, { "operator", CC_CPU_OP },
	{ "user_annotation", CC_USER_ANNOTATION },
	{ "gpu_user_annotation", CC_GPU_USER_ANNOTATION },
	{ "python_function", CC_PYTHON }, { "python", CC_PYTHON },
	{ "cuda_sync", CC_SYNC },
	{ "overhead", CC_OVERHEAD }, { "cuda_overhead", CC_OVERHEAD },
};

enum chrome_class chrome_classify(const char *cat)
{
	if (cat == NULL)
		return CC_OTHER;
	for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++)
		if (strcasecmp(cat, categories[i].name) == 0)
			return categories[i].cc;
	return CC_OTHER;
}

int chrome_class_is_host(enum chrome_class cc)
{
	return cc == CC_RUNTIME || cc == CC_DRIVER || cc == CC_CPU_OP || cc == CC_USER_ANNOTATION ||
	       cc == CC_PYTHON;
}

int chrome_class_is_gpu(enum chrome_class cc)
{
	return cc == CC_KERNEL || cc == CC_MEMCPY || cc == CC_MEMSET ||
	       cc == CC_GPU_USER_ANNOTATION || cc == CC_SYNC;
}

int64_t chrome_range_kind(enum chrome_class cc)
{
	switch (cc) {
	case CC_CPU_OP: return PQ_RANGE_CPU_OP;
	case CC_USER_ANNOTATION: return PQ_RANGE_USER_ANNOTATION;
	case CC_GPU_USER_ANNOTATION: return PQ_RANGE_GPU_USER_ANNOTATION;
	case CC_PYTHON: return PQ_RANGE_PYTHON_FUNCTION;
	case CC_OVERHEAD: return PQ_RANGE_PROFILER_OVERHEAD;
	default: return PQ_RANGE_TRACE_EVENT;
	}
}

