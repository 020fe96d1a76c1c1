/* The diff report's Function view (#fn/N): one row's self and
 * inclusive cost on each side and the change, and its callers and
 * callees with the cost of the calls on each side, as --diff --json's
 * "callers" and "callees" (diff_arcs.h) */

/* Each table's sort: a key of DIFF_FN_KEYS and the way, null for the
 * default (--json's order: the largest change of the calls' cost);
 * kept in the hash ("&callers=KEY,desc", "&callees=KEY,asc") by
 * diffroute.js */
const diffFnState = { callers: { col: null, desc: true },
	callees: { col: null, desc: true } };
const DIFF_FN_KEYS = ['base', 'new', 'change', 'pct', 'name'];

/* Row f's calls out (callees) or in (callers): [arc, other row] pairs,
 * made once for every row from DF.arcs */
let diffFnArcs = null;
function diffCalls(f, callers) {
	if (!diffFnArcs) {
		const A = DF.arcs;

		diffFnArcs = { in: new Map(), out: new Map() };
		for (let a = 0; a < A.caller.length; a++) {
			for (const [m, at, other] of [[diffFnArcs.out, A.caller[a], A.callee[a]],
				[diffFnArcs.in, A.callee[a], A.caller[a]]]) {
				if (!m.has(at))
					m.set(at, []);
				m.get(at).push([a, other]);
			}
		}
	}
	const list = (callers ? diffFnArcs.in : diffFnArcs.out).get(f) || [];
	const d = ([a]) => Math.abs(DF.arcs.cost[1][a] - DF.arcs.cost[0][a]);

	/* --json's order: the largest change of cost, then by row */
	return list.slice().sort((x, y) => d(y) - d(x) || x[1] - y[1]);
}
/* A calls' table (callers or callees of f), sortable by its titles */
function diffCallsTable(f, callers) {
	const which = callers ? 'callers' : 'callees';
	const state = diffFnState[which];
	const C = DF.arcs.cost;
	const values = [([a]) => sideValue(C[0][a], 0), ([a]) => sideValue(C[1][a], 1),
		([a]) => change(C[0][a], C[1][a]),
		([a]) => changePct(C[0][a], C[1][a]) ?? Infinity, ([, g]) => name(g)];
	const titles = ['base', 'new', 'change', shares ? '% of base share' : '% base']
		.map((t, k) => k < 3 && shares ? t + ' %' : k < 3 && unitOf()
			? t + ' (' + unitOf() + ')' : t);
	let rows = diffCalls(f, callers);

	if (state.col) {
		const at = new Map(rows.map((r, i) => [r, i]));

		rows = sortRows(rows, values[DIFF_FN_KEYS.indexOf(state.col)], state.desc,
			(x, y) => at.get(x) - at.get(y));
	}
	const head = el('tr', null, ...[...titles, callers ? 'caller' : 'callee']
		.map((t, c) => el('th', { 'data-key': DIFF_FN_KEYS[c],
			class: (c < 4 ? 'num' : '') + (state.col === DIFF_FN_KEYS[c]
				? ' sorted' + (state.desc ? '' : ' up') : ''),
			title: 'sort by ' + t }, t)));
	const table = el('table', { class: 'difffn-calls', id: 'fn-' + which }, head);

	sortTitles(head, 'fn-' + which);
	head.addEventListener('click', e => {
		const t = e.target.closest('[data-key]');

		if (!t)
			return;
		sortClick(state, t.dataset.key, !t.classList.contains('num'));
		/* drawn again by diffRoute(), as back and reload draw it; the
		 * title clicked has the focus back, as difftop.js's */
		sortPressed = 'fn-' + which + ' ' + t.dataset.key;
		location.hash = diffHref('#fn/' + f);
	});
	for (const [a, g] of rows) {
		const only = onlyIn(g);
		const [b, n] = [C[0][a], C[1][a]];
		const d = change(b, n);
		/* which side has these calls: a function on both sides may be
		 * called from this one on one side only */
		const callsIn = DF.arcs.in[a] === 1 ? 'calls only in base'
			: DF.arcs.in[a] === 2 ? 'calls only in new' : '';

		table.append(el('tr', { 'data-row': g },
			el('td', { class: 'num' }, fmtSide(sideValue(b, 0))),
			el('td', { class: 'num' }, fmtSide(sideValue(n, 1))),
			el('td', { class: 'num ' + (d > 0 ? 'worse' : d < 0 ? 'better' : '') },
				fmtChange(d)),
			el('td', { class: 'num muted' }, fmtPct(changePct(b, n))),
			el('td', { class: 'fname', title: fullName(g) },
				el('a', { href: diffHref('#fn/' + g) }, fitName(g, LINK_CHARS)),
				only ? el('span', { class: 'only' }, ' (' + only + ')') : null,
				callsIn && !only ? el('span', { class: 'only' }, ' (' + callsIn + ')')
					: null)));
	}
	if (!rows.length)
		table.append(el('tr', null, el('td', { colspan: 5, class: 'muted' },
			callers ? 'no caller between functions on either side'
				: 'no callee on either side')));
	return table;
}

function viewDiffFunction(f) {
	if (f === undefined)
		return el('p', { class: 'note', id: 'fn-none' },
			'No function chosen yet: pick one in Top, the flame graph ' +
			'or a tree');
	if (!(f >= 0 && f < NF))
		return el('p', { class: 'note', id: 'fn-none' }, 'No function ' + f +
			' in this comparison: pick one in Top');
	const box = el('div', { id: 'difffn-view' });
	const only = onlyIn(f);
	const costs = el('table', { id: 'fn-costs', class: 'difffn-calls' },
		el('tr', null, el('th'), ...['base', 'new', 'change',
			shares ? '% of base share' : '% base'].map((t, k) => el('th',
			{ class: 'num' }, k < 3 && shares ? t + ' %' : k < 3 && unitOf()
				? t + ' (' + unitOf() + ')' : t))));

	for (const [what, col] of [['self', DF.self], ['inclusive', DF.inclusive]])
		costs.append(el('tr', { id: 'fn-' + what }, el('th', null, what),
			...diffCells(col, f).map(c => el('td', { class: c.className },
				c.textContent))));
	box.append(el('h2', { id: 'fn-name', title: fullName(f) }, fullName(f),
		only ? el('span', { class: 'only' }, ' (' + only + ')') : null),
	el('p', { class: 'muted', id: 'fn-where' }, [fnFile(f), fnObject(f)]
		.filter(x => x).join(' \u2014 ')),
	costs,
	el('h3', null, 'Callers'),
	el('p', { class: 'muted', id: 'fn-calls-how' }, 'the calls\' inclusive ' +
		'cost of ' + diffEvent() +
		' on each side, largest change first; click a title to sort'),
	diffCallsTable(f, true),
	el('h3', null, 'Callees'),
	diffCallsTable(f, false));
	return box;
}
