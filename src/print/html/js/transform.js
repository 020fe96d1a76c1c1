/* Transforms: focus, ignore, hide, merge, fold recursion (doc/DESIGN.md) */

/*
 * A transform rewrites the call stacks, outermost frame first, and
 * every view is drawn from what is left. The stacks are the flame
 * graph's tree ("cga-flame": a node per call path, its value the cost
 * of every stack through it): a node's self (its value less its
 * children's) is the cost of the stacks ending there. Exact where the
 * profile holds stacks (IgProf, perf.data); estimated from the call
 * arcs for Callgrind and gmon.out, as the flame graph is.
 *
 * The transforms in force are parameters of the hash after the place,
 * in order (with any other parameter of the page's, as &order=):
 *   #flame&focus=main&ignore=std%3A%3Asort*&merge=main/run/step
 * focus, ignore, hide and fold take a glob of function names as -p's
 * name rule (match.js: fnNameMatches()); "fold=*" folds every
 * function's recursion; obj and file a glob of object or source paths;
 * merge the names of one call path (each URI-encoded), its last node
 * merged into its caller. route() reads them (xformSet()); every view
 * asks flameTree() for the transformed tree and fnSelf()/fnIncl() for
 * a function's costs in it.
 */
const XF_OPS = {
	focus: 'focus on', ignore: 'ignore', hide: 'hide', merge: 'merge',
	fold: 'fold recursion of', obj: 'focus on object', file: 'focus on file',
};
let xforms = [];	/* [{ op, arg }] in the hash's order */
let xformKey = '';	/* their text in the hash: what the caches are of */

/* the parameters of the transforms in force, or of list */
function xformParams(list = xforms) {
	return list.map(x => [x.op, x.op === 'merge'
		? x.arg.map(encodeURIComponent).join('/')
		: encodeURIComponent(x.arg)]);
}
/* a place in the page ("#fn/3") with the transforms in force: the
 * page's links keep them (el() in dom.js adds them to a "#..." href) */
function withXforms(hash) {
	const { place, params } = hashParts(hash);

	if (!xforms.length || params.some(([k]) => XF_OPS[k]))
		return hash;
	return hashJoin(place, params.concat(xformParams()));
}
/* The transforms of the hash's parameters (the others are other
 * code's); one whose glob cannot be read (a malformed %-escape, none)
 * is left out, as the breadcrumbs say. */
let xformDropped = [];
function xformSet(params) {
	const mine = params.filter(([k]) => XF_OPS[k]);
	const key = mine.map(([k, v]) => k + '=' + v).join('&');

	if (key === xformKey)
		return;
	xformKey = key;
	xforms = [];
	xformDropped = [];
	for (const [op, v] of mine) {
		let arg;

		try {
			arg = op === 'merge' ? v.split('/').map(decodeURIComponent)
				: decodeURIComponent(v);
		} catch (e) {
			arg = null;	/* a malformed %-escape */
		}
		if (arg !== null && arg !== '')
			xforms.push({ op, arg });
		else
			xformDropped.push(op + '=' + v);
	}
	fnCycles = foldedCycles(xforms);
}
/* The hash of the place shown with list as the transforms: a node of
 * the flame graph is a node of the tree before, so it is left */
function xformPlace(list) {
	const { place, params } = hashParts(location.hash || '#top');
	const zoomed = /^(flame|icicle)\//.test(place);

	return hashJoin(zoomed ? place.split('/')[0] : place || 'top',
		params.filter(([k]) => !XF_OPS[k]).concat(xformParams(list)));
}
function xformGo(list) {
	location.hash = xformPlace(list);
}
function xformAdd(op, arg) {
	xformGo(xforms.concat([{ op, arg }]));
}

/* A name as a glob that matches it alone: * ? [ \ quoted */
function globQuote(s) {
	return s.replace(/[*?[\\]/g, '\\$&');
}
/* the name a tree's unit goes by in a merge path: the profile's
 * name of a function, "<cycle N as a whole>" of a cycle */
function unitName(u) {
	if (u === NF)	/* the functions a cut page left out (cut.js) */
		return cutOtherName();
	return u < 0 ? cycleName(-u) : FN.name[u] || '???';
}

/* The texts a glob's match holds: its runs between * and ?, quotes
 * undone; null for a glob with a [set] */
function globTexts(p) {
	const texts = [];
	let cur = '';

	for (let i = 0; i < p.length; i++) {
		const c = p[i];

		if (c === '\\' && i + 1 < p.length) {
			cur += p[++i];
		} else if (c === '*' || c === '?') {
			if (cur)
				texts.push(cur);
			cur = '';
		} else if (c === '[') {
			return null;
		} else {
			cur += c;
		}
	}
	if (cur)
		texts.push(cur);
	return texts;
}
/* Which units (function ids) a transform's glob selects, made once per
 * glob: a Uint8Array by function id */
const xformSelCache = new Map();
function xformSel(op, arg) {
	const key = op + '\0' + arg;

	if (xformSelCache.has(key))
		return xformSelCache.get(key);
	const sel = new Uint8Array(NF);
	const re = globRegExp(arg);

	if (op === 'obj' || op === 'file') {
		const col = op === 'obj' ? FN.object : FN.file;
		const hit = D.paths.map(s => pathMatches(arg, re, s));

		for (let f = 0; f < NF; f++)
			sel[f] = col[f] >= 0 && hit[col[f]];
	} else if (arg === '*') {
		sel.fill(1);
	} else {
		/* every form the name rule tries is a part of the name (or
		 * of it without valgrind's "'2"), so a name that lacks a text
		 * of the glob cannot match. Parsing 11,000 C++ names into
		 * their parts is most of the time a transform takes; a look
		 * for the texts skips nearly all. */
		const texts = globTexts(arg);
		const all = s => texts.every(t => s.includes(t));
		const holds = s => typeof s === 'string' && (all(s) ||
			(s.includes("'") && all(foldRecursion(s))));

		for (let f = 0; f < NF; f++)
			sel[f] = (!texts || holds(FN.name[f]) ||
				holds(D.demangled[f])) && fnNameMatches(arg, re, f);
	}
	xformSelCache.set(key, sel);
	return sel;
}

/* Whether two units are one function: the same, or valgrind's levels
 * of one recursion ("fib" and "fib'2" of one file and object, which the
 * name rule takes for one; --fold-recursion folds them so), not two
 * static functions of one name */
let foldedIds = null;
function sameFunction(a, b) {
	if (a === b)
		return true;
	if (a < 0 || b < 0)
		return false;
	const ids = levelIds();

	return ids[a] === ids[b];
}

/* Each function's one of the same name without valgrind's recursion
 * level, file and object: the one of no level (fib for fib'2, whichever
 * the profile met first), else the first; the folded trees' unit
 * (html_folded.c) */
function levelIds() {
	if (!foldedIds) {
		const first = new Map();

		foldedIds = new Int32Array(NF);
		for (let f = 0; f < NF; f++) {
			const n = FN.name[f] || '';
			const bare = n.includes("'") ? foldRecursion(n) : n;
			const k = bare + '\0' + FN.file[f] + '\0' + FN.object[f];

			if (!first.has(k) || (bare === n &&
			    FN.name[first.get(k)] !== bare))
				first.set(k, f);
		}
		for (let f = 0; f < NF; f++) {
			const n = FN.name[f] || '';

			foldedIds[f] = first.get((n.includes("'")
				? foldRecursion(n) : n) + '\0' + FN.file[f] +
				'\0' + FN.object[f]);
		}
	}
	return foldedIds;
}

/* Folds alone on a tree estimated from arcs without recursion levels
 * (gmon.out, a report made with --fold-recursion): the estimated paths
 * never repeat a function, and the command line leaves every figure as
 * read (analyze.c only_folds()), so the functions' are the profile's,
 * not the tree's estimate (Top showed msort 66,571.79 for 66,568) */
function foldsNothing() {
	const base = flameBase();

	return !!base && base.estimated && xforms.every(x => x.op === 'fold') &&
		!foldsLevels(xforms, base);
}

/* Whether a fold among xforms folds valgrind's recursion levels of an
 * estimated tree: it folds the paths of the levels' estimate apart,
 * where --fold-recursion folds the levels as it reads, before it
 * estimates (their cycles can differ: doc/REFERENCE.md) */
function foldsLevels(xforms, base) {
	if (!base.estimated)
		return false;
	const ids = levelIds();

	return xforms.some(x => {
		if (x.op !== 'fold')
			return false;
		const sel = x.arg === '*' ? null : xformSel(x.op, x.arg);

		for (let f = 0; f < NF; f++)
			if (ids[f] !== f && (!sel || sel[f] === 1))
				return true;
		return false;
	});
}

/*
 * A tree being built: nodes made on first asking for (parent, unit),
 * parents before their children, each with the self cost given it.
 * Units are function ids and, for a cycle of an estimated tree, minus
 * its number: the key spans both.
 */
function treeBuilder(span, low) {
	const unit = [], parent = [], self = [];
	const index = new Map();

	return {
		unit, parent, self,
		child(p, u) {
			const key = (p + 1) * span + u - low;
			let i = index.get(key);

			if (i === undefined) {
				i = unit.length;
				index.set(key, i);
				unit.push(u);
				parent.push(p);
				self.push(0);
			}
			return i;
		},
	};
}

/* The self column of a tree of values: a node's value less its
 * children's (an estimate's rounding can leave a hair below 0, which
 * would print as "-0.00": none is), and less the frames the report
 * merged under it (cut.js), as --tree prints a node's self; with
 * merged, their cost left in the parent's self: what the transforms
 * start from, so that their totals stay the profile's. */
function treeSelf(T, merged) {
	const key = merged ? 'selfMerged' : 'self';

	if (!T[key]) {
		const s = Float64Array.from(T.value);

		T.parent.forEach((p, i) => {
			if (p >= 0)
				s[p] -= T.value[i];
		});
		if (!merged && T.more_parent)
			for (const [p, m] of flameMore(T))
				if (p >= 0)
					s[p] -= m[1];
		T[key] = s.map(v => Math.max(0, v));
	}
	return T[key];
}

/*
 * One transform of a tree {unit, parent, self} (parents before their
 * children) into a new one. Each node's stacks go where its parent's
 * went (out[]), so one pass in node order does it: DROP, the stacks
 * are gone; ROOT, no frame of them is kept yet.
 */
const ROOT = -1, DROP = -2;
function xformStep(T, x, span, low) {
	const n = T.unit.length;
	const B = treeBuilder(span, low);
	const out = new Int32Array(n);
	const sel = x.op === 'merge' ? null : xformSel(x.op, x.arg);
	const all = x.op === 'fold' && x.arg === '*';
	/* hide and merge: the outermost frame of stacks hidden whole */
	const first = x.op === 'hide' || x.op === 'merge' ? new Int32Array(n) : null;
	/* merge: how much of the path the path to a node follows; -1 off it */
	const along = x.op === 'merge' ? new Int32Array(n) : null;
	const path = x.op === 'merge' ? x.arg : null;

	for (let i = 0; i < n; i++) {
		const u = T.unit[i], p = T.parent[i];
		const po = p < 0 ? ROOT : out[p];
		const hit = u >= 0 && sel !== null && sel[u] === 1;
		let o;

		switch (x.op) {
		case 'focus':
		case 'obj':
		case 'file':
			/* cut at the outermost matching frame: DROP until
			 * one, which is a root */
			o = po >= 0 ? B.child(po, u) : hit ? B.child(ROOT, u) : DROP;
			break;
		case 'ignore':
			o = po === DROP || hit ? DROP : B.child(po, u);
			break;
		case 'fold':
			o = po >= 0 && (all || hit) && sameFunction(B.unit[po], u)
				? po : B.child(po, u);
			break;
		case 'hide':
		case 'merge': {
			let hidden = hit;

			if (along) {
				const k = p < 0 ? 0 : along[p];

				along[i] = k >= 0 && k < path.length &&
					unitName(u) === path[k] ? k + 1 : -1;
				hidden = along[i] === path.length;
			}
			if (hidden) {
				o = po;
				first[i] = po === ROOT && p >= 0 ? first[p] : u;
			} else {
				o = B.child(po, u);
			}
			break;
		}
		default:
			o = B.child(po, u);
		}
		out[i] = o;
		if (o >= 0)
			B.self[o] += T.self[i];
		else if (o === ROOT)	/* every frame hidden: the outermost stays */
			B.self[B.child(ROOT, first[i])] += T.self[i];
	}
	return B;
}

/* The tree as the views read it: values, children, roots, total. */
function treeFinish(base, B) {
	const n = B.unit.length;
	const value = Float64Array.from(B.self);
	/* (unit: an array, or a cut page's Int32Array: cut.js) */
	const kids = Array.from({ length: n }, () => []);
	const roots = [];
	let tot = 0;

	for (let i = n - 1; i >= 0; i--)
		if (B.parent[i] >= 0)
			value[B.parent[i]] += value[i];
	for (let i = 0; i < n; i++) {
		if (B.parent[i] < 0) {
			roots.push(i);
			tot += value[i];
		} else {
			kids[B.parent[i]].push(i);
		}
	}
	return { event: base.event, estimated: base.estimated, cut: base.cut,
		full: base.full, total: tot, unit: B.unit, parent: B.parent,
		value, self: B.self, kids, roots, transformed: true };
}

/* The tree shown, with a cut page's merged paths (cut.js) where no
 * transform or choice of threads and time is in force (which start
 * from them): what a view summing a function's frames (the sandwich,
 * the flame graph's search) needs for its figures to be the
 * function's. Not transformed: its costs are the profile's. */
function flameWhole() {
	const base = flameBase();
	const whole = base && !xforms.length ? cutWhole(base) : null;

	if (!whole)
		return flameTree();
	if (!base.wholeTree) {
		base.wholeTree = treeFinish(base, whole);
		base.wholeTree.transformed = false;
	}
	return base.wholeTree;
}

/* The transformed tree of base, for the transforms in force, made once
 * per tree and transforms; how long it took in body's data-xform-ms
 * (the tests print it). */
const xformTrees = new Map();
function xformTree(base) {
	if (!base || !xforms.length)
		return base;
	let byKey = xformTrees.get(base);

	if (!byKey)
		xformTrees.set(base, byKey = new Map());
	if (byKey.has(xformKey))
		return byKey.get(xformKey);
	const t = performance.now();
	/* on a cut page, the tree with the paths it merged (cut.js), so
	 * that a function's figures hold them: their cost no longer
	 * stays with the frame they were merged under */
	const whole = cutWhole(base);
	/* every level folded: the folded profile's tree (fold.js) */
	const F = foldedBase(base);
	let low = 0;

	for (const u of (F || whole || base).unit)
		if (u < low)
			low = u;
	for (const u of F ? base.unit : [])
		if (u < low)
			low = u;
	/* units up to NF: the functions a cut page leaves out, CUT_OTHER */
	const span = NF - low + 2;
	/* the threads and time chosen first (samples.js), as the
	 * command line's --tid and --time choose the samples read */
	let T = sliceTree(base);
	const folds = xforms.every(x => x.op === 'fold');

	if (!T && F) {
		T = foldedStacks(F, folds);
	} else if (!T) {
		/* folds alone leave an estimate as it is: the command
		 * line folds recursion in the reader, before it estimates
		 * (analyze.c only_folds()); a fold of some functions'
		 * levels only (no command line's) stands on the stacks in
		 * whole units, as other transforms, not on the estimate's
		 * sums (Top gave leaf's self 219,635 as "219,635.00") */
		if (base.estimated && (!folds || foldsLevels(xforms, base)))
			T = whole ? cutStacks(whole, EV.indexOf(base.event),
				pinFunction(xforms))
				: exactStacks(base, EV.indexOf(base.event),
					pinFunction(xforms));
		else
			T = whole ? { unit: whole.unit, parent: whole.parent,
				self: whole.self } : { unit: base.unit,
				parent: base.parent, self: treeSelf(base, true) };
	}

	for (const x of xforms)
		if (!SLICE_OPS[x.op])
			T = xformStep(T, x, span, low);
	T = treeFinish(base, T);
	T.fn = treeFunctions(T);
	/* a Callgrind part's measured inclusive costs (samples.js) */
	T.fn.incl = sliceIncl(base) || T.fn.incl;
	if (F && folds)
		T.fn = foldedFunctions(F, T.fn);
	byKey.set(xformKey, T);
	document.body.dataset.xformMs = (performance.now() - t).toFixed(1);
	return T;
}

/*
 * Each function's self and inclusive cost in a tree: self, the stacks
 * ending in it; inclusive, the stacks holding it, once however often
 * (a node counts when no caller above it is the same function).
 */
function treeFunctions(T) {
	/* and CUT_OTHER's (cut.js), at NF */
	const self = new Float64Array(NF + 1), incl = new Float64Array(NF + 1);
	const outer = treeOutermost(T);

	for (let i = 0; i < T.unit.length; i++) {
		const u = T.unit[i];

		if (u >= 0) {
			self[u] += T.self[i];
			if (outer[i])
				incl[u] += T.value[i];
		}
	}
	return { self, incl };
}
/* 1 for each node with no caller above it of its function: the nodes
 * whose values are inclusive costs. Of the tree's shape alone, so made
 * once per shape (the threads and time chosen change values only:
 * samples.js) */
const outerCache = new WeakMap();
function treeOutermost(T) {
	let outer = outerCache.get(T.unit);

	if (outer)
		return outer;
	const onPath = new Int32Array(NF + 1);

	outer = new Uint8Array(T.unit.length);
	treeWalk(T, (i, enter) => {
		const u = T.unit[i];

		if (u < 0)
			return;
		if (enter && !onPath[u]++)
			outer[i] = 1;
		else if (!enter)
			onPath[u]--;
	});
	outerCache.set(T.unit, outer);
	return outer;
}
/* Depth first through T without recursion (a stack can be 100,000
 * frames deep): visit(i, true) on entering node i, (i, false) on
 * leaving it */
function treeWalk(T, visit) {
	const stack = T.roots.slice().reverse();

	while (stack.length) {
		const e = stack.pop();

		if (e < 0) {	/* ~i: i's subtree is done */
			visit(~e, false);
			continue;
		}
		visit(e, true);
		stack.push(~e);
		for (let c = T.kids[e].length - 1; c >= 0; c--)
			stack.push(T.kids[e][c]);
	}
}

/* The per-function costs under the transforms, or null for none;
 * asked for once per row and comparison of a sort: kept at hand */
let xformFnKey = null, xformFn = null;
function xformFunctions() {
	if (!xforms.length)
		return null;
	if (xformFnKey !== ev + '|' + xformKey) {
		const T = foldsNothing() ? null : flameTree();

		xformFn = T ? T.fn : null;
		xformFnKey = ev + '|' + xformKey;
	}
	return xformFn;
}
/* Whether f has a cost in the view: not ignored, not focused away */
function inView(f) {
	const X = xformFunctions();

	return !X || X.incl[f] > 0 || X.self[f] > 0;
}

/*
 * The cost of f's callers and callees in the tree shown: an arc A->B
 * the stacks in which A calls B directly, each counted once (a node
 * counts when no caller above it makes the same call). { callers,
 * callees }: Maps of unit to cost; the callers' null is the stacks
 * that start at f.
 */
function treeArcs(T, f) {
	const callers = new Map(), callees = new Map();
	const onIn = new Map(), onOut = new Map();
	const bump = (m, k, d) => m.set(k, (m.get(k) || 0) + d);

	/* an arc into or out of f: counted on entering its first node */
	const arc = (on, sum, k, i, enter) => {
		if (enter && !on.get(k))
			bump(sum, k, T.value[i]);
		bump(on, k, enter ? 1 : -1);
	};

	treeWalk(T, (i, enter) => {
		const p = T.parent[i], u = T.unit[i];
		const pu = p < 0 ? null : T.unit[p];

		if (u === f)
			arc(onIn, callers, pu, i, enter);
		if (pu === f)
			arc(onOut, callees, u, i, enter);
	});
	return { callers, callees };
}
