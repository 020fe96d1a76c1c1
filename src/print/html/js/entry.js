/* The Function view's tables: the entry's own line, its callers, its
 * callees */

/* How each table of arcs is sorted, kept from one function to the
 * next: a column's key, largest first or not. */
const entrySort = {
	caller: { key: 'incl', desc: true },
	callee: { key: 'incl', desc: true },
};

/*
 * gprof's call graph entry as three tables: the entry's own line, then
 * its callers and its callees, each labelled and sortable by its
 * headers. Each arc's inclusive cost is split into the callee's self
 * and children (arcShare()), "called" is count/the callee's calls, and
 * "share" is the arc's part of the entry's inclusive cost: for a
 * caller, what it brings of the cost of the entry (of its cycle, which
 * the arc's cost is a share of); for a callee, what the entry spends
 * in it. Arcs inside a cycle are counted only: their cost is the
 * cycle's. A sampled profile (perf.data) counted no calls: its count
 * is the samples of the stacks through the arc (of every event
 * together when there are several, print_graph.c says why the text
 * prints none), and the entry's own samples are the flat profile's.
 */
function entryTables(e, arcsIn, arcsOut, sameUnit) {
	const C = calls();
	const u = unitOf();
	const costHeads = [u ? 'self (' + u + ')' : 'self', 'children', 'inclusive'];
	const countHead = !SAMPLED ? 'called'
		: EV.length > 1 ? 'samples (all events)' : 'samples';
	const own = el('table', { class: 'entry', id: 'fn-entry' },
		/* as -q heads it: gprof's "% time" for gmon.out's seconds,
		 * else "%total" (a Cachegrind profile's arcs have no cost
		 * either, but its costs are no time) */
		el('tr', null, ...[inSeconds() ? '% time' : '% total',
			...costHeads, SAMPLED ? 'samples (self)' : 'called']
			.map(h => el('th', { class: 'num' }, h)),
			el('th', null, 'function')),
		el('tr', { class: 'primary' },
			/* as the text's %total: self + children (a cycle
			 * member's children may leave the calls inside the
			 * cycle out); of a maximum, whose children are the
			 * largest of the calls, the inclusive, the larger */
			el('td', { class: 'num' }, pct(isMax() ? e.inclusive
				: e.self + e.children, graphTotal())),
			el('td', { class: 'num' }, fmtCost(e.self)),
			el('td', { class: 'num' }, fmtCost(e.children)),
			el('td', { class: 'num' }, fmtCost(e.inclusive)),
			/* blank where no call was recorded, as -q's */
			el('td', { class: 'num' }, SAMPLED ? fmt(e.samples)
				: (e.calls || e.selfCalls ? fmt(e.calls) : '') +
				(e.selfCalls ? '+' + fmt(e.selfCalls) : '')),
			el('td', null, e.label)));
	/* the callers' and callees' names, told apart */
	const shown = fitSet(arcsIn.map(a => C.caller[a]).concat(
		arcsOut.map(a => C.callee[a])), LINK_CHARS);
	const arcRow = (r, dir) => el('tr', { class: dir },
		el('td', { class: 'num' }, r.inside ? '' : pct(r.sh.incl, r.of)),
		el('td', { class: 'num' }, r.inside ? '' : fmtShare(r.sh.self)),
		el('td', { class: 'num' }, r.inside ? '' : fmtShare(r.sh.child)),
		el('td', { class: 'num' }, r.inside ? '' : fmtShare(r.sh.incl)),
		el('td', { class: 'num' }, SAMPLED ? fmt(r.count) : fmt(r.count) +
			(r.inside ? '' : '/' + fmt(calleeUnit(r.callee).calls))),
		el('td', null, fnLinkFit(r.other, LINK_CHARS, shown.get(r.other)),
			r.inside ? el('span', { class: 'muted' }, ' (within the cycle)') : null));
	const rowsOf = (arcs, dir) => arcs.map(a => {
		const other = dir === 'caller' ? C.caller[a] : C.callee[a];

		return { other, callee: C.callee[a], count: C.count[a],
			inside: sameUnit(other), sh: arcShare(a, C.callee[a]),
			of: dir === 'caller' ? e.unitInclusive : e.inclusive };
	});
	const box = el('div', { class: 'entry-tables' }, own,
		arcTable('caller', rowsOf(arcsIn, 'caller'), arcRow,
			[...costHeads, countHead]),
		arcTable('callee', rowsOf(arcsOut, 'callee'), arcRow,
			[...costHeads, countHead]));

	box.alignTables = () => alignColumns([...box.querySelectorAll('table.entry')]);
	return box;
}

/* Sort keys of an arc's row; one without cost (inside a cycle) last */
const ARC_KEYS = {
	share: r => r.inside ? -1 : r.sh.incl,
	self: r => r.inside ? -1 : r.sh.self,
	children: r => r.inside ? -1 : r.sh.child,
	incl: r => r.inside ? -1 : r.sh.incl,
	count: r => r.count,
	name: r => name(r.other).toLowerCase(),
};

function sortArcRows(rows, how) {
	const key = ARC_KEYS[how.key];
	const dir = how.desc ? -1 : 1;

	return rows.slice().sort((a, b) => {
		const x = key(a), y = key(b);

		if (x < y)
			return -dir;
		if (x > y)
			return dir;
		/* ties as the call graph lists them: cost, count, name */
		return ARC_KEYS.incl(b) - ARC_KEYS.incl(a) || b.count - a.count ||
			(name(a.other) < name(b.other) ? -1 : 1);
	});
}

/* One labelled table of arcs (dir "caller" or "callee"), its headers
 * buttons that sort it: the label and the table. */
function arcTable(dir, rows, arcRow, heads) {
	const how = entrySort[dir];
	const body = el('tbody');
	const cols = ['share', 'self', 'children', 'incl', 'count', 'name'];
	const titles = ['share', ...heads, dir];
	const head = el('tr');
	/* the label above, not a caption: a caption widens a narrow
	 * table to its own width */
	const label = el('p', { class: 'entry-label', id: 'fn-' + dir + 's-label' },
		el('b', null, dir === 'caller' ? 'Callers' : 'Callees'),
		' (' + fmt(rows.length) + ')', el('span', { class: 'muted' },
		/* no "calls": a sampled profile counted none */
		dir === 'caller'
			? ': directly above it on the stack; share: what each ' +
			  'brings of its inclusive cost'
			: ': directly below it on the stack; share: what of its ' +
			  'inclusive cost is spent in each'));
	const t = el('table', { class: 'entry', id: 'fn-' + dir + 's',
		'aria-labelledby': label.id }, el('thead', null, head), body);
	const fill = () => {
		body.textContent = '';
		if (!rows.length)
			body.append(el('tr', { class: dir }, el('td'), el('td'), el('td'),
				el('td'), el('td'), el('td', { class: 'muted' },
				dir === 'caller' ? '<spontaneous>' : 'none')));
		for (const r of sortArcRows(rows, how))
			body.append(arcRow(r, dir));
		head.querySelectorAll('th').forEach((th, k) => {
			const on = cols[k] === how.key;

			th.setAttribute('aria-sort', !on ? 'none'
				: how.desc ? 'descending' : 'ascending');
			th.firstChild.dataset.arrow = on ? (how.desc ? ' \u25bc' : ' \u25b2') : '';
		});
	};

	cols.forEach((c, k) => head.append(el('th',
		{ class: c === 'name' ? null : 'num', 'data-key': c },
		el('button', { class: 'sort', type: 'button', onclick: () => {
			if (how.key === c) {
				how.desc = !how.desc;
			} else {
				how.key = c;
				how.desc = c !== 'name';
			}
			fill();
		} }, titles[k]))));
	fill();
	/* a long table scrolls in a box of its own, so that the one
	 * below it (a function's 7 callees under its 137 callers) is in
	 * sight */
	return el('div', null, label, el('div', { class: 'entry-scroll' }, t));
}

/* Tables one above the other with their first columns as wide as the
 * widest of them, so that their figures end at one edge. */
function alignColumns(tables) {
	const firsts = tables.map(t => t.querySelector('tr'));
	const n = Math.min(...firsts.map(r => r.children.length)) - 1;

	for (const r of firsts)
		for (const c of r.children)
			c.style.width = '';
	for (let k = 0; k < n; k++) {
		const w = Math.max(...firsts.map(r =>
			r.children[k].getBoundingClientRect().width));

		for (const r of firsts) {
			const c = r.children[k];
			const pad = parseFloat(getComputedStyle(c).paddingLeft) +
				parseFloat(getComputedStyle(c).paddingRight);

			/* a cell's width is its column's least */
			c.style.width = Math.ceil(w - pad) + 'px';
		}
	}
}
