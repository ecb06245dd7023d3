/* hint.c - errors that name the command to run instead (see hint.h). */
#include "hint.h"

#include <stdio.h>
#include <string.h>

static const char *const report_ext[] = { ".nsys-rep", ".qdrep" };

/* Length of the report extension path ends with, or 0. */
static size_t report_ext_len(const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(report_ext) / sizeof(report_ext[0]); i++) {
		size_t e = strlen(report_ext[i]);
		if (n > e && strcmp(path + n - e, report_ext[i]) == 0)
			return e;
	}
	return 0;
}

int pq_is_nsys_report(const char *path)
{
	return report_ext_len(path) > 0;
}

/* text[0..len) as one POSIX shell word: as it is when only safe characters, else in single
 * quotes (a quote inside as '\''). */
static void shell_word(char *out, size_t cap, const char *text, size_t len)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789_./+-:@%,=";
	size_t n = 0;
	int plain = len > 0;

	for (size_t i = 0; i < len && plain; i++)
		plain = text[i] != '\0' && strchr(safe, text[i]) != NULL;
#define PUT(c) do { if (n + 1 < cap) out[n++] = (c); } while (0)
	if (!plain)
		PUT('\'');
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\'') {
			PUT('\'');
			PUT('\\');
			PUT('\'');
		}
		PUT(text[i]);
	}
	if (!plain)
		PUT('\'');
#undef PUT
	out[n] = '\0';
}

/* path with a report's extension replaced by .sqlite (nsys export's own default name). */
static void export_name(char *out, size_t cap, const char *path)
{
	size_t len = strlen(path), ext = report_ext_len(path);

	snprintf(out, cap, "%.*s%s", (int)(len - ext), path, ext > 0 ? ".sqlite" : "");
}

void pq_hint_nsys_export(char *out, size_t cap, const char *path)
{
	char in[512], name[512], dst[512];

	shell_word(in, sizeof(in), path, strlen(path));
	export_name(name, sizeof(name), path);
	shell_word(dst, sizeof(dst), name, strlen(name));
	snprintf(out, cap, "nsys export --type sqlite --output %s %s", dst, in);
}

void pq_hint_profq_import(char *out, size_t cap, const char *path)
{
	char name[512], word[512];

	export_name(name, sizeof(name), path);
	shell_word(word, sizeof(word), name, strlen(name));
	snprintf(out, cap, "profq import -o profile.db %s", word);
}
