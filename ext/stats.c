/* stats.c - robust statistics as aggregate and window functions: median, percentile, quartiles,
 * stddev and variance, computed the way `nsys stats` summary reports show them.
 *
 * SQL functions (each usable as an aggregate and as a window function):
 *
 *   median(x)            = percentile(x, 50)
 *   percentile(x, p)     p-th percentile, p in [0, 100]
 *   lower_quartile(x)    = percentile(x, 25)
 *   upper_quartile(x)    = percentile(x, 75)
 *   stddev(x), stdev(x)  sample standard deviation (divisor n-1); stdev is nsys's spelling
 *   variance(x)          sample variance (divisor n-1)
 *
 * Requirements (docs/sql-functions.md says the same for users; the tests cite the numbers):
 *   (1) NULL values of x are ignored; so is a NaN REAL, which SQLite itself stores as NULL.
 *   (2) No non-NULL x in the group or frame: the result is NULL.
 *   (3) TEXT or BLOB x is an error: "<fn>(): x must be a number, got text" (or blob). Values are
 *       not converted from text, so a column with mixed storage classes is noticed, not skipped.
 *   (4) Percentiles interpolate linearly between the closest ranks: with the n values sorted as
 *       v[0] <= ... <= v[n-1], h = (n-1)*p/100, k = floor(h), the result is
 *       v[k] + (v[k+1]-v[k])*(h-k). This is Hyndman & Fan's definition 7, numpy's default
 *       'linear' method and Python's statistics.quantiles(method='inclusive'); the quartiles use
 *       the same rule with p = 25 and 75.
 *   (5) p must be an INTEGER or REAL in [0, 100] and the same on every row of a group, else the
 *       error is "percentile(): p must be a number between 0 and 100" or "percentile(): p must
 *       be the same for every row of a group". NULL p is an error too.
 *   (6) While every value is an INTEGER, values are kept as 64-bit integers and the
 *       interpolation is done in exact rational arithmetic, p read as the decimal it is written
 *       as (up to 6 places): a whole-number result is returned as an INTEGER, any other as the
 *       nearest REAL (a median of integers may end in .5). Once a REAL value arrives, the
 *       group's values are kept as doubles from then on (also for the rest of a window
 *       partition).
 *   (7) stddev/variance use the divisor n-1 and return NULL for fewer than 2 values (as SQL's
 *       STDDEV_SAMP does); with any infinite value they return NULL (the result is undefined).
 *   (8) A percentile involving -Inf and +Inf together is NULL; otherwise infinities sort to the
 *       ends and interpolation towards one gives that infinity.
 *   (9) Out of memory is reported with sqlite3_result_error_nomem(); nothing leaks.
 *
 * HOW IT WORKS
 * Each group keeps every non-NULL value in one array: a sorted prefix, then a tail that is
 * sorted up to the values appended since the last result. xStep appends (and extends the
 * prefix while input arrives in order). A percentile sorts the new values into the tail and
 * merges the tail into the prefix once it is longer than sqrt(n); until then the k-th value is
 * found across both runs by binary search. So a final result costs O(n log n), a window frame
 * that grows O(sqrt(n)) per row (amortised) and a sliding frame of w rows O(w) per row.
 * xInverse removes one exact earlier value (binary search in the sorted runs, a linear scan of
 * the few unsorted ones). xValue leaves the state intact; xFinal frees it. stddev does two passes over the values (mean, then the sum of squared
 * deviations with the correction term of the "corrected two-pass algorithm", Chan, Golub &
 * LeVeque 1983), after scaling by a power of two so that huge values neither overflow nor lose
 * bits; integer inputs are first taken relative to one of them in exact 64-bit arithmetic.
 * The registration pattern (one state, xValue/xFinal sharing a compute routine) is the one
 * SQLite's ext/misc/percentile.c uses; the code here is our own.
 */
#include "ext.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Which statistic a registered name computes. */
enum { STAT_PERCENTILE, STAT_STDDEV, STAT_VARIANCE };

/* One registered SQL function; passed as the user data pointer. */
typedef struct StatFunc {
	const char *zName; /* SQL name, used in error messages */
	int nArg;          /* 1, or 2 for percentile(x, p) */
	int eKind;         /* STAT_* */
	double rPct;       /* fixed percentile for median and the quartiles */
} StatFunc;

/* One stored value: which member is valid is decided by Stat.bReal for the whole array. */
typedef union StatSlot {
	sqlite3_int64 i;
	double r;
} StatSlot;

/* Per-group state, in the memory of sqlite3_aggregate_context() (zeroed on first use). */
typedef struct Stat {
	StatSlot *a;            /* values; owned, freed by statFree() */
	sqlite3_int64 nUsed;    /* values in a[] */
	sqlite3_int64 nAlloc;   /* slots allocated in a[] */
	sqlite3_int64 nSorted;  /* a[0..nSorted) is sorted: the "prefix" */
	sqlite3_int64 nTailSorted; /* a[nSorted..nSorted+nTailSorted) is sorted too: the tail */
	StatSlot *aTmp;         /* merge scratch; owned, freed by statFree() */
	sqlite3_int64 nTmp;     /* slots allocated in aTmp[] */
	double rPct;            /* percentile() p, valid when bHavePct */
	int bHavePct;
	int bReal;              /* 1: a[] holds doubles, 0: a[] holds 64-bit integers */
} Stat;

static StatFunc aStatFunc[] = {
	{ "median",         1, STAT_PERCENTILE, 50.0 },
	{ "lower_quartile", 1, STAT_PERCENTILE, 25.0 },
	{ "upper_quartile", 1, STAT_PERCENTILE, 75.0 },
	{ "percentile",     2, STAT_PERCENTILE, 0.0 },
	{ "stddev",         1, STAT_STDDEV,     0.0 },
	{ "stdev",          1, STAT_STDDEV,     0.0 },
	{ "variance",       1, STAT_VARIANCE,   0.0 },
};

static int statCmpInt(const void *pA, const void *pB)
{
	sqlite3_int64 x = ((const StatSlot *)pA)->i, y = ((const StatSlot *)pB)->i;
	return (x > y) - (x < y);
}

/* Doubles here are never NaN (Requirement 1), so this is a total order. */
static int statCmpReal(const void *pA, const void *pB)
{
	double x = ((const StatSlot *)pA)->r, y = ((const StatSlot *)pB)->r;
	return (x > y) - (x < y);
}

static int statCmp(const Stat *p, const StatSlot *pA, const StatSlot *pB)
{
	return p->bReal ? statCmpReal(pA, pB) : statCmpInt(pA, pB);
}

/* Free what a Stat owns; the struct itself belongs to SQLite. */
static void statFree(Stat *p)
{
	sqlite3_free(p->a);
	sqlite3_free(p->aTmp);
	memset(p, 0, sizeof(*p));
}

/* Switch a[] from integers to doubles. Conversion is monotone, so the sorted prefix stays so. */
static void statToReal(Stat *p)
{
	sqlite3_int64 j;

	for (j = 0; j < p->nUsed; j++)
		p->a[j].r = (double)p->a[j].i;
	p->bReal = 1;
}

/* Append one value. Returns SQLITE_OK or SQLITE_NOMEM. */
static int statAppend(Stat *p, StatSlot v)
{
	if (p->nUsed >= p->nAlloc) {
		sqlite3_int64 nNew = p->nAlloc ? 2 * p->nAlloc : 16;
		StatSlot *aNew = sqlite3_realloc64(p->a, (sqlite3_uint64)nNew * sizeof(StatSlot));
		if (aNew == NULL)
			return SQLITE_NOMEM;
		p->a = aNew;
		p->nAlloc = nNew;
	}
	p->a[p->nUsed] = v;
	if (p->nSorted == p->nUsed && (p->nUsed == 0 || statCmp(p, &p->a[p->nUsed - 1], &v) <= 0))
		p->nSorted++;
	p->nUsed++;
	return SQLITE_OK;
}

/* Insert the value at index j of a[] into the sorted run a[lo..j) (which it extends). */
static void statInsert(Stat *p, sqlite3_int64 lo, sqlite3_int64 j)
{
	StatSlot v = p->a[j];
	sqlite3_int64 hi = j, pos;

	while (lo < hi) { /* upper bound: equal values keep their order */
		sqlite3_int64 mid = lo + (hi - lo) / 2;
		if (statCmp(p, &p->a[mid], &v) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	pos = lo;
	memmove(p->a + pos + 1, p->a + pos, (size_t)(j - pos) * sizeof(StatSlot));
	p->a[pos] = v;
}

/* Make both runs sorted, and merge the tail into the prefix when that is free or the tail has
 * grown past sqrt(n): so a window frame that only grows costs O(sqrt(n)) per row, amortised,
 * instead of O(n). Returns SQLITE_OK or SQLITE_NOMEM. */
static int statSort(Stat *p)
{
	int (*xCmp)(const void *, const void *) = p->bReal ? statCmpReal : statCmpInt;
	sqlite3_int64 nTail = p->nUsed - p->nSorted;
	sqlite3_int64 nNew = nTail - p->nTailSorted;
	sqlite3_int64 i, j, k;

	if (nTail == 0)
		return SQLITE_OK;
	if (nNew > 0 && nNew <= 8) {
		for (j = p->nSorted + p->nTailSorted; j < p->nUsed; j++)
			statInsert(p, p->nSorted, j);
	} else if (nNew > 0) {
		qsort(p->a + p->nSorted, (size_t)nTail, sizeof(StatSlot), xCmp);
	}
	p->nTailSorted = nTail;
	if (p->nSorted > 0 && xCmp(&p->a[p->nSorted - 1], &p->a[p->nSorted]) > 0) {
		if (nTail <= 32 || nTail * nTail <= p->nUsed)
			return SQLITE_OK; /* keep two runs; statKth() reads across them */
		/* Merge from the back: copy the tail aside, then fill a[] from its end. */
		if (p->nTmp < nTail) {
			StatSlot *aNew = sqlite3_realloc64(p->aTmp, (sqlite3_uint64)nTail * sizeof(StatSlot));
			if (aNew == NULL)
				return SQLITE_NOMEM;
			p->aTmp = aNew;
			p->nTmp = nTail;
		}
		memcpy(p->aTmp, p->a + p->nSorted, (size_t)nTail * sizeof(StatSlot));
		i = p->nSorted - 1;
		j = nTail - 1;
		k = p->nUsed - 1;
		while (j >= 0) {
			if (i >= 0 && xCmp(&p->a[i], &p->aTmp[j]) > 0)
				p->a[k--] = p->a[i--];
			else
				p->a[k--] = p->aTmp[j--];
		}
	}
	p->nSorted = p->nUsed;
	p->nTailSorted = 0;
	return SQLITE_OK;
}

/* The value of rank k (0-based) in the union of the two sorted runs (after statSort()). */
static const StatSlot *statKth(const Stat *p, sqlite3_int64 k)
{
	const StatSlot *A = p->a, *B = p->a + p->nSorted;
	sqlite3_int64 m = p->nSorted, t = p->nUsed - p->nSorted;
	sqlite3_int64 lo = k + 1 - m > 0 ? k + 1 - m : 0, hi = k + 1 < t ? k + 1 : t;

	/* Take j values from B and i = k+1-j from A so that every taken value <= every other. */
	for (;;) {
		sqlite3_int64 j = lo + (hi - lo) / 2, i = k + 1 - j;
		if (j > 0 && i < m && statCmp(p, &B[j - 1], &A[i]) > 0) {
			hi = j - 1;
		} else if (i > 0 && j < t && statCmp(p, &A[i - 1], &B[j]) > 0) {
			lo = j + 1;
		} else {
			if (i == 0)
				return &B[j - 1];
			if (j == 0)
				return &A[i - 1];
			return statCmp(p, &A[i - 1], &B[j - 1]) >= 0 ? &A[i - 1] : &B[j - 1];
		}
	}
}

/* Lower bound of v in the sorted run a[lo..hi); returns its index if found there, else -1. */
static sqlite3_int64 statFind(const Stat *p, sqlite3_int64 lo, sqlite3_int64 hi, StatSlot v)
{
	sqlite3_int64 end = hi;

	while (lo < hi) {
		sqlite3_int64 mid = lo + (hi - lo) / 2;
		if (statCmp(p, &p->a[mid], &v) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && statCmp(p, &p->a[lo], &v) == 0 ? lo : -1;
}

/* Remove one value equal to v (xInverse). It was added by an earlier xStep, so it is there:
 * in the prefix or the sorted tail (binary search, then close the gap) or among the values
 * appended since the last sort (linear search, then move the last value into the hole). */
static void statRemove(Stat *p, StatSlot v)
{
	sqlite3_int64 nEnd = p->nSorted + p->nTailSorted, j;

	j = statFind(p, 0, p->nSorted, v);
	if (j >= 0) {
		p->nSorted--;
	} else if ((j = statFind(p, p->nSorted, nEnd, v)) >= 0) {
		p->nTailSorted--;
	} else {
		for (j = nEnd; j < p->nUsed; j++) {
			if (statCmp(p, &p->a[j], &v) == 0) {
				p->a[j] = p->a[p->nUsed - 1];
				p->nUsed--;
				return;
			}
		}
		return;
	}
	memmove(p->a + j, p->a + j + 1, (size_t)(p->nUsed - j - 1) * sizeof(StatSlot));
	p->nUsed--;
}

/* Read an x argument into *pV, in the representation pStat uses. Returns 1 for a value, 0 for
 * one to ignore (NULL, NaN), -1 for TEXT or BLOB. A REAL switches pStat to doubles first (never
 * in xInverse: the value went through xStep earlier, which switched already). */
static int statArg(Stat *pStat, sqlite3_value *pVal, StatSlot *pV)
{
	switch (sqlite3_value_type(pVal)) {
	case SQLITE_INTEGER:
		if (pStat->bReal)
			pV->r = (double)sqlite3_value_int64(pVal);
		else
			pV->i = sqlite3_value_int64(pVal);
		return 1;
	case SQLITE_FLOAT:
		pV->r = sqlite3_value_double(pVal);
		if (isnan(pV->r))
			return 0;
		if (!pStat->bReal)
			statToReal(pStat);
		return 1;
	case SQLITE_NULL:
		return 0;
	default:
		return -1;
	}
}

/* Check percentile()'s p on one row. Returns 1 when valid and stores it in *pr. */
static int statPctArg(sqlite3_value *pVal, double *pr)
{
	int eType = sqlite3_value_type(pVal);
	double r;

	if (eType != SQLITE_INTEGER && eType != SQLITE_FLOAT)
		return 0;
	r = sqlite3_value_double(pVal);
	if (!(r >= 0.0 && r <= 100.0))
		return 0;
	*pr = r;
	return 1;
}

static void statStep(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const StatFunc *pFunc = sqlite3_user_data(ctx);
	Stat *p;
	StatSlot v;
	double rPct = 0.0;
	int rc;

	if (argc == 2 && !statPctArg(argv[1], &rPct)) {
		char *zErr = sqlite3_mprintf("%s(): p must be a number between 0 and 100",
					     pFunc->zName);
		sqlite3_result_error(ctx, zErr ? zErr : "percentile(): p out of range", -1);
		sqlite3_free(zErr);
		return;
	}
	p = sqlite3_aggregate_context(ctx, (int)sizeof(*p));
	if (p == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (argc == 2) {
		if (!p->bHavePct) {
			p->rPct = rPct;
			p->bHavePct = 1;
		} else if (p->rPct != rPct) {
			char *zErr = sqlite3_mprintf("%s(): p must be the same for every row of a group",
						     pFunc->zName);
			sqlite3_result_error(ctx, zErr ? zErr : "percentile(): p changed", -1);
			sqlite3_free(zErr);
			return;
		}
	}
	rc = statArg(p, argv[0], &v);
	if (rc == 0)
		return;
	if (rc < 0) {
		char *zErr = sqlite3_mprintf("%s(): x must be a number, got %s", pFunc->zName,
					     sqlite3_value_type(argv[0]) == SQLITE_TEXT ? "text" : "blob");
		sqlite3_result_error(ctx, zErr ? zErr : "x must be a number", -1);
		sqlite3_free(zErr);
		return;
	}
	if (statAppend(p, v) != SQLITE_OK)
		sqlite3_result_error_nomem(ctx);
}

static void statInverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	Stat *p = sqlite3_aggregate_context(ctx, (int)sizeof(*p));
	StatSlot v;

	(void)argc;
	if (p == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (statArg(p, argv[0], &v) == 1)
		statRemove(p, v);
}

/* lo + d for an int64 lo and 0 <= d <= UINT64_MAX, when the sum is known to fit int64. */
static sqlite3_int64 statAddU(sqlite3_int64 lo, sqlite3_uint64 d)
{
	if (d <= (sqlite3_uint64)INT64_MAX)
		return lo + (sqlite3_int64)d;
	/* Only possible for lo < 0: go through INT64_MAX to stay in range. */
	return (lo + INT64_MAX) + (sqlite3_int64)(d - (sqlite3_uint64)INT64_MAX);
}

/* The rank h = (n-1)*rPct/100 as an exact fraction k + r/D, reading rPct as the shortest decimal
 * with at most 6 places that gives the same double (99.9 is 999/10, not its binary value).
 * Returns 0 when there is no such decimal or the numbers would not fit 64 bits. */
static int statRank(sqlite3_int64 n, double rPct, sqlite3_int64 *pk, sqlite3_uint64 *pr,
		    sqlite3_uint64 *pD)
{
	sqlite3_uint64 D = 100, A, P;
	double rScale = 1.0, m = 0.0;
	int j;

	for (j = 0; j <= 6; j++, rScale *= 10.0, D *= 10) {
		m = floor(rPct * rScale + 0.5);
		if (m / rScale == rPct)
			break;
	}
	if (j > 6)
		return 0;
	P = (sqlite3_uint64)m; /* <= 100 * 10^6 */
	if ((sqlite3_uint64)(n - 1) > ((sqlite3_uint64)INT64_MAX) / (P + 1))
		return 0;
	A = (sqlite3_uint64)(n - 1) * P;
	*pk = (sqlite3_int64)(A / D);
	*pr = A % D;
	*pD = D;
	return 1;
}

/* The percentile rPct of the sorted values (Requirement 4), into ctx. */
static void statPercentile(sqlite3_context *ctx, const Stat *p, double rPct)
{
	sqlite3_int64 k;
	sqlite3_uint64 r = 0, D = 1;
	double rFrac;
	int bExact = statRank(p->nUsed, rPct, &k, &r, &D);

	if (bExact) {
		rFrac = (double)r / (double)D;
	} else {
		double h = (double)(p->nUsed - 1) * rPct / 100.0;
		k = (sqlite3_int64)floor(h);
		rFrac = h - floor(h);
	}
	if (k >= p->nUsed - 1) {
		k = p->nUsed - 1;
		rFrac = 0.0;
		r = 0;
	}
	if (!p->bReal) {
		sqlite3_int64 lo = statKth(p, k)->i, hi;
		sqlite3_uint64 d, q, t;

		if (rFrac == 0.0 || (hi = statKth(p, k + 1)->i) == lo) {
			sqlite3_result_int64(ctx, lo);
			return;
		}
		d = (sqlite3_uint64)hi - (sqlite3_uint64)lo; /* exact: hi > lo */
		if (bExact) {
			/* lo + d*r/D = lo + q*r + t*r/D with d = q*D + t; q*r < d, t*r < D*D <= 10^16. */
			q = d / D;
			t = d % D;
			if ((t * r) % D == 0)
				sqlite3_result_int64(ctx, statAddU(lo, q * r + t * r / D));
			else
				sqlite3_result_double(ctx, (double)statAddU(lo, q * r + t * r / D) +
							   (double)((t * r) % D) / (double)D);
		} else {
			double rOff = (double)d * rFrac, rWhole = floor(rOff);
			if (rWhole < (double)d)
				sqlite3_result_double(ctx, (double)statAddU(lo, (sqlite3_uint64)rWhole) +
							   (rOff - rWhole));
			else
				sqlite3_result_double(ctx, (double)lo + rOff);
		}
	} else {
		double lo = statKth(p, k)->r, hi, d;

		if (rFrac == 0.0 || (hi = statKth(p, k + 1)->r) == lo) {
			sqlite3_result_double(ctx, lo);
			return;
		}
		if (isinf(lo) && isinf(hi)) { /* -Inf and +Inf: Requirement 8 */
			sqlite3_result_null(ctx);
			return;
		}
		if (isinf(lo) || isinf(hi)) {
			sqlite3_result_double(ctx, isinf(lo) ? lo : hi);
			return;
		}
		d = hi - lo;
		if (isinf(d)) /* finite values more than DBL_MAX apart */
			sqlite3_result_double(ctx, lo * (1.0 - rFrac) + hi * rFrac);
		else
			sqlite3_result_double(ctx, lo + d * rFrac);
	}
}

/* Sample variance of the values (n >= 2), as scale^2 * *pVar, so stddev = scale * sqrt(*pVar)
 * does not overflow when the variance does. Returns 0 if some value is infinite. */
static int statVariance(const Stat *p, double *pVar, int *pExp)
{
	sqlite3_int64 n = p->nUsed, j;
	sqlite3_int64 iPivot = p->bReal ? 0 : p->a[0].i;
	double rMax = 0.0, rScale, rSum = 0.0, rComp = 0.0, rMean, rSS = 0.0, rC = 0.0;
	int e = 0;

/* Value j relative to the pivot (integers: exact difference, rounded once). */
#define STAT_DEV(j) (p->bReal ? p->a[j].r : \
	(p->a[j].i >= iPivot ? (double)((sqlite3_uint64)p->a[j].i - (sqlite3_uint64)iPivot) \
			     : -(double)((sqlite3_uint64)iPivot - (sqlite3_uint64)p->a[j].i)))

	for (j = 0; j < n; j++) {
		double r = fabs(STAT_DEV(j));
		if (isinf(r))
			return 0;
		if (r > rMax)
			rMax = r;
	}
	if (rMax == 0.0) {
		*pVar = 0.0;
		*pExp = 0;
		return 1;
	}
	(void)frexp(rMax, &e);
	if (e < -1000)
		e = -1000; /* subnormal values: 2^1000 still leaves their squares representable */
	rScale = ldexp(1.0, -e); /* a power of two: scaling is exact */
	/* Pass 1: the mean, with Neumaier's compensated sum (|scaled values| < 1). */
	for (j = 0; j < n; j++) {
		double x = STAT_DEV(j) * rScale, t = rSum + x;
		if (fabs(rSum) >= fabs(x))
			rComp += (rSum - t) + x;
		else
			rComp += (x - t) + rSum;
		rSum = t;
	}
	rMean = (rSum + rComp) / (double)n;
	/* Pass 2: squared deviations, corrected by the residual sum of deviations. */
	for (j = 0; j < n; j++) {
		double dev = STAT_DEV(j) * rScale - rMean;
		rSS += dev * dev;
		rC += dev;
	}
#undef STAT_DEV
	*pVar = (rSS - rC * rC / (double)n) / (double)(n - 1);
	if (*pVar < 0.0)
		*pVar = 0.0;
	*pExp = e;
	return 1;
}

/* Shared by xValue (bFinal 0: keep the state) and xFinal (bFinal 1: free it). */
static void statCompute(sqlite3_context *ctx, int bFinal)
{
	const StatFunc *pFunc = sqlite3_user_data(ctx);
	Stat *p = sqlite3_aggregate_context(ctx, 0);

	if (p == NULL)
		return; /* no rows: NULL (Requirement 2) */
	if (p->nUsed == 0) {
		sqlite3_result_null(ctx);
	} else if (pFunc->eKind == STAT_PERCENTILE) {
		if (statSort(p) != SQLITE_OK)
			sqlite3_result_error_nomem(ctx);
		else
			statPercentile(ctx, p, pFunc->nArg == 2 ? p->rPct : pFunc->rPct);
	} else if (p->nUsed < 2) {
		sqlite3_result_null(ctx); /* Requirement 7 */
	} else {
		double rVar;
		int e;
		if (!statVariance(p, &rVar, &e))
			sqlite3_result_null(ctx);
		else if (pFunc->eKind == STAT_STDDEV)
			sqlite3_result_double(ctx, ldexp(sqrt(rVar), e));
		else
			sqlite3_result_double(ctx, ldexp(rVar, 2 * e));
	}
	if (bFinal)
		statFree(p);
}

static void statValue(sqlite3_context *ctx)
{
	statCompute(ctx, 0);
}

static void statFinal(sqlite3_context *ctx)
{
	statCompute(ctx, 1);
}

int pq_ext_stats_init(sqlite3 *db)
{
	int rc = SQLITE_OK;
	size_t j;

	for (j = 0; rc == SQLITE_OK && j < sizeof(aStatFunc) / sizeof(aStatFunc[0]); j++)
		rc = sqlite3_create_window_function(db, aStatFunc[j].zName, aStatFunc[j].nArg,
						    PQ_FUNC_FLAGS, &aStatFunc[j], statStep,
						    statFinal, statValue, statInverse, NULL);
	return rc;
}
