/* Bottom-up: every function with its self cost, opening into its callers */

/*
 * The call paths upside down, as hotspot's and the Firefox Profiler's
 * inverted tree: a root is a function with the cost of the stacks that
 * end in it (its self cost), so the roots sum to the total; its
 * children are the functions that called it on those stacks, theirs
 * their callers, and so on. A node holds the tree's nodes (flameTree())
 * it stands for, each with the cost of the stacks ending below it that
 * it carries: its callers are their parents.
 */
function bottomUpNode(u, at) {
	let v = 0, more = false;

	for (const [i, w] of at) {
		v += w;
		more = more || bottomUpTree.parent[i] >= 0;
	}
	return { u, at, v, more };
}
let bottomUpTree;	/* the tree the nodes are of */
/* nodes by unit from [tree node, cost] pairs, heaviest first */
function bottomUpGroup(pairs) {
	const T = bottomUpTree;
	const byUnit = new Map();

	for (const [i, w] of pairs) {
		const u = T.unit[i];
		let m = byUnit.get(u);

		if (!m)
			byUnit.set(u, m = new Map());
		m.set(i, (m.get(i) || 0) + w);
	}
	return [...byUnit].map(([u, m]) => bottomUpNode(u, m))
		.sort((a, b) => b.v - a.v);
}
/* the roots, made once per tree (a view gone back to keeps its rows) */
function bottomUpRoots(T) {
	const self = treeSelf(T);
	const pairs = [];

	bottomUpTree = T;
	if (T.bottomUp)
		return T.bottomUp;
	/* a self under 1e-9 of its node's value is what the subtraction
	 * of its children's values left (gmon.out's <cycle 1 as a whole>
	 * came out as a root of 0.00), not a cost */
	for (let i = 0; i < T.unit.length; i++)
		if (self[i] > T.value[i] * 1e-9)
			pairs.push([i, self[i]]);
	T.bottomUp = bottomUpGroup(pairs);
	/* the frames the report merged (cut.js), whose functions it does
	 * not know: one root of their cost, so that the roots still sum
	 * to the total */
	if (T.more_parent && T.more_parent.length) {
		const merged = [T.more_n.reduce((s, n) => s + n, 0),
			T.more_value.reduce((s, v) => s + v, 0)];

		T.bottomUp.push({ u: null, at: new Map(), v: merged[1], more: false,
			merged });
		T.bottomUp.sort((a, b) => b.v - a.v);
	}
	return T.bottomUp;
}
/* a node's callers: the parents of the tree nodes it holds */
function bottomUpCallers(b) {
	const pairs = [];

	for (const [i, w] of b.at)
		if (bottomUpTree.parent[i] >= 0)
			pairs.push([bottomUpTree.parent[i], w]);
	return bottomUpGroup(pairs);
}

function viewBottomUp() {
	const t = performance.now();
	/* on a cut page, with the paths it merged: each function's root
	 * its self cost, and one of the functions left out */
	const T = flameWhole();

	if (!T)	/* only maximum events: no tree adds up */
		return el('p', { class: 'note', id: 'flame-max' },
			flameMaxNote() + '; no event of this profile adds up.');
	const titles = ['cost', '%', 'of parent'];
	const grid = 'bottomup-grid';
	const box = el('div', { id: 'bottomup-view' });
	const table = treeTable({
		roots: bottomUpRoots(T),
		kids: bottomUpCallers,
		hasKids: b => b.more,
		cells: row => shareCells(row.n.v, total(),
			row.up ? row.up.n.v : total()),
		label: row => row.n.merged
			? el('span', { class: 'muted cut-fn', id: 'bottomup-more',
				title: flameMoreTitle(row.n.merged, T.total) },
				fmt(row.n.merged[0]) + ' more call paths, each under a pixel or ' +
				cutBelow())
			: unitLink(row.n.u),
		enter: row => {
			const u = row.n.u;

			if (row.n.merged || u === NF)
				return;

			location.hash = withXforms(u < 0 ? '#cycle/' + -u : '#fn/' + u);
		},
		menu: (row, x, y) => row.n.merged ? null
			: xformMenu(x, y, { unit: row.n.u }),
	}, grid, 'bottomup', false, T);

	box.style.setProperty('--tree-columns', treeColumns(T, titles));
	box.append(treeHeading('Bottom-up (callers of each function\'s self cost)', T,
		table),
		treeHeader(grid, titles), table);
	box.redraw = () => treeShown(table, t);
	return box;
}
