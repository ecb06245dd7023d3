/* derive_ops.h - shared by derive_ops.c (tb_op_sums: the tree and the sums) and derive_op_nodes.c
 * (its input: v_tb_op_nodes, computed in C). */
#ifndef PQ_DERIVE_OPS_H
#define PQ_DERIVE_OPS_H

#include "derive.h"

/* A node of tb_plugin's operator tree: a v_tb_op_nodes row, then what derive_ops.c computes. */
typedef struct {
	sqlite3_int64 run, id, thread, start, end, name;
	int has_thread, kind, listed, step, tcl;
	double rt, dev, tc, k;
	/* computed */
	int parent, nkids, only, absorbed, src;
	double kids_dur, sum_dev, sum_tc, sum_tcl, sum_se;
	int se;
} onode;

/* The v_tb_op_nodes rows of the runs the query runs selects, whose host ranges are h[0..nh),
 * in no order (*out malloc'd, the computed fields zero): 0, or -1 with err set. */
int pq_op_nodes_load(sqlite3 *db, const char *runs, const pq_host_range *h, size_t nh,
		     onode **out, size_t *n, pq_error *err);

#endif
