/* The diff report's call tree and bottom-up: both sides and the change
 * on each row, the rows opened by treetable.js */

const DIFF_TREE_TITLES = ['base', 'new', 'change', '% base'];
/* one key per switch position: the rows kept for a view gone back to
 * (treetable.js) are in the order of the changes they were made for */
const diffTreeKeys = { false: {}, true: {} };

function diffTreeCells(b0, n0) {
	const [b, n] = pathSides(b0, n0);
	const d = change(b, n);

	return [el('span', { class: 'num' }, fmtSide(sideValue(b, 0))),
		el('span', { class: 'num' }, fmtSide(sideValue(n, 1))),
		el('span', { class: 'num ' + (d > 0 ? 'worse' : d < 0 ? 'better' : '') },
			fmtChange(d)),
		el('span', { class: 'num muted' }, fmtPct(changePct(b, n)))];
}
/* A unit's name, with the whole name and whether one side lacks it on
 * hover */
function diffUnitLabel(T, u, newPath) {
	const only = u >= 0 ? onlyIn(u) : '';

	return el('span', { class: 'fname', title: diffUnitName(T, u) },
		/* a row's Function view (difffn.js); a cycle has none */
		u >= 0 ? el('a', { href: diffHref('#fn/' + u) }, fitName(u, LINK_CHARS))
			: diffUnitName(T, u),
		only ? el('span', { class: 'only' }, ' (' + only + ')')
		: newPath ? el('span', { class: 'only' }, ' (new path)') : null);
}
function diffTreeBox(id, what, T, table) {
	const box = el('div', { id: id + '-view' });
	const titles = DIFF_TREE_TITLES.map(t => t === '% base' && shares
		? '% of base share' : t + (t !== '% base' && !shares && unitOf()
			? ' (' + unitOf() + ')' : shares && t !== '% base' && t !== 'change'
			? ' %' : ''));

	box.style.setProperty('--tree-columns', treeColumns(T, titles));
	box.append(el('div', { class: 'controls' },
		el('span', null, what + ' of ' + diffEvent()),
		T.estimated ? el('span', { class: 'note tree-estimated' },
			'estimated from call arcs: the profiles have no stacks') : null,
		el('span', { class: 'muted' }, 'largest change first'),
		el('button', { id: id + '-all', onclick: table.openAll }, 'open all'),
		el('button', { id: id + '-none', onclick: table.closeAll }, 'close all'),
		el('span', { class: 'muted' },
			'\u2191\u2193 move, \u2192 \u2190 open and close, * all below')),
	el('div', { class: 'hdr calltree-grid' },
		...titles.map(t => el('span', { class: 'num' }, t)),
		el('span', null, 'function')), table);
	return box;
}

function viewDiffCallTree() {
	if (diffNoTree())
		return diffNoTree();
	const t = performance.now();
	const T = diffTree();
	const order = list => byChange(list, i => T.vb[i], i => T.value[i]);
	const table = treeTable({
		roots: order(T.roots),
		kids: i => order(T.kids[i]),
		hasKids: i => T.kids[i].length > 0,
		cells: row => diffTreeCells(T.vb[row.n], T.value[row.n]),
		label: row => diffUnitLabel(T, T.unit[row.n], !T.inBase[row.n]),
		enter: () => {},
		menu: () => {},
	}, 'calltree-grid', 'calltree', true, diffTreeKeys[shares]);
	const box = diffTreeBox('calltree', 'Call tree', T, table);

	box.redraw = () => treeShown(table, t);
	return box;
}

/*
 * Bottom-up, as bottomup.js's: a root is a unit with the cost of the
 * stacks ending in it on each side, its children the units that called
 * it on those stacks. A node holds the tree's nodes it stands for, each
 * with its [BASE, NEW] cost.
 */
function diffUpGroup(T, pairs) {
	const byUnit = new Map();

	for (const [i, w] of pairs) {
		const u = T.unit[i];
		let m = byUnit.get(u);

		if (!m)
			byUnit.set(u, m = new Map());
		const had = m.get(i) || [0, 0];

		m.set(i, [had[0] + w[0], had[1] + w[1]]);
	}
	return [...byUnit].map(([u, at]) => {
		let b = 0, n = 0, more = false;

		for (const [i, w] of at) {
			b += w[0];
			n += w[1];
			more = more || T.parent[i] >= 0;
		}
		return { u, at, b, n, more };
	});
}
function viewDiffBottomUp() {
	if (diffNoTree())
		return diffNoTree();
	const t = performance.now();
	const T = diffTree();
	const [sb, sn] = diffSelf(T);
	const order = list => byChange(list, x => x.b, x => x.n);
	const pairs = [];

	for (let i = 0; i < T.unit.length; i++)
		if (sb[i] > 0 || sn[i] > 0)
			pairs.push([i, [sb[i], sn[i]]]);
	const table = treeTable({
		roots: order(diffUpGroup(T, pairs)),
		kids: x => order(diffUpGroup(T, [...x.at]
			.filter(([i]) => T.parent[i] >= 0)
			.map(([i, w]) => [T.parent[i], w]))),
		hasKids: x => x.more,
		cells: row => diffTreeCells(row.n.b, row.n.n),
		label: row => diffUnitLabel(T, row.n.u, false),
		enter: () => {},
		menu: () => {},
	}, 'calltree-grid', 'bottomup', false, diffTreeKeys[shares]);
	const box = diffTreeBox('bottomup',
		'Bottom-up (callers of each function\'s self cost)', T, table);

	box.redraw = () => treeShown(table, t);
	return box;
}
