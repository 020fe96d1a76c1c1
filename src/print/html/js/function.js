/* Function: gprof's call graph entry */

/* The self and inclusive cost of f, or of its cycle when it has one:
 * what an arc into it is split by. */
function calleeUnit(f) {
	const c = fnCycle(f) ? calls().cycleByNumber[fnCycle(f)] : null;

	return c ? { self: c.self[ev], incl: c.inclusive[ev], calls: c.calls }
		 : { self: fnSelf(f), incl: fnIncl(f), calls: FN.calls[f] };
}

/* f's children as the call graph prints them (cg_node_child()): for a
 * cycle member whose children the graph worked out from arcs, those
 * leaving the cycle only (html_data.c's put_children()) */
function fnChildren(f) {
	const c = FN.children[f];

	return c ? c[ev] : fnIncl(f) - fnSelf(f);
}

/* An arc's share of its callee's cost, as the call graph prints it: an
 * estimate (gmon.out) as the analysis made it; a measured one split by
 * the callee's self:total ratio as cg_arc_share() splits it, in the
 * same order of operations, so the rounding is the text's. */
function arcShare(a, callee) {
	const C = calls();
	const incl = C.incl[ev][a];

	if (C.estimated)
		return { self: C.selfShare[a], child: C.childShare[a], incl };
	/* a maximum is not shared: the largest under the call, as
	 * cg_arc_share() */
	if (isMax())
		return { self: incl, child: 0, incl };
	const u = calleeUnit(callee);
	const self = u.incl > 0 ? Math.min(incl, incl * (u.self / u.incl)) : 0;

	return { self, child: incl - self, incl };
}

/* A share as the call graph prints it: a measured one rounded to a
 * whole number (print_graph.c's "%.0f"), gmon.out's in seconds. */
function fmtShare(v) {
	return inSeconds() ? fmtCost(v) : group(fixed(v, 0));
}

/*
 * gprof's call graph entry: callers above, the entry's own line, then
 * callees; each arc's inclusive cost split into the callee's self and
 * children (arcShare()), and "called" as count/the callee's calls. Arcs
 * inside a cycle are counted only: their cost is the cycle's. A sampled
 * profile (perf.data) counted no calls: no "called" column, as in the
 * text's call graph (print_graph.c says why); its samples are in the
 * line above the table.
 */
/* What the entry's "% total" is of: the call graph's base, for
 * gmon.out the time the functions got (print_seconds.c sums their self
 * cost in the same order), else the event's total. */
function graphTotal() {
	if (!calls().estimated)
		return total();
	let t = 0;

	for (let f = 0; f < NF; f++)
		t += fnSelf(f);
	return t;
}

function entryTable(f, arcsIn, arcsOut, sameUnit) {
	const tot = graphTotal();
	const u = unitOf();
	const t = el('table', { class: 'entry' }, el('tr', null,
		el('th', { class: 'num' }, calls().estimated ? '% time' : '% total'),
		el('th', { class: 'num' }, u ? 'self (' + u + ')' : 'self'),
		el('th', { class: 'num' }, 'children'), el('th', { class: 'num' }, 'inclusive'),
		SAMPLED ? null : el('th', { class: 'num' }, 'called'),
		el('th', null, 'function')));
	const C = calls();
	/* the callers' and callees' names, told apart */
	const shown = fitSet(arcsIn.map(a => C.caller[a]).concat(
		arcsOut.map(a => C.callee[a])), LINK_CHARS);
	const arcRow = (a, other, callee, dir) => {
		const inside = sameUnit(other);
		const sh = arcShare(a, callee);

		return el('tr', { class: dir }, el('td'),
			el('td', { class: 'num' }, inside ? '' : fmtShare(sh.self)),
			el('td', { class: 'num' }, inside ? '' : fmtShare(sh.child)),
			el('td', { class: 'num' }, inside ? '' : fmtShare(sh.incl)),
			SAMPLED ? null : el('td', { class: 'num' }, fmt(C.count[a]) +
				(inside ? '' : '/' + fmt(calleeUnit(callee).calls))),
			el('td', null, fnLinkFit(other, LINK_CHARS, shown.get(other)),
				inside ? el('span', { class: 'muted' }, ' (within the cycle)') : null));
	};

	if (!arcsIn.length)
		t.append(el('tr', { class: 'caller' }, el('td'), el('td'), el('td'),
			el('td'), SAMPLED ? null : el('td'),
			el('td', { class: 'muted' }, '<spontaneous>')));
	for (const a of arcsIn)
		t.append(arcRow(a, C.caller[a], C.callee[a], 'caller'));
	t.append(el('tr', { class: 'primary' },
		/* as the text's %total: self + children (a cycle member's
		 * children may leave the calls inside the cycle out); of a
		 * maximum, whose children are the largest of the calls, the
		 * inclusive, the larger of the two */
		el('td', { class: 'num' }, pct(isMax() ? f.inclusive
						: f.self + f.children, tot)),
		el('td', { class: 'num' }, fmtCost(f.self)),
		el('td', { class: 'num' }, fmtCost(f.children)),
		el('td', { class: 'num' }, fmtCost(f.inclusive)),
		SAMPLED ? null : el('td', { class: 'num' }, fmt(f.calls) +
			(f.selfCalls ? '+' + fmt(f.selfCalls) : '')),
		el('td', null, f.label)));
	for (const a of arcsOut)
		t.append(arcRow(a, C.callee[a], C.callee[a], 'callee'));
	return t;
}

/* perf.data: the samples that ended in f, of the event shown */
function fnSamples(f) {
	return SAMPLED ? FN.samples[ev][f] : 0;
}

function byCost(list) {
	const C = calls();

	return list.slice().sort((a, b) =>
		C.incl[ev][b] - C.incl[ev][a] || C.count[b] - C.count[a]);
}

function viewFunction(f) {
	if (!(f >= 0 && f < NF)) {
		/* none chosen yet: the program's own heaviest function, not
		 * the loader's entry (html_data.c, start_function.h) */
		f = D.start_function;
		if (!(f >= 0 && f < NF))
			return el('p', null, 'The profile has no functions.');
	}
	const cyc = fnCycle(f);
	const same = other => cyc !== null && fnCycle(other) === cyc || other === f;
	const box = el('div', { id: 'function' });
	const facts = el('p', null,
		'self ', el('b', null, withUnit(fnSelf(f))), ' (' + pct(fnSelf(f), total()) + ')',
		SAMPLED ? ' in ' + fmt(fnSamples(f)) + ' samples' : '',
		', inclusive ', el('b', null, withUnit(fnIncl(f))),
		' (' + pct(fnIncl(f), total()) + ')',
		/* as the call graph's blank "called": no call was recorded
		 * (main, a thread's start) */
		SAMPLED ? '' : FN.calls[f] ? ', called ' + fmt(FN.calls[f]) +
			(FN.calls[f] === 1 ? ' time' : ' times') : ', no call recorded',
		!SAMPLED && FN.self_calls[f] ? ' and ' + fmt(FN.self_calls[f]) + ' times by itself' : '');
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
		where.append(' in ', el('span',
			{ id: 'fn-object', title: fnObject(f) }, baseName(fnObject(f))));
	if (K.disasmOf[f] !== undefined)
		where.append(' \u00b7 ', el('a', { href: '#disasm/' + K.disasmOf[f] }, 'disassembly'));
	box.append(el('h2', { id: 'fn-name' }, fullName(f)), where, facts);
	if (cyc !== null)
		box.append(el('p', null, 'Part of ', cycleLink(cyc), SAMPLED
			? ': the cycle as a whole has the cost of the stacks through it.'
			: ': calls inside the cycle are counted, their cost is the cycle\'s.'));
	box.append(entryTable({ calls: FN.calls[f], selfCalls: FN.self_calls[f],
				label: el('span', { title: fullName(f) }, fitName(f, LINK_CHARS)),
				self: fnSelf(f), children: fnChildren(f), inclusive: fnIncl(f) },
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
	let samples = 0;

	for (const m of c.members) {
		list.append(el('li', null, fnLink(m), ' self ' + withUnit(fnSelf(m)) +
			(SAMPLED ? ' in ' + fmt(fnSamples(m)) + ' samples' : '')));
		samples += fnSamples(m);
	}
	box.append(el('h2', null, cycleName(n)),
		el('p', null, 'self ', el('b', null, withUnit(c.self[ev])), ', inclusive ',
			el('b', null, withUnit(c.inclusive[ev])), SAMPLED
			? ', ' + fmt(samples) + ' samples in its members'
			: ', called ' + fmt(c.calls) + ' times from outside, ' +
			  fmt(c.internal_calls) + ' times inside'),
		el('p', null, 'Members:'), list,
		entryTable({ calls: c.calls, selfCalls: c.internal_calls,
			     label: cycleName(n), self: c.self[ev],
			     children: C.cycleChildren[n - 1][ev],
			     inclusive: c.inclusive[ev] },
			byCost(arcsIn), byCost(arcsOut), () => false));
	return box;
}
