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

#define CATEGORY(text, cc) { text, sizeof(text) - 1, cc }
static const struct {
	const char *name;
	size_t len;
	enum chrome_class cc;
} categories[] = {
	CATEGORY("kernel", CC_KERNEL),
	CATEGORY("gpu_memcpy", CC_MEMCPY), CATEGORY("memcpy", CC_MEMCPY),
	CATEGORY("gpu_memset", CC_MEMSET), CATEGORY("memset", CC_MEMSET),
	CATEGORY("cuda_runtime", CC_RUNTIME), CATEGORY("runtime", CC_RUNTIME),
	CATEGORY("cuda_driver", CC_DRIVER),
	CATEGORY("cpu_op", CC_CPU_OP), CATEGORY("operator", CC_CPU_OP),
	CATEGORY("user_annotation", CC_USER_ANNOTATION),
	CATEGORY("gpu_user_annotation", CC_GPU_USER_ANNOTATION),
	CATEGORY("python_function", CC_PYTHON), CATEGORY("python", CC_PYTHON),
	CATEGORY("cuda_sync", CC_SYNC),
	CATEGORY("overhead", CC_OVERHEAD), CATEGORY("cuda_overhead", CC_OVERHEAD),
};

/* Asked for every event on both threads: the length first, so that most names are compared
 * with one or two of the table's (a flow's "ac2g" with none). */
enum chrome_class chrome_classify(const char *cat)
{
	size_t n;

	if (cat == NULL)
		return CC_OTHER;
	n = strlen(cat);
	for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++)
		if (categories[i].len == n && strcasecmp(cat, categories[i].name) == 0)
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

