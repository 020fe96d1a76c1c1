/* The page's fold of valgrind's recursion levels as --fold-recursion's */

/*
 * --fold-recursion folds fib'2 into fib as it reads a Callgrind
 * profile, so that its tree is estimated from the folded arcs and their
 * cycles; folding the paths estimated with the levels apart differs
 * wherever the levels make cycles of their own (even'2 and odd'2 beside
 * even and odd) or a ring (ring_a'2 > ring_b'2 > ...). The report
 * carries the folded profile's trees (html_folded.c: "folded" in the
 * flame document): when the page's folds fold every function's levels,
 * they are what the transforms start from, so that the views show
 * --tree --fold-recursion's and --json --fold-recursion's figures with
 * the same transforms. A fold of some functions' levels only has no
 * command line to equal: it folds the paths, and the transforms bar
 * says so (xmenu.js, #crumbs-levels).
 */

/* The folded trees, or null: a profile without levels, or with stacks
 * or without measured arcs. (On a page cut at a threshold, the
 * functions it leaves out are its unit of those, CUT_OTHER, and its
 * transforms take the trees' own self costs, as exactStacks() does.) */
function foldedDoc() {
	return doc('flame').folded || null;
}

/* Whether the folds among xs fold every level of every function */
function foldsAllLevels(xs) {
	const folds = xs.filter(x => x.op === 'fold');

	if (!folds.length)
		return false;
	if (folds.some(x => x.arg === '*'))
		return true;
	const ids = levelIds();

	for (let f = 0; f < NF; f++)
		if (ids[f] !== f &&
		    !folds.some(x => xformSel(x.op, x.arg)[f] === 1))
			return false;
	return true;
}

/*
 * The folded tree of base's event when the transforms in force fold
 * every level of an estimated tree with levels: { unit, parent, value
 * (the estimate's totals, --tree --fold-recursion's), self (the stacks'
 * self costs, flame_exact_self()'s, for nodes after value's too), e,
 * incl, cycle }, else null.
 */
const foldedTrees = new Map();
function foldedBase(base) {
	const F = base && base.estimated && foldedDoc();

	/* (threads or time chosen: their parts are placed on the tree of
	 * the levels apart, samples.js, and its paths are folded) */
	if (!F || sliceNow() || !foldsLevels(xforms, base) ||
	    !foldsAllLevels(xforms))
		return null;
	const e = EV.indexOf(base.event);

	if (!F.trees[e])
		return null;
	if (!foldedTrees.has(e)) {
		const t = F.trees[e], n = t.value.length;

		foldedTrees.set(e, { e, unit: t.unit, parent: t.parent,
			value: t.value, self: t.self, incl: F.incl[e],
			fself: F.fself[e],
			cycle: F.cycle,
			/* the estimate alone, as the page's own trees */
			plain: { unit: t.unit.slice(0, n),
				parent: t.parent.slice(0, n), value: t.value } });
	}
	return foldedTrees.get(e);
}

/*
 * The stacks the transforms start from on the folded tree: with folds
 * alone, the estimate as --tree --fold-recursion prints it (the command
 * line transforms nothing more: analyze.c only_folds()); with others,
 * the stacks in whole units, pinned to a first focus's function as
 * exactStacks() pins them (exact.js), by its folded inclusive cost.
 */
function foldedStacks(F, folds) {
	if (folds || CUT)
		return { unit: folds ? F.plain.unit : Array.from(F.plain.unit),
			parent: folds ? F.plain.parent : Array.from(F.plain.parent),
			self: folds ? treeSelf(F.plain, true)
				: wholeUnits(Array.from(treeSelf(F.plain, true))) };
	const f = pinFunction(xforms, F.cycle);
	const rep = f >= 0 ? levelIds()[f] : -1;

	return { unit: F.unit, parent: F.parent,
		self: rep >= 0 && !F.cycle[rep]
			? pinnedUnits(F.self, F.unit, F.parent, rep, F.incl[rep])
			: wholeUnits(F.self) };
}

/* With folds alone, each function's figures are the folded profile's,
 * as --json --fold-recursion gives them: a function's self its levels'
 * added, its inclusive the folded one measured, a level folded into
 * another none (html_folded.c's, for a cut page's levels too) */
function foldedFunctions(F, fn) {
	/* (and CUT_OTHER's, at NF: none) */
	const self = new Float64Array(NF + 1), incl = new Float64Array(NF + 1);

	self.set(F.fself);
	incl.set(F.incl);
	return Object.assign({}, fn, { self, incl });
}

/* The cycles the labels name under the transforms xs: the folded
 * profile's when they fold every level (even and odd one cycle where
 * even'2 and odd'2 were one of their own), else the profile's */
function foldedCycles(xs) {
	const F = xs.some(x => x.op === 'fold') ? foldedDoc() : null;

	return F && foldsAllLevels(xs) ? F.cycle : FN.cycle;
}
