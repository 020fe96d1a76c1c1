/*
 * A perf recording's stacks (p->perf) charged into the profile, the
 * last step of resolve_perf.c: a sample's period is the leaf's self
 * cost, and counts once for every distinct function and every distinct
 * caller -> callee arc of its stack, as stack_charge.h charges a stack.
 * The functions come from the caller, frame by frame (chain), and are
 * made in the order of the stacks' walk, node after node, each up to
 * its root, so that every listing is what that walk made. Where a frame
 * is one function the stacks are charged as a tree
 * (stack_charge_tree()), in work of its nodes; with --inlined=callee
 * (chains) stack by stack.
 *
 *	struct perf_charge pc = { .p, .d, .event_of, .chain, .ctx, ... };
 *	perf_charge_prepare(&pc);	needs no function: may come first
 *	  or perf_charge_prepare_beside(&pc) on a second thread, with
 *	  perf_charge_beside(&pc, job, ctx) after it there
 *	perf_charge_run(&pc);		functions, arcs and their costs
 *	perf_charge_keep_stacks(&pc);	the flame graphs' stacks, if wanted
 *	perf_charge_release(&pc);
 */
#ifndef CGA_PERF_CHARGE_H
#define CGA_PERF_CHARGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/perf_data.h"
#include "profile/profile.h"
#include "profile/stack_charge.h"

struct perf_charge {
	struct profile *p;	/* its events final */
	struct perf_data *d;
	const uint32_t *event_of;	/* perf event -> p's (NO_ID: none) */
	bool chains;		/* a frame may be several functions */
	bool positions;		/* position() called for each leaf */
	/* the functions of frame f, outermost first, and how many (at
	 * least 1; ret: f is a return address), in *funcs, good until the
	 * next call */
	size_t (*chain)(void *ctx, uint32_t f, bool ret,
			const uint32_t **funcs);
	/* the stack's cost at the leaf's own address (frame) */
	void (*position)(void *ctx, uint32_t frame, uint32_t func,
			 const uint64_t *cost);
	void *ctx;
	/* without chains, or NULL: per frame (exact, return address) the
	 * function chain() gave it, NO_ID until then (a memo of the
	 * caller's, read before chain() is called) */
	const uint32_t *func_exact, *func_ret;
	/* made by perf_charge_prepare(): the tree in the walk's order
	 * (stack_tree_order()), its per-node ids (function, arc, leaf,
	 * parent), the leaves' ids and rows; per perf node, whether stacks
	 * end there and its place in the tree */
	struct stack_tree t;
	uint32_t *ids, *leaf_ids, *pos;
	uint64_t *rows;
	uint8_t *ends;
	/* their sizes in bytes (xcalloc_table(): memory freed by the read,
	 * the reading ahead's, is taken again) */
	size_t ids_size, leaf_ids_size, pos_size, rows_size;
	struct perf_charge_thread *thread;	/* the second thread, or NULL */
};

/* What the charging needs of the recording alone (no symbol table,
 * no function): nothing with chains. */
void perf_charge_prepare(struct perf_charge *pc);

/*
 * perf_charge_prepare() on a second thread, which then runs the job
 * perf_charge_beside() gives it, if any: the main thread meanwhile
 * reads the fields that the preparation does not write (p, d, event_of
 * and what they point to stay as they are until the thread is joined).
 * Without a thread (none could start) the preparation is done here.
 * perf_charge_run() and perf_charge_release() join the thread.
 */
void perf_charge_prepare_beside(struct perf_charge *pc);

/*
 * job(ctx) on the second thread after the preparation; nothing without
 * one (the job must be work the main thread would otherwise do itself
 * when it comes to it). Called once at most.
 */
void perf_charge_beside(struct perf_charge *pc, void (*job)(void *ctx),
			void *ctx);

/* Waits for the second thread's work, if any; then it is gone. */
void perf_charge_join(struct perf_charge *pc);

void perf_charge_run(struct perf_charge *pc);
/* A profile stack per perf node (parents come first in both), its
 * function named as the charging names it, with the periods of the
 * samples that end there as its own values; d->node_stack maps nodes
 * to them (the report's threads and timeline). */
void perf_charge_keep_stacks(struct perf_charge *pc);
void perf_charge_release(struct perf_charge *pc);

#endif
