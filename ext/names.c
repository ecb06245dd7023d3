/* names.c - C++ kernel names: demangle() and kernel_short_name().
 *
 *   demangle(name)           Itanium C++ ABI demangling through the C++ runtime's
 *                            __cxa_demangle(), in GNU notation ("char*", "{lambda(int)#1}",
 *                            "(anonymous namespace)"). Names that are not mangled ("_Z...", or
 *                            "__Z..." as on macOS) or that fail to demangle come back unchanged;
 *                            so do names over 1024 bytes, which GCC's runtime refuses.
 *   kernel_short_name(name)  the function's own name, without return type, scope, template
 *                            arguments and parameters, as Nsight Systems shows a kernel's short
 *                            name: "void at::native::vectorized_elementwise_kernel<4,
 *                            at::native::FillFunctor<float>, ...>(int, T2, T3)" gives
 *                            "vectorized_elementwise_kernel". Mangled input is demangled first.
 *                            A name that is not a function signature (C kernels such as
 *                            "sm80_xmma_gemm_..." or "triton_poi_fused_add_0") comes back
 *                            unchanged.
 *
 * Both return NULL for NULL, and the argument itself (same type) when there is nothing to do.
 *
 * HOW kernel_short_name WORKS
 * It reads the signature from the end, where its structure is fixed: drop " [clone .cold]"
 * suffixes and cv/ref/noexcept qualifiers, match the ")" of the parameter list back to its "(",
 * skip a template argument list "<...>" the same way, and take the identifier up to the
 * preceding "::" or space. Backward matching skips whole (), [], {} groups, so "(int)4",
 * "{lambda(float)#1}", "[lambda(float) (instance 1)]", "operator()() const" and ">>" inside
 * template arguments need no special cases; "<" and ">" inside parentheses are ignored.
 * Operator names ("operator()", "operator<<", "operator new[]") are recognised before template
 * arguments are skipped. Both notations seen in practice work: GNU's (c++filt, __cxa_demangle)
 * and the EDG-style one Nsight Systems writes into demangledName.
 */
#include "ext.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* From the C++ ABI (libstdc++/libc++abi, linked with -lstdc++): returns a malloc()ed string. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* __cxa_demangle keeps arrays proportional to the name's length on the stack (GNU's
 * cp-demangle.c: about 2 components and 1 substitution per input byte), so longer names are
 * returned as they are instead of risking the stack of a small thread. GCC's runtime itself
 * already refuses names over 1024 bytes (its guard for the same problem, libiberty PR 87675);
 * this bound matters for runtimes without that guard. */
#define NAMES_MAX_MANGLED 16384

/* Nesting depth at which kernel_short_name gives up (and returns its input). */
#define NAMES_MAX_DEPTH 512

/* Demangle z (NUL-terminated, n bytes). Returns a malloc()ed string for free(), or NULL when z
 * is not a mangled name; *pbNoMem is set when the runtime ran out of memory. */
static char *namesDemangle(const char *z, size_t n, int *pbNoMem)
{
	int status = 0;
	char *zOut;

	*pbNoMem = 0;
	if (n > NAMES_MAX_MANGLED)
		return NULL;
	if (n >= 3 && z[0] == '_' && z[1] == '_' && z[2] == 'Z')
		z++;
	else if (!(n >= 2 && z[0] == '_' && z[1] == 'Z'))
		return NULL; /* __cxa_demangle would also decode type names such as "i" */
	zOut = __cxa_demangle(z, NULL, NULL, &status);
	if (status == 0)
		return zOut;
	free(zOut);
	if (status == -1)
		*pbNoMem = 1;
	return NULL;
}

static int namesIsIdent(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* z[i] is one of ")]}>". Returns the index of the bracket that opens its group, or -1 when
 * unbalanced or nested deeper than NAMES_MAX_DEPTH. Groups of the other kinds inside are
 * skipped whole; inside (), [] and {} the characters '<' and '>' are plain characters. */
static ptrdiff_t namesOpen(const char *z, ptrdiff_t i, int depth)
{
	char cClose = z[i];
	char cOpen = cClose == ')' ? '(' : cClose == ']' ? '[' : cClose == '}' ? '{' : '<';
	ptrdiff_t j;

	if (depth > NAMES_MAX_DEPTH)
		return -1;
	for (j = i - 1; j >= 0; j--) {
		char c = z[j];
		if (c == cOpen)
			return j;
		if (c == ')' || c == ']' || c == '}' || (c == '>' && cClose == '>')) {
			j = namesOpen(z, j, depth + 1);
			if (j < 0)
				return -1;
		} else if (c == '(' || c == '[' || c == '{') {
			return -1;
		}
	}
	return -1;
}

static ptrdiff_t namesTrim(const char *z, ptrdiff_t e)
{
	while (e > 0 && z[e - 1] == ' ')
		e--;
	return e;
}

/* Does z[0..e) end with the word w (not preceded by an identifier character)? */
static int namesEndsWord(const char *z, ptrdiff_t e, const char *w)
{
	ptrdiff_t n = (ptrdiff_t)strlen(w);

	return e >= n && memcmp(z + e - n, w, (size_t)n) == 0 && (e == n || !namesIsIdent(z[e - n - 1]));
}

/* If z[0..e) ends with an operator function name, set *pB to where "operator" starts. */
static int namesOperator(const char *z, ptrdiff_t e, ptrdiff_t *pB)
{
	static const char *const azWord[] = { "new", "delete", "co_await" };
	ptrdiff_t j = e;
	size_t k;

	while (j > 0 && z[j - 1] != '\0' && strchr("+-*/%^&|~!=<>,()[] ", z[j - 1]) != NULL)
		j--;
	for (k = 0; k < sizeof(azWord) / sizeof(azWord[0]); k++) {
		if (namesEndsWord(z, j, azWord[k])) {
			ptrdiff_t w = namesTrim(z, j - (ptrdiff_t)strlen(azWord[k]));
			if (namesEndsWord(z, w, "operator")) {
				*pB = w - 8;
				return 1;
			}
		}
	}
	if (namesEndsWord(z, j, "operator")) {
		*pB = j - 8;
		return 1;
	}
	return 0;
}

/* Skip " [abi:cxx11]"-style tags that end z[0..e). */
static ptrdiff_t namesSkipAbiTags(const char *z, ptrdiff_t e)
{
	while (e > 0 && z[e - 1] == ']') {
		ptrdiff_t o = namesOpen(z, e - 1, 0);
		if (o < 0 || strncmp(z + o, "[abi:", 5) != 0)
			break;
		e = namesTrim(z, o);
	}
	return e;
}

/* Find the short name in the signature z[0..n). Returns 1 and sets [*pB, *pE) on success. */
static int namesShort(const char *z, ptrdiff_t n, ptrdiff_t *pB, ptrdiff_t *pE, int depth)
{
	ptrdiff_t e = n, b, o;

	if (depth > 8)
		return 0;
	/* Trailing " [clone .cold]" and qualifiers of the parameter list. */
	for (;;) {
		e = namesTrim(z, e);
		if (e > 0 && z[e - 1] == ']') {
			o = namesOpen(z, e - 1, 0);
			if (o >= 0 && strncmp(z + o, "[clone ", 7) == 0) {
				e = o;
				continue;
			}
		}
		if (namesEndsWord(z, e, "const") || namesEndsWord(z, e, "volatile") ||
		    namesEndsWord(z, e, "noexcept") || namesEndsWord(z, e, "restrict")) {
			while (e > 0 && namesIsIdent(z[e - 1]))
				e--;
			continue;
		}
		if (e > 1 && z[e - 1] == '&' && namesTrim(z, e - 1) > 0) {
			ptrdiff_t t = namesTrim(z, z[e - 2] == '&' ? e - 2 : e - 1);
			if (t > 0 && (z[t - 1] == ')' || namesIsIdent(z[t - 1]))) {
				e = t;
				continue;
			}
		}
		break;
	}
	if (e == 0 || z[e - 1] != ')')
		return 0;
	o = namesOpen(z, e - 1, 0);
	if (o <= 0)
		return 0;
	e = namesTrim(z, o);
	if (e == 0)
		return 0;
	if (namesOperator(z, e, &b)) {
		*pB = b;
		*pE = e;
		return 1;
	}
	/* A function returning a function pointer: "int (*name(args))(double)". */
	if (z[e - 1] == ')') {
		o = namesOpen(z, e - 1, 0);
		if (o < 0)
			return 0;
		b = o + 1;
		while (b < e - 1 && (z[b] == '*' || z[b] == '&' || z[b] == ' '))
			b++;
		if (!namesShort(z + b, e - 1 - b, pB, pE, depth + 1))
			return 0;
		*pB += b;
		*pE += b;
		return 1;
	}
	e = namesSkipAbiTags(z, e);
	if (e > 0 && z[e - 1] == '>') {
		o = namesOpen(z, e - 1, 0);
		if (o <= 0)
			return 0;
		e = namesTrim(z, o);
		if (namesOperator(z, e, &b)) { /* "operator< <int>" */
			*pB = b;
			*pE = e;
			return 1;
		}
		e = namesSkipAbiTags(z, e);
	}
	/* The last component: back to "::" or a space outside any brackets. */
	b = e;
	while (b > 0) {
		char c = z[b - 1];
		if (c == ' ' || (c == ':' && b >= 2 && z[b - 2] == ':'))
			break;
		if (c == ')' || c == ']' || c == '}' || c == '>') {
			b = namesOpen(z, b - 1, 0);
			if (b < 0)
				return 0;
		} else {
			b--;
		}
	}
	if (b == e)
		return 0;
	*pB = b;
	*pE = e;
	return 1;
}

static void demangleFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *z;
	char *zOut;
	int bNoMem;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
		sqlite3_result_value(ctx, argv[0]); /* NULL stays NULL, numbers are not names */
		return;
	}
	z = (const char *)sqlite3_value_text(argv[0]);
	if (z == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	zOut = namesDemangle(z, (size_t)sqlite3_value_bytes(argv[0]), &bNoMem);
	if (zOut != NULL) {
		sqlite3_result_text(ctx, zOut, -1, SQLITE_TRANSIENT);
		free(zOut);
	} else if (bNoMem) {
		sqlite3_result_error_nomem(ctx);
	} else {
		sqlite3_result_value(ctx, argv[0]);
	}
}

static void kernelShortNameFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *z;
	char *zDem;
	int bNoMem;
	ptrdiff_t b, e;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
		sqlite3_result_value(ctx, argv[0]);
		return;
	}
	z = (const char *)sqlite3_value_text(argv[0]);
	if (z == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	zDem = namesDemangle(z, (size_t)sqlite3_value_bytes(argv[0]), &bNoMem);
	if (bNoMem) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (zDem != NULL)
		z = zDem;
	if (namesShort(z, (ptrdiff_t)strlen(z), &b, &e, 0))
		sqlite3_result_text(ctx, z + b, (int)(e - b), SQLITE_TRANSIENT);
	else if (zDem != NULL)
		sqlite3_result_text(ctx, zDem, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_value(ctx, argv[0]);
	free(zDem);
}

int pq_ext_names_init(sqlite3 *db)
{
	int rc = sqlite3_create_function_v2(db, "demangle", 1, PQ_FUNC_FLAGS, NULL, demangleFunc,
					    NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, "kernel_short_name", 1, PQ_FUNC_FLAGS, NULL,
						kernelShortNameFunc, NULL, NULL, NULL);
	return rc;
}
