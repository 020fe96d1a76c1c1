/* Function: gprof's call graph entry */

/* The self and inclusive cost of f, or of its cycle when it has one:
 * what an arc into it is split by. */
function calleeUnit(f) {
	const c = fnCycle(f) ? calls().cycleByNumber[fnCycle(f)] : null;

	return c ? { self: c.self[ev], incl: c.inclusive[ev], calls: c.calls }
		 : { self: fnSelf(f), incl: fnIncl(f), calls: FN.calls[f] };
}

/*
 * gprof's call graph entry: callers above, the entry's own line, then
 * callees; each arc's inclusive cost split into the callee's self and
 * children in the callee's own proportion (cg_arc_share()), and
 * "called" as count/the callee's calls. Arcs inside a cycle are
 * counted only: their cost is the cycle's.
 */
function entryTable(f, arcsIn, arcsOut, sameUnit) {
	const tot = total();
	const t = el('table', { class: 'entry' }, el('tr', null,
		el('th', { class: 'num' }, '% total'), el('th', { class: 'num' }, 'self'),
		el('th', { class: 'num' }, 'children'), el('th', { class: 'num' }, 'inclusive'),
		el('th', { class: 'num' }, 'called'), el('th', null, 'function')));
	const C = calls();
	const arcRow = (a, other, callee, dir) => {
		const inside = sameUnit(other);
		const u = calleeUnit(callee);
		const incl = C.incl[ev][a];
		const self = u.incl > 0 ? Math.min(incl, incl * u.self / u.incl) : 0;

		return el('tr', { class: dir }, el('td'),
			el('td', { class: 'num' }, inside ? '' : fmt(self)),
			el('td', { class: 'num' }, inside ? '' : fmt(incl - self)),
			el('td', { class: 'num' }, inside ? '' : fmt(incl)),
			el('td', { class: 'num' }, fmt(C.count[a]) +
				(inside ? '' : '/' + fmt(u.calls))),
			el('td', null, fnLink(other),
				inside ? el('span', { class: 'muted' }, ' (within the cycle)') : null));
	};

	if (!arcsIn.length)
		t.append(el('tr', { class: 'caller' }, el('td'), el('td'), el('td'),
			el('td'), el('td'), el('td', { class: 'muted' }, '<spontaneous>')));
	for (const a of arcsIn)
		t.append(arcRow(a, C.caller[a], C.callee[a], 'caller'));
	t.append(el('tr', { class: 'primary' },
		el('td', { class: 'num' }, pct(f.inclusive, tot)),
		el('td', { class: 'num' }, fmt(f.self)),
		el('td', { class: 'num' }, fmt(f.inclusive - f.self)),
		el('td', { class: 'num' }, fmt(f.inclusive)),
		el('td', { class: 'num' }, fmt(f.calls) +
			(f.selfCalls ? '+' + fmt(f.selfCalls) : '')),
		el('td', null, f.label)));
	for (const a of arcsOut)
		t.append(arcRow(a, C.callee[a], C.callee[a], 'callee'));
	return t;
}

function byCost(list) {
	const C = calls();

	return list.slice().sort((a, b) =>
		C.incl[ev][b] - C.incl[ev][a] || C.count[b] - C.count[a]);
}

function viewFunction(f) {
	if (!(f >= 0 && f < NF)) {
		/* none chosen yet: the one of the highest inclusive cost */
		f = -1;
		for (let i = 0; i < NF; i++)
			if (f < 0 || fnIncl(i) > fnIncl(f))
				f = i;
		if (f < 0)
			return el('p', null, 'The profile has no functions.');
	}
	const cyc = fnCycle(f);
	const same = other => cyc !== null && fnCycle(other) === cyc || other === f;
	const box = el('div', { id: 'function' });
	const facts = el('p', null,
		'self ', el('b', null, fmt(fnSelf(f))), ' (' + pct(fnSelf(f), total()) + ')',
		', inclusive ', el('b', null, fmt(fnIncl(f))),
		' (' + pct(fnIncl(f), total()) + ')',
		', called ' + fmt(FN.calls[f]) + ' times',
		FN.self_calls[f] ? ' and ' + fmt(FN.self_calls[f]) + ' times by itself' : '');
	const where = el('p', { class: 'muted' });
	const file = fnFile(f), line = fnLine(f);
	const K = code();

	if (file) {
		const k = K.sourceByPath[file];
		const at = file + (line ? ':' + line : '');

		where.append(k !== undefined
			? el('a', { href: '#source/' + k + (line ? '/' + line : '') }, at) : at);
	}
	if (fnObject(f))
		where.append(' in ' + fnObject(f));
	if (K.disasmOf[f] !== undefined)
		where.append(' \u00b7 ', el('a', { href: '#disasm/' + K.disasmOf[f] }, 'disassembly'));
	box.append(el('h2', { id: 'fn-name' }, name(f)), where, facts);
	if (cyc !== null)
		box.append(el('p', null, 'Part of ', cycleLink(cyc),
			': calls inside the cycle are counted, their cost is the cycle\'s.'));
	box.append(entryTable({ calls: FN.calls[f], selfCalls: FN.self_calls[f],
				label: name(f), self: fnSelf(f), inclusive: fnIncl(f) },
		byCost(calls().callersOf[f]), byCost(calls().calleesOf[f]), same));
	return box;
}

function viewCycle(n) {
	const C = calls();
	const c = C.cycleByNumber[n];

	if (!c)
		return el('p', null, 'No cycle ' + n + '.');
	const members = new Set(c.members);
	const arcsIn = [], arcsOut = [];

	for (const m of c.members) {
		for (const a of C.callersOf[m])
			if (!members.has(C.caller[a]))
				arcsIn.push(a);
		for (const a of C.calleesOf[m])
			if (!members.has(C.callee[a]))
				arcsOut.push(a);
	}
	const box = el('div', { id: 'function' });
	const list = el('ul');

	for (const m of c.members)
		list.append(el('li', null, fnLink(m), ' self ' + fmt(fnSelf(m))));
	box.append(el('h2', null, cycleName(n)),
		el('p', null, 'self ', el('b', null, fmt(c.self[ev])), ', inclusive ',
			el('b', null, fmt(c.inclusive[ev])), ', called ' + fmt(c.calls) +
			' times from outside, ' + fmt(c.internal_calls) + ' times inside'),
		el('p', null, 'Members:'), list,
		entryTable({ calls: c.calls, selfCalls: c.internal_calls,
			     label: cycleName(n), self: c.self[ev],
			     inclusive: c.inclusive[ev] },
			byCost(arcsIn), byCost(arcsOut), () => false));
	return box;
}
