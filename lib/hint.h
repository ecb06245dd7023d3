/* hint.h - the commands an error names when profq is given a file it does not read as it is: an
 * Nsight Systems report (.nsys-rep, .qdrep), which `nsys export` turns into the SQLite export profq
 * imports, and that export given where a profq database is expected. File names are quoted for a
 * POSIX shell when they need it, so a hint can be pasted as it is. */
#ifndef PQ_HINT_H
#define PQ_HINT_H

#include <stddef.h>

/* 1 when path ends in .nsys-rep or .qdrep (nsys's own report formats, which profq never reads). */
int pq_is_nsys_report(const char *path);

/* "nsys export --type sqlite --output NAME.sqlite PATH" for a report PATH (NAME.nsys-rep). */
void pq_hint_nsys_export(char *out, size_t cap, const char *path);

/* "profq import -o profile.db FILE": FILE is path, or NAME.sqlite when path is a report. */
void pq_hint_profq_import(char *out, size_t cap, const char *path);

#endif
