/*
 * The transforms of stack_transform.h on a profile's tree of stacks,
 * and the profile's costs made again from the tree they leave.
 *
 * Each transform maps the tree to a new one, node by node, parents
 * first (a stack's caller comes before it in both): a node's image is
 * a node of the new tree, or "dropped", or "pending" (focus: no match
 * yet on the way from the root; hide: every frame so far hidden). A
 * stack's values go to its node's image; those of a dropped node, and
 * of a node still pending under focus, are gone; those of a node whose
 * frames are all hidden go to a root of its outermost function.
 *
 *   focus=f    main > g > f > h   ->   f > h
 *   ignore=g   main > g > f > h   ->   (gone)
 *   hide=g     main > g > f > h   ->   main > f > h
 *   fold       main > f > f > h   ->   main > f > h
 *
 * Then the costs are made again from the tree (stack_recount.h).
 */
#include "stack_transform.h"

#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "name_match.h"
#include "profile/stack_recount.h"

#define DROPPED NO_ID
#define PENDING (NO_ID - 1)

const char *transform_name(enum transform_kind kind)
{
	switch (kind) {
	case TRANSFORM_FOCUS:
		return "focus";
	case TRANSFORM_IGNORE:
		return "ignore";
	case TRANSFORM_HIDE:
		return "hide";
	case TRANSFORM_FOLD:
		return "fold-recursion";
	default:
		BUG("transform kind %d", (int)kind);
	}
}

/* A tree of stacks being made: nodes found by (caller, function). */
struct tree {
	struct pstack *nodes;
	size_t n, alloc;
	struct u64map index;
};

static uint32_t tree_node(struct tree *t, uint32_t caller, uint32_t func)
{
	/* NO_ID + 1 wraps to 0: the roots' key */
	uint64_t key = (uint64_t)(uint32_t)(caller + 1u) << 32 | func;
	bool added;
	uint32_t id = u64map_get_or_put(&t->index, key, (uint32_t)t->n, &added);

	if (!added)
		return id;
	if (t->n >= PENDING)
		BUG("too many stacks");
	ARRAY_GROW(t->nodes, t->n + 1, t->alloc);
	t->nodes[t->n].func = func;
	t->nodes[t->n].caller = caller;
	t->n++;
	return id;
}

/*
 * Does pattern name function f? The name rule of -p (name_match.h);
 * "obj:GLOB" and "file:GLOB" name the functions of an object or a
 * source file, by its whole path or its last component.
 */
static bool path_matches(const char *pattern, const char *path)
{
	const char *base = strrchr(path, '/');

	return *path && (!fnmatch(pattern, path, 0) ||
			 (base && !fnmatch(pattern, base + 1, 0)));
}

static bool func_matches(const struct profile *p, uint32_t f,
			 const char *pattern)
{
	const struct pfunc *fn = &p->funcs[f];

	if (!strncmp(pattern, "obj:", 4))
		return path_matches(pattern + 4, profile_str(p, fn->object));
	if (!strncmp(pattern, "file:", 5))
		return path_matches(pattern + 5, profile_str(p, fn->file));
	return symspec_name_matches(pattern, profile_str(p, fn->name));
}

/* Per function: does pattern name it? NULL (said) when none. */
static bool *match_funcs(const struct profile *p, const struct transform *t)
{
	bool *m = xcalloc(p->nfuncs + 1, sizeof(*m));
	bool any = false;

	for (uint32_t f = 0; f < p->nfuncs; f++)
		any |= m[f] = func_matches(p, f, t->glob);
	if (!any) {
		warning("--%s=%s names no function of the profile",
			transform_name(t->kind), t->glob);
		free(m);
		return NULL;
	}
	return m;
}

/*
 * One transform: img[s] for every node s of the old tree (`old`, n
 * nodes), top[s] the outermost function of a pending hide.
 */
static void map_nodes(struct tree *out, const struct pstack *old, size_t n,
		      enum transform_kind kind, const bool *match,
		      uint32_t *img, uint32_t *top)
{
	for (size_t s = 0; s < n; s++) {
		uint32_t f = old[s].func;
		uint32_t up = old[s].caller == NO_ID ? PENDING : img[old[s].caller];
		bool m = match && match[f];
		bool placed = up != PENDING && up != DROPPED;

		switch (kind) {
		case TRANSFORM_FOCUS:
			/* a stack starts at its outermost match */
			img[s] = placed ? tree_node(out, up, f)
				 : up == DROPPED ? DROPPED
				 : m ? tree_node(out, NO_ID, f) : PENDING;
			break;
		case TRANSFORM_IGNORE:
			img[s] = up == DROPPED || m ? DROPPED
				 : tree_node(out, placed ? up : NO_ID, f);
			break;
		case TRANSFORM_HIDE:
			if (!m) {
				img[s] = tree_node(out, placed ? up : NO_ID, f);
			} else if (placed) {
				img[s] = up;	/* charged to the caller */
			} else {
				img[s] = PENDING;
				top[s] = old[s].caller == NO_ID ? f
					 : top[old[s].caller];
			}
			break;
		case TRANSFORM_FOLD:
			img[s] = placed && out->nodes[up].func == f
					 ? up
					 : tree_node(out, placed ? up : NO_ID, f);
			break;
		default:
			BUG("transform kind %d", (int)kind);
		}
	}
}

/* Estimated stacks' calls (profile.stack_calls) to the new tree: a
 * frame that became its caller (hidden, folded) takes no calls. */
static void move_calls(struct profile *p, const uint32_t *img, size_t n)
{
	double *calls = xcalloc(n + 1, sizeof(*calls));

	for (size_t s = 0; s < p->nstacks; s++) {
		uint32_t up = p->stacks[s].caller;
		uint32_t to = img[s];

		if (to == PENDING || to == DROPPED ||
		    (up != NO_ID && img[up] == to))
			continue;
		calls[to] += p->stack_calls[s];
	}
	free(p->stack_calls);
	p->stack_calls = calls;
}

/* Apply one transform to p's stacks and stack values. */
static void transform_one(struct profile *p, const struct transform *t)
{
	bool *match = t->kind == TRANSFORM_FOLD ? NULL : match_funcs(p, t);
	uint32_t *img, *top;
	struct tree out = { 0 };
	size_t kept = 0;

	if (t->kind != TRANSFORM_FOLD && !match) {
		/* names nothing: focus keeps nothing, the others change
		 * nothing */
		if (t->kind == TRANSFORM_FOCUS)
			p->nstack_values = p->nleaks = 0;
		return;
	}
	img = xcalloc(p->nstacks + 1, sizeof(*img));
	top = xcalloc(p->nstacks + 1, sizeof(*top));
	u64map_init(&out.index);
	map_nodes(&out, p->stacks, p->nstacks, t->kind, match, img, top);
	for (size_t i = 0; i < p->nstack_values; i++) {
		struct pstack_value v = p->stack_values[i];
		uint32_t to = img[v.stack];

		if (to == PENDING && t->kind == TRANSFORM_HIDE)
			to = tree_node(&out, NO_ID, top[v.stack]);
		if (to == PENDING || to == DROPPED)
			continue;
		v.stack = to;
		p->stack_values[kept++] = v;
	}
	p->nstack_values = kept;
	/* a leak was allocated in a stack: it goes where the stack goes */
	kept = 0;
	for (size_t i = 0; i < p->nleaks; i++) {
		struct pleak lk = p->leaks[i];
		uint32_t to = img[lk.stack];

		if (to == PENDING && t->kind == TRANSFORM_HIDE)
			to = tree_node(&out, NO_ID, top[lk.stack]);
		if (to == PENDING || to == DROPPED)
			continue;
		lk.stack = to;
		p->leaks[kept++] = lk;
	}
	p->nleaks = kept;
	if (p->stack_calls)
		move_calls(p, img, out.n);
	free(p->stacks);
	p->stacks = out.nodes;
	p->nstacks = out.n;
	p->stacks_alloc = out.alloc;
	u64map_release(&out.index);
	free(img);
	free(top);
	free(match);
}

int stack_transform(struct profile *p, const struct transform *t, size_t n)
{
	if (!p->nstacks)
		return error("the profile has no stacks to transform");
	for (size_t i = 0; i < n; i++)
		transform_one(p, &t[i]);
	profile_recount_stacks(p, false);
	return 0;
}

uint64_t stack_matched_cost(const struct profile *p, const char *pattern,
			    uint32_t ev)
{
	bool *in = xcalloc(p->nstacks + 1, sizeof(*in));
	uint64_t sum = 0;

	/* a stack holds a match when it or its caller's does */
	for (size_t s = 0; s < p->nstacks; s++)
		in[s] = func_matches(p, p->stacks[s].func, pattern) ||
			(p->stacks[s].caller != NO_ID && in[p->stacks[s].caller]);
	for (size_t i = 0; i < p->nstack_values; i++)
		if (p->stack_values[i].event == ev && in[p->stack_values[i].stack])
			sum += p->stack_values[i].value;
	free(in);
	return sum;
}
