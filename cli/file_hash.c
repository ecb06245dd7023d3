/* file_hash.c - the SHA-256 of a file's bytes (OpenSSL's libcrypto), which `profq import` keeps per
 * run to know a file it has already imported. */
#include "file_hash.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

int pq_file_sha256(const char *path, char hex[65], pq_error *err)
{
	static unsigned char buf[1 << 20];   /* one caller at a time: the CLI is single-threaded */
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	EVP_MD_CTX *ctx;
	FILE *f;
	size_t n;
	int ok, read_error;

	f = fopen(path, "rb");
	if (f == NULL)
		return pq_fail(err, "cannot open '%s': %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	ok = ctx != NULL && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
	while (ok && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		ok = EVP_DigestUpdate(ctx, buf, n) == 1;
	read_error = ferror(f);
	ok = ok && !read_error && EVP_DigestFinal_ex(ctx, md, &len) == 1 && len == 32;
	EVP_MD_CTX_free(ctx);
	fclose(f);
	if (read_error)
		return pq_fail(err, "cannot read '%s'", path);
	if (!ok)
		return pq_fail(err, "cannot hash '%s': SHA-256 failed", path);
	for (unsigned int i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}
