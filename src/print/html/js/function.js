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
 * estimate (gmon.out) as the analysis made it; one of whole stacks
 * split exactly, by the self part the page carries, but into a cycle,
 * which is one unit (cg_arc_share()); another measured
 * one (Callgrind) split by the callee's self:total ratio as
 * cg_arc_share() splits it, in the same order of operations, so the
 * rounding is the text's. */
function arcShare(a, callee) {
	const C = calls();
	const incl = C.incl[ev][a];

	if (C.estimated)
		return { self: C.selfShare[a], child: C.childShare[a], incl };
	/* a maximum is not shared: the largest under the call, as
	 * cg_arc_share() */
	if (isMax())
		return { self: incl, child: 0, incl };
	if (C.selfOf && !fnCycle(callee)) {
		const self = Math.min(incl, C.selfOf[ev][a]);

		return { self, child: incl - self, incl };
	}
	const u = calleeUnit(callee);
	const self = u.incl > 0 ? Math.min(incl, incl * (u.self / u.incl)) : 0;

	return { self, child: incl - self, incl };
}

/* A share as the call graph prints it: a measured one rounded to a
 * whole number (print_graph.c's "%.0f"), gmon.out's in seconds. */
function fmtShare(v) {
	return inSeconds() ? fmtCost(v) : group(fixed(v, 0));
}

/* What the entry's "% total" is of: the call graph's base, for
 * gmon.out the time the functions got (print_seconds.c sums their self
 * cost in the same order), else the event's total. */
function graphTotal() {
	if (!calls().estimated)
		return total();
	return timeGot();
}

/* perf.data: the samples that ended in f, of the event shown */
function fnSamples(f) {
	return SAMPLED ? FN.samples[ev][f] : 0;
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
		/* counts are of the whole profile: none under transforms */
		/* not beside pprof's "samples", whose self is that count (as
		 * Top leaves the column out) */
		SAMPLED && !xforms.length && !D.event_info[ev].sample_count
			? ' in ' + counted(fnSamples(f), 'sample') : '',
		', inclusive ', el('b', null, withUnit(fnIncl(f))),
		' (' + pct(fnIncl(f), pathTotal()) + ')',
		/* as the call graph's blank "called": no call was recorded
		 * (main, a thread's start) */
		SAMPLED || xforms.length ? '' : FN.calls[f] ? ', called ' +
			counted(FN.calls[f], 'time') : ', no call recorded',
		!SAMPLED && !xforms.length && FN.self_calls[f] ? ' and ' +
			counted(FN.self_calls[f], 'time') + ' by itself' : '');
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
	where.append(' \u00b7 ', el('a', { href: flameHref('#sandwich/' + f), id: 'fn-sandwich' },
		'sandwich'));
	box.append(el('h2', { id: 'fn-name' }, fullName(f)), where, facts,
		fnXformBar(f) || '');
	if (cyc !== null)
		box.append(el('p', null, 'Part of ', cycleLink(cyc), SAMPLED
			? ': the cycle as a whole has the cost of the stacks through it.'
			: ': calls inside the cycle are counted, their cost is the cycle\'s.'));
	/* under transforms, the arcs of the stacks left (xmenu.js) */
	if (xforms.length) {
		box.append(fnXformEntry(f));
		return box;
	}
	const tables = entryTables({ calls: FN.calls[f], selfCalls: FN.self_calls[f],
			samples: fnSamples(f),
			label: el('span', { title: fullName(f) }, fitName(f, LINK_CHARS)),
			self: fnSelf(f), children: fnChildren(f), inclusive: fnIncl(f),
			unitInclusive: calleeUnit(f).incl },
		calls().callersOf[f], calls().calleesOf[f], same);

	/* the calls from and to functions the report leaves out (cut.js) */
	box.append(cutLine(calls().cutCallers[f], ['caller', 'callers'],
		'fn-more-callers') || '', tables, cutLine(calls().cutCallees[f],
		['callee', 'callees'], 'fn-more-callees') || '');
	box.redraw = tables.alignTables;
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
	const tables = entryTables({ calls: c.calls, selfCalls: c.internal_calls,
			/* none where the report left members out (cut.js): the
			 * sum of those it has would be less */
			samples: c.more_members ? undefined
				: c.members.reduce((s, m) => s + fnSamples(m), 0),
			label: cycleName(n), self: c.self[ev],
			children: C.cycleChildren[n - 1][ev],
			inclusive: c.inclusive[ev], unitInclusive: c.inclusive[ev] },
		arcsIn, arcsOut, () => false);
	let samples = 0;

	for (const m of c.members) {
		list.append(el('li', null, fnLink(m), ' self ' + withUnit(fnSelf(m)) +
			(SAMPLED ? ' in ' + counted(fnSamples(m), 'sample') : '')));
		samples += fnSamples(m);
	}
	if (c.more_members)
		list.append(el('li', null, cutLine(c.more_members, ['member', 'members'], 'cycle-more')));
	box.append(el('h2', null, cycleName(n)),
		el('p', null, 'self ', el('b', null, withUnit(c.self[ev])), ', inclusive ',
			el('b', null, withUnit(c.inclusive[ev])), SAMPLED
			? ', ' + fmt(samples) + ' samples in its members' +
			  (c.more_members ? ' in this report' : '')
			: ', called ' + fmt(c.calls) + ' times from outside, ' +
			  fmt(c.internal_calls) + ' times inside'),
		el('p', null, 'Members:'), list,
		el('p', null, el('a', { href: flameHref('#sandwich/-' + n), id: 'fn-sandwich' },
			'sandwich'), ': its callers and callees as flame graphs'),
		tables);
	box.redraw = tables.alignTables;
	return box;
}
