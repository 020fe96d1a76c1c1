/* The diff report's model: the comparison ("cga-diff") and its numbers */

/*
 * The page's functions (FN, "cga-data") are --diff's rows: a function
 * matched across the two profiles by name, file and object. FN's costs
 * are NEW's; DF has both sides' (self[k], inclusive[k], k 0 for BASE, 1
 * for NEW), which side has each row (in: 1 BASE, 2 NEW, 3 both) and
 * each side's flame graph tree over the rows. Rows [0, DF.listed) are
 * those --diff --json lists, in its order.
 */
const DF = JSON.parse(document.getElementById('cga-diff').textContent);
const SIDE_TOTAL = [DF.base.total, DF.new.total];

/* The switch: compare each side's shares of its own total (runs of
 * different lengths) instead of its costs. Kept in the hash
 * ("&shares=1") by diffroute.js. */
let shares = false;

/* A cost v of side k as compared: itself, or its share of the side's
 * total in %; and the change of [base, new] */
function sideValue(v, k) {
	if (!shares)
		return v;
	return SIDE_TOTAL[k] ? 100 * v / SIDE_TOTAL[k] : 0;
}
function change(b, n) {
	return sideValue(n, 1) - sideValue(b, 0);
}
/* The change's second figure: of costs, as a percentage of BASE's total
 * (--json's "*_delta_pct", the text's "% base"); of shares, as a
 * percentage of the base share (how much the share grew) */
function changePct(b, n) {
	if (!shares)
		return SIDE_TOTAL[0] ? 100 * (n - b) / SIDE_TOTAL[0] : 0;
	const sb = sideValue(b, 0);

	/* none on either side: no change, not "new" */
	return sb ? 100 * (sideValue(n, 1) - sb) / sb : sideValue(n, 1) ? null : 0;
}

/* Figures as the page shows them: costs as the listings (fmtCost()),
 * shares with two decimals and "%"; a change signed, its sign left off
 * where it rounds to zero */
function fmtSide(v) {
	return shares ? fixed(v, 2) + '%' : fmtCost(v);
}
function signed(v, text) {
	return /[1-9]/.test(text) ? (v < 0 ? '-' : '+') + text : text;
}
function fmtChange(d) {
	return signed(d, shares ? fixed(Math.abs(d), 2) + ' pt'
		: fmtCost(Math.abs(d)));
}
/* A call path's costs [base, new] as each side's --tree prints them:
 * whole units, an estimate's rounded (dom.js fmtPath(); gmon.out's are
 * ticks here, whole ticks being gprof's seconds to two decimals), so
 * that the change is of the figures shown. Shares are of the costs. */
function pathSides(b, n) {
	return shares ? [b, n] : [Math.round(b), Math.round(n)];
}
function fmtPct(p) {
	return p === null ? 'new' : signed(p, fixed(Math.abs(p), 2) + '%');
}
/* The event compared and the unit of its figures, as --diff's title
 * says it: "seconds (in ticks of 0.01 s)" for gmon.out (its figures
 * are ticks, as --diff --json's), "cycles (ns)", "Ir" */
function diffEvent() {
	const info = D.event_info[0];

	if (info.unit_seconds)
		return EV[0] + ' (in ticks of ' + info.unit_seconds + ' s)';
	return EV[0] + (unitOf() ? ' (' + unitOf() + ')' : '');
}
/* what side a row is on, for its mark */
function onlyIn(f) {
	return DF.in[f] === 1 ? 'only in base' : DF.in[f] === 2 ? 'only in new' : '';
}

/*
 * The two sides' call paths laid over each other: a node per path of
 * rows found on either side, outermost first, its value on each side
 * (vb BASE's, value NEW's: what the flame graph's layout reads) and
 * whether BASE has it at all (a path NEW made). A unit is a row, or -N
 * for a cycle as a whole (its members' rows in cycles[N - 1]), the two
 * sides' cycles one where they have the same members. Parents come
 * before their children.
 */
let diffTreeMade = null;
function diffTree() {
	if (diffTreeMade)
		return diffTreeMade;
	const T = { unit: [], parent: [], value: [], vb: [], inBase: [],
		kids: [], roots: [], cycles: [], event: EV[0],
		/* the root's: each side's total as --json's (an estimate's
		 * tree, gmon.out's, adds up to a little more or less: span,
		 * what NEW's tree adds up to, is the width laid out) */
		total: SIDE_TOTAL[1], baseTotal: SIDE_TOTAL[0], span: DF.trees[1].total,
		estimated: DF.trees[0].estimated || DF.trees[1].estimated };
	const index = new Map(), cycleIds = new Map();
	const unitOf = (S, u) => {
		if (u >= 0)
			return u;
		const members = S.cycles[-u - 1].slice().sort((a, b) => a - b);
		const key = members.join(',');

		if (!cycleIds.has(key)) {
			T.cycles.push(members);
			cycleIds.set(key, -T.cycles.length);
		}
		return cycleIds.get(key);
	};

	DF.trees.forEach((S, k) => {
		const at = [];	/* S's node -> T's */

		for (let i = 0; i < S.unit.length; i++) {
			const p = S.parent[i] < 0 ? -1 : at[S.parent[i]];
			const u = unitOf(S, S.unit[i]);
			const key = p + ':' + u;
			let m = index.get(key);

			if (m === undefined) {
				m = T.unit.length;
				index.set(key, m);
				T.unit.push(u);
				T.parent.push(p);
				T.value.push(0);
				T.vb.push(0);
				T.inBase.push(false);
				T.kids.push([]);
				(p < 0 ? T.roots : T.kids[p]).push(m);
			}
			at[i] = m;
			if (k === 0) {
				T.vb[m] += S.value[i];
				T.inBase[m] = true;
			} else {
				T.value[m] += S.value[i];
			}
		}
	});
	diffTreeMade = T;
	return T;
}
/* What a view of call paths shows for a maximum (IgProf's MEM_MAX),
 * which has none: its costs are the largest values under them, and
 * paths add up (html_diff.c writes no trees); null for any other */
function diffNoTree() {
	return DF.trees ? null : el('p', { class: 'note', id: 'flame-max' }, EV[0] +
		' is a maximum (the largest single value, not a sum), which a ' +
		'flame graph or a tree of call paths cannot show: they add up');
}
/* A unit's name: a row's label, or a cycle's members */
function diffUnitName(T, u) {
	return u >= 0 ? name(u) : '<cycle of ' + T.cycles[-u - 1].map(name).join(', ') + '>';
}
/* A node's own cost on each side: its value less its children's */
function diffSelf(T) {
	if (!T.selfs) {
		const s = [Float64Array.from(T.vb), Float64Array.from(T.value)];

		T.parent.forEach((p, i) => {
			if (p >= 0) {
				s[0][p] -= T.vb[i];
				s[1][p] -= T.value[i];
			}
		});
		T.selfs = s.map(a => a.map(v => Math.max(0, v)));
	}
	return T.selfs;
}
/* Largest change first, then NEW's cost, then BASE's: a tree's
 * children (b(i), n(i): a node's costs) */
function byChange(list, b, n) {
	return list.slice().sort((x, y) =>
		Math.abs(change(b(y), n(y))) - Math.abs(change(b(x), n(x))) ||
		n(y) - n(x) || b(y) - b(x));
}
