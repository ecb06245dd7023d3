/* fake_driver.c - does what the CUDA driver's cuInit does with CUDA_INJECTION64_PATH: dlopen the
 * library and call InitializeInjection (twice: it must be idempotent). Test-only; with no real
 * driver the collector must degrade to NVTX-only and say why. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	const char *path = getenv("CUDA_INJECTION64_PATH");
	void *h = path != NULL ? dlopen(path, RTLD_NOW) : NULL;
	int (*init)(void);

	if (h == NULL) {
		fprintf(stderr, "fake_driver: cannot load %s\n", path != NULL ? path : "(unset)");
		return 1;
	}
	*(void **)&init = dlsym(h, "InitializeInjection");
	if (init == NULL)
		return 1;
	printf("init %d %d\n", init(), init());
	return 0;
}
