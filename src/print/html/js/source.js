/* Annotated source */

function viewSource(k, line) {
	const K = code();
	const sources = K.sources;

	if (!sources.length)
		return el('p', { id: 'source-none' }, K.annotated
			? 'No source file of the profile was found above the threshold ' +
			  'to embed (-I DIR or --source-map OLD=NEW say where they are).'
			: 'The profile has no source lines.');
	k = k >= 0 && k < sources.length ? k : 0;
	const src = sources[k];
	const costs = K.linesByFile[src.path] || {};
	const rows = [];
	let max = 0;

	src.lines.forEach((text, i) => {
		const l = costs[i + 1];

		rows.push({ line: i + 1, text: text, cost: l ? l.cost[ev] : null });
		if (l && l.cost[ev] > max)
			max = l.cost[ev];
		for (const c of l ? l.calls : [])
			rows.push({ call: c });
	});
	const pick = el('select', { id: 'source-file', onchange: () => {
		location.hash = '#source/' + pick.value;
	} });
	sources.forEach((s, i) => pick.append(el('option', { value: i }, s.path)));
	pick.value = k;
	const tot = total();
	const table = vtable(rows, 'src-grid', r => {
		if (r.call)
			return cells('', numCell(r.call.inclusive[ev]),
				el('span', { class: 'num' }, pct(r.call.inclusive[ev], tot)),
				el('span', { class: 'callrow' }, '\u2192 ', fnLink(r.call.callee),
					' \u00d7' + fmt(r.call.count)));
		const row = cells(el('span', { class: 'num muted' }, r.line),
			numCell(r.cost, r.cost ? heat(r.cost, max) : ''),
			el('span', { class: 'num' }, r.cost ? pct(r.cost, tot) : ''),
			el('span', { class: 'code' }, r.text));

		row.dataset.line = r.line;
		if (r.line === line)
			row.classList.add('here');
		return row;
	});
	table.id = 'source-table';
	const box = el('div', null, el('div', { class: 'controls' }, pick,
		el('span', { class: 'muted' }, 'cost per line of ' + EV[ev] +
			'; calls below their line with their inclusive cost')),
		el('div', { class: 'hdr src-grid' }, el('span', null, 'line'),
			el('span', { class: 'num' }, EV[ev]), el('span', { class: 'num' }, '%'),
			el('span', null, 'source')), table);
	if (line)
		requestAnimationFrame(() => table.scrollToRow(
			rows.findIndex(r => r.line === line)));
	return box;
}
