/* Call tree: the call paths top-down, as rows that open */

/* What a tree view says above its rows: the event, whether the paths
 * are estimated, the total in view; buttons that open or close every
 * row of table */
function treeHeading(what, T, table) {
	return el('div', { class: 'controls' },
		el('span', null, what + ' of ' + T.event + treeOtherEvent(T)),
		T.estimated ? el('span', { class: 'note tree-estimated' },
			'estimated from call arcs: the profile has no stacks') : null,
		el('span', { class: 'muted' }, 'total ' + withUnitPath(T.total)),
		el('button', { id: table.id + '-all', onclick: table.openAll,
			title: 'the first ' + fmt(TREE_ALL) + ' rows at most' }, 'open all'),
		el('button', { id: table.id + '-none', onclick: table.closeAll }, 'close all'),
		xforms.length ? null : xformForm(),
		el('span', { class: 'muted' },
			'\u2191\u2193 move, \u2192 \u2190 open and close, * all below, ' +
			'Enter: the function, m: transforms'));
}
/* A tree's column title as its header shows it: a cost's with its
 * unit ("self (nanoseconds)") */
function treeTitle(t) {
	const u = unitOf();

	return t === 'total' || t === 'self' || t === 'cost'
		? t + (u ? ' (' + u + ')' : '') : t;
}
/* The header row of a tree's grid */
function treeHeader(gridClass, titles) {
	return el('div', { class: 'hdr ' + gridClass }, ...titles.map(t =>
		el('span', { class: 'num' }, treeTitle(t))),
	el('span', null, 'function'));
}
/* A tree view in the page: its first row selected, the keys its; how
 * long it took from t to the frame that paints it in body's
 * data-tree-ms (the tests print it) */
function treeShown(table, t) {
	table.shown();
	table.focus({ preventScroll: true });
	requestAnimationFrame(() => {
		document.body.dataset.treeMs = (performance.now() - t).toFixed(1);
	});
}
/* The names of the call path to node i, outermost first: a merge's */
function treePath(T, i) {
	const path = [];

	for (; i >= 0; i = T.parent[i])
		path.push(unitName(T.unit[i]));
	return path.reverse();
}
/* T's children of a node (or its roots), heaviest first */
function heaviestFirst(T, list) {
	return list.slice().sort((a, b) => T.value[b] - T.value[a]);
}
/* The call tree's rows under a node: its children with a cost of the
 * event, as --tree lists them (a heap profile's paths hold the other
 * events' costs too: freed memory, 0 bytes in use, was a row of 0s) */
function costlyFirst(T, list) {
	return heaviestFirst(T, list.filter(i => T.value[i] > 0));
}

/* The frames the report merged under node i (-1: at the roots), as one
 * row after i's children (cut.js); none under transforms, whose tree
 * has the merged cost in the parent's self. */
function treeMoreRows(T, i) {
	const m = T.more_parent && flameMore(T).get(i);

	return m ? [{ more: m }] : [];
}

function viewCallTree() {
	const t = performance.now();
	const T = flameTree();

	if (!T)	/* only maximum events: no tree adds up */
		return el('p', { class: 'note', id: 'flame-max' },
			flameMaxNote() + '; no event of this profile adds up.');
	const self = treeSelf(T);
	const titles = ['total', '%', 'of parent', 'self', 'self %'];
	const grid = 'calltree-grid';
	const box = el('div', { id: 'calltree-view' });
	const table = treeTable({
		roots: costlyFirst(T, T.roots).concat(treeMoreRows(T, -1)),
		kids: i => costlyFirst(T, T.kids[i]).concat(treeMoreRows(T, i)),
		hasKids: i => typeof i === 'number' &&
			(T.kids[i].some(k => T.value[k] > 0) ||
			 treeMoreRows(T, i).length > 0),
		cells: row => {
			const i = row.n;

			if (i.more)
				return shareCells(i.more[1], pathTotal(),
					row.up ? T.value[row.up.n] : T.total).concat([el('span', { class: 'num' }), el('span', { class: 'num' })]);

			/* of the whole as --tree has it: gmon.out's of the
			 * time the functions got (pathTotal()) */
			return shareCells(T.value[i], pathTotal(),
				row.up ? T.value[row.up.n] : T.total).concat([
				el('span', { class: 'num' }, fmtPath(self[i])),
				el('span', { class: 'num' }, pct(self[i], pathTotal()))]);
		},
		label: row => row.n.more
			? el('span', { class: 'muted cut-fn', title: flameMoreTitle(row.n.more, T.total) },
				fmt(row.n.more[0]) + ' more, each under a pixel or ' + cutBelow())
			: unitLink(T.unit[row.n]),
		enter: row => {
			if (row.n.more || T.unit[row.n] === NF)
				return;
			const u = T.unit[row.n];

			location.hash = withXforms(u < 0 ? '#cycle/' + -u : '#fn/' + u);
		},
		menu: (row, x, y) => row.n.more ? null : xformMenu(x, y,
			{ unit: T.unit[row.n], path: treePath(T, row.n) }),
	}, grid, 'calltree', true, T);

	box.style.setProperty('--tree-columns', treeColumns(T, titles));
	box.append(treeHeading('Call tree', T, table), treeHeader(grid, titles), table);
	box.redraw = () => treeShown(table, t);
	return box;
}
