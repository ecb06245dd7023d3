/* kinds.c - the activity groups `profq record --kinds` and the collector's PROFQ_KINDS name. */
#include "kinds.h"

#include <stdio.h>
#include <string.h>

const char pq_kind_names[] =
	"kernel,runtime,driver,memcpy,memset,memory,sync,overhead,device,context,stream,graph,nvtx";

int pq_kind_parse(const char *text, unsigned *bits, char *err, size_t errlen)
{
	static const char *const names[] = { "kernel", "runtime", "driver", "memcpy", "memset",
					     "memory", "sync", "overhead", "device", "context",
					     "stream", "graph", "nvtx" };
	const char *p = text;
	unsigned out = 0;

	while (*p != '\0') {
		size_t n = strcspn(p, ",");
		size_t i;

		if (n == 3 && strncmp(p, "all", 3) == 0) {
			out |= PQ_K_DEFAULT | PQ_K_GRAPH;
		} else if (n == 7 && strncmp(p, "default", 7) == 0) {
			out |= PQ_K_DEFAULT;
		} else {
			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (strlen(names[i]) == n && strncmp(p, names[i], n) == 0)
					break;
			if (i == sizeof(names) / sizeof(names[0])) {
				snprintf(err, errlen, "unknown kind '%.*s' (known: %s, all, default)",
					 (int)n, p, pq_kind_names);
				return -1;
			}
			out |= 1u << i;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (out == 0) {
		snprintf(err, errlen, "no kinds given");
		return -1;
	}
	*bits = out;
	return 0;
}

