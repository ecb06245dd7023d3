/* file_hash.h - hashing input files (libcrypto). */
#ifndef PQ_FILE_HASH_H
#define PQ_FILE_HASH_H

#include "error.h"

/* The SHA-256 of the file's bytes as lower-case hex (64 characters and a NUL) into hex; -1 with
 * err set when the file cannot be read. */
int pq_file_sha256(const char *path, char hex[65], pq_error *err);

#endif
