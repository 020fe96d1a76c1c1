/* The stacks the transforms start from on a tree estimated from call
 * arcs: the command line's (print/arc_stacks.c), made again here */

/*
 * A Callgrind or gmon.out profile records no stacks: the command line
 * transforms the paths of the tree --tree prints (cut at 1e-5 of the
 * total) with each function's self cost spread over its paths by their
 * totals, a function whose every path was cut put back under its
 * heaviest caller (flame_exact_self()), and each path's self rounded to
 * whole units as a running sum. The page has that tree and each
 * function's self cost and calls: it makes the same stacks, by the same
 * operations on the same numbers in the same order, so that its views
 * under a transform show --tree's figures with that transform
 * (test_report_text.py). A page cut at --threshold lacks the functions
 * it leaves out: there the tree's own self costs are taken, rounded.
 *
 * Returns { unit, parent, self } with the nodes added after T's; pin:
 * the function a first focus or ignore is pinned to (pinFunction()),
 * or -1. (cutWhole()'s tree, which has the merged paths, is not asked
 * here.)
 */
function exactStacks(T, e, pin) {
	const unit = Array.from(T.unit), parent = Array.from(T.parent);

	if (CUT)
		return cutStacks({ unit, parent, self: treeSelf(T, true) }, e,
			pin);
	const self = exactSelf(T, e, unit, parent);

	return { unit, parent, self: pin >= 0
		? pinnedUnits(self, unit, parent, pin, FN.inclusive[e][pin])
		: wholeUnits(self) };
}

/* A cut page's stacks (W: its tree's own self costs, or cutWhole()'s
 * with the paths it merged) in whole units, pinned as exactStacks()
 * pins them: a first focus on main totals its measured inclusive cost
 * there too (samples/cxx: 164,390, not the 164,391 of the tree's) */
function cutStacks(W, e, pin) {
	return { unit: W.unit, parent: W.parent, self: pin >= 0
		? pinnedUnits(W.self, W.unit, W.parent, pin, FN.inclusive[e][pin])
		: wholeUnits(Array.from(W.self)) };
}

/* arc_pin_func(): the function a first focus or ignore (folds before
 * it change no stack holding it) of a profile with measured inclusive
 * costs is pinned to: the one function its glob names, with its
 * recursion levels (fib'2 for fib), outside any cycle (cycle: each
 * function's cycle number, FN.cycle's or the folded profile's); -1 for
 * none */
function pinFunction(xs, cycle = FN.cycle) {
	const x = xs.find(y => y.op !== 'fold');

	if (!x || (x.op !== 'focus' && x.op !== 'ignore') || calls().estimated)
		return -1;
	const sel = xformSel(x.op, x.arg), ids = levelIds();
	let f = -1, first = -1;

	for (let g = 0; g < NF; g++) {
		if (sel[g] !== 1)
			continue;
		if (first < 0)
			first = g;
		else if (ids[g] !== ids[first])
			return -1;
		const n = FN.name[g] || '';

		if (!n.includes("'") || foldRecursion(n) === n)
			f = g;	/* the level of none: fib */
	}
	return f >= 0 && !cycle[f] ? f : -1;
}

/* flame_exact_self()'s selfs of T's nodes, and its nodes for the
 * functions that have none pushed onto unit and parent */
function exactSelf(T, e, unit, parent) {
	const n = T.unit.length;
	const weight = new Float64Array(NF);
	/* the heaviest node of each function outside a cycle (by id) and
	 * of each cycle (by number, as "c" + N) */
	const best = new Map();
	const cyc = f => FN.cycle[f] || 0;

	for (let i = 0; i < n; i++) {
		const u = T.unit[i];

		if (u >= 0)
			weight[u] += T.value[i];
		const key = u < 0 ? 'c' + -u : cyc(u) ? null : u;

		if (key !== null && (!best.has(key) ||
				     T.value[i] > T.value[best.get(key)]))
			best.set(key, i);
	}
	const self = [];

	for (let i = 0; i < n; i++) {
		const u = T.unit[i], s = u >= 0 ? FN.self[e][u] : 0;

		self.push(u >= 0 && s > 0 && weight[u] > 0
			? s * (T.value[i] / weight[u]) : 0);
	}
	const at = exactAttach(weight, best, e);

	for (let f = 0; f < NF; f++) {
		const s = FN.self[e][f];

		if (weight[f] > 0 || !(s > 0))
			continue;
		unit.push(f);
		parent.push(at.has(f) ? at.get(f) : -1);
		self.push(s);
	}
	return self;
}

/* attach_points(): where a function without a node goes, under the
 * heaviest node of its cycle, else of its heaviest caller's unit (the
 * calls in the profile's order, from the last) */
function exactAttach(weight, best, e) {
	const C = calls();
	const cyc = f => FN.cycle[f] || 0;
	const at = new Map(), heaviest = new Map();
	const deleted = new Set(doc('calls').deleted);

	for (let f = 0; f < NF; f++)
		if (cyc(f) && best.has('c' + cyc(f)))
			at.set(f, best.get('c' + cyc(f)));
	for (let a = C.caller.length; a-- > 0;) {
		const f = C.callee[a], from = C.caller[a];

		if (deleted.has(a) || from === f)
			continue;
		const u = cyc(from) ? 'c' + cyc(from) : from;
		const same = cyc(from) && cyc(from) === cyc(f);
		const cost = same ? 0 : Math.max(0, C.estimated
			? C.selfShare[a] + C.childShare[a] : C.incl[e][a]);

		if (weight[f] > 0 || !best.has(u) || cyc(f) ||
		    cost <= (heaviest.get(f) || 0))
			continue;
		heaviest.set(f, cost);
		at.set(f, best.get(u));
	}
	return at;
}

/*
 * Self costs in whole units, as the command line's stacks have them:
 * in node order, the running sum rounded less what was given before,
 * so that they add up to the total (Callgrind's, of 246,671 Ir: a path
 * of 187,713 on the page was 187,715 in --tree --ignore=main).
 */
function wholeUnits(self) {
	const out = new Float64Array(self.length);
	let sum = 0, given = 0;

	for (let i = 0; i < self.length; i++) {
		if (!(self[i] > 0))
			continue;
		sum += self[i];
		const upto = Math.round(sum);

		if (upto > given) {
			out[i] = upto - given;
			given = upto;
		}
	}
	return out;
}

/*
 * arc_pin(): whole units as a running sum over each function's nodes
 * (wholeUnits()' is over every node), so that each function's self
 * over its stacks is the profile's, and then the stacks holding f made
 * to add up to incl, f's measured inclusive cost, by moving the
 * difference between the nodes of the functions with nodes on both
 * sides: each function's share by what it can give, each node's by its
 * self, running sums again (functions by id, nodes in order). What
 * --focus=F and --ignore=F total on the command line.
 */
function pinnedUnits(self, unit, parent, f, incl) {
	const n = self.length, out = new Float64Array(n);
	const inside = new Uint8Array(n);
	/* per function (cycles' nodes at NF): its running sum */
	const sum = new Float64Array(NF + 1), given = new Float64Array(NF + 1);
	const sIn = new Float64Array(NF), sOut = new Float64Array(NF);
	let sumIn = 0;

	for (let i = 0; i < n; i++) {
		const g = unit[i] >= 0 && unit[i] < NF ? unit[i] : NF;

		inside[i] = unit[i] === f ||
			(parent[i] >= 0 && inside[parent[i]]) ? 1 : 0;
		if (self[i] > 0) {
			sum[g] += self[i];
			const upto = Math.round(sum[g]);

			if (upto > given[g]) {
				out[i] = upto - given[g];
				given[g] = upto;
			}
		}
		if (inside[i])
			sumIn += out[i];
		if (g < NF)
			(inside[i] ? sIn : sOut)[g] += out[i];
	}
	if (sumIn === incl)
		return out;
	const up = incl > sumIn;
	let need = Math.abs(incl - sumIn), cap = 0;

	for (let g = 0; g < NF; g++)
		if (sIn[g] && sOut[g])
			cap += up ? sOut[g] : sIn[g];
	if (!cap)
		return out;
	need = Math.min(need, cap);
	const move = new Float64Array(NF);
	let cum = 0, moved = 0;

	for (let g = 0; g < NF; g++) {
		if (!sIn[g] || !sOut[g])
			continue;
		cum += up ? sOut[g] : sIn[g];
		const upto = Math.round(need * cum / cap);

		move[g] = upto - moved;
		moved = upto;
	}
	const cumGive = new Float64Array(NF), gave = new Float64Array(NF);
	const cumTake = new Float64Array(NF), took = new Float64Array(NF);

	for (let i = 0; i < n; i++) {
		const g = unit[i];

		if (g < 0 || g >= NF || !move[g])
			continue;
		if (!!inside[i] !== up) {	/* the giving side */
			cumGive[g] += out[i];
			const upto = Math.round(move[g] * cumGive[g] /
				(up ? sOut[g] : sIn[g]));

			out[i] -= upto - gave[g];
			gave[g] = upto;
		} else {
			cumTake[g] += out[i];
			const upto = Math.round(move[g] * cumTake[g] /
				(up ? sIn[g] : sOut[g]));

			out[i] += upto - took[g];
			took[g] = upto;
		}
	}
	return out;
}
