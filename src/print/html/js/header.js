/* The header */

/* this many events or fewer are listed open */
const EVENTS_OPEN = 3;

function drawHeader() {
	const h = document.getElementById('head');
	const inputs = el('table');
	const events = el('table');

	for (const i of D.inputs)
		inputs.append(el('tr', null,
			el('td', null, i.path || ''),
			el('td', null, i.format || ''),
			el('td', null, i.creator || ''),
			el('td', null, i.cmd || '')));
	/* each event's total in the unit the listings give it (gmon.out's
	 * "0.92 in all" seconds, perf's nanoseconds), and perf's Samples */
	D.event_info.forEach((e, k) => {
		/* a maximum's total is its largest value (the text's
		 * "the largest N") */
		/* pprof's "samples": its total is the samples' count, said
		 * once (--json's "sample_count") */
		const note = e.sample_count ? 'the samples counted' +
			(e.unit_seconds ? ', each ' + e.unit_seconds + ' s' : '')
			: isMax(k) ? 'the largest: a maximum, not a sum'
			: inSeconds(k) ? fmt(D.totals[k]) + ' ticks of ' +
			e.unit_seconds + ' s'
			: e.unit_seconds ? '1 unit = ' + e.unit_seconds + ' s' : '';

		events.append(el('tr', null,
			el('td', null, e.name),
			el('td', null, e.long_name || ''),
			el('td', { class: 'num' }, withUnit(D.totals[k], k)),
			el('td', { class: 'num' }, SAMPLED && !e.sample_count ?
				fmt(e.samples) + ' samples' : ''),
			el('td', { class: 'muted' }, note)));
	});
	h.append(el('h1', null, 'cganalyze: ' +
		D.inputs.map(i => i.path).join(', ')));
	/* many events (a cache simulation's 13) would push the view below
	 * the fold: then the one shown stands in the summary, the rest
	 * behind it */
	const many = D.event_info.length > EVENTS_OPEN;
	const shown = el('span', { id: 'event-total' });
	const showTotal = () => {
		/* in its unit, as the flat profile's title ("205,289 bytes
		 * in all"; fmt() left a heap profile's bytes unsaid) */
		shown.textContent = many ? ': ' + EV[ev] + ' ' + withUnit(D.totals[ev]) +
			' (' + D.event_info.length + ' events)' : '';
		[...events.rows].forEach((r, k) =>
			r.classList.toggle('on', k === ev && EV.length > 1));
	};

	showTotal();
	h.append(el('details', { id: 'events', open: many ? null : '' },
		el('summary', null, 'Events and totals', shown), events));
	h.append(el('details', null,
		el('summary', null, 'Inputs (' + D.inputs.length + ')'), inputs));
	if (D.binaries.length) {
		const b = el('table');

		for (const x of D.binaries)
			b.append(el('tr', null,
				el('td', null, x.path),
				el('td', null, x.object || ''),
				el('td', null, 'load offset ' + hex(x.load_offset)),
				el('td', { class: 'muted' }, x.load_offset_reason)));
		h.append(el('details', null,
			el('summary', null, 'Binaries (' + D.binaries.length + ')'), b));
	}
	if (D.warnings) {
		const lines = D.warnings.split('\n').filter(x => x);
		const n = lines.length;
		/* a warning says the numbers may not be what they seem (a
		 * cut file, stacks cut short): shown open, not folded away
		 * among the notes */
		const w = lines.filter(x => /^cganalyze: (\S+: )?warning: /
					   .test(x)).length;
		const d = el('details', { id: 'warnings' },
			el('summary', null, 'Messages of the run (' + n +
			   (w ? ', ' + w + (w > 1 ? ' warnings' : ' warning')
			      : '') + ')'),
			el('pre', null, D.warnings));

		if (w)
			d.open = true;
		h.append(d);
	}
	/* the event every view shows */
	const pick = el('select', { id: 'event', onchange: () => {
		ev = Number(pick.value);
		showTotal();
		/* a zoomed frame is a node of the other event's tree */
		if (/^#(flame|icicle)\/./.test(location.hash))
			location.hash = location.hash.replace(/\/[^&]*/, '');
		else
			route();
	} });
	EV.forEach((e, k) => pick.append(el('option', { value: k }, e)));
	pick.value = ev;
	/* the word goes in a narrow window (report.css), the select stays
	 * named */
	pick.setAttribute('aria-label', 'Event');
	document.getElementById('tabs').append(
		el('label', null, el('span', { class: 'ev-word' }, 'Event: '),
		   pick));
}
