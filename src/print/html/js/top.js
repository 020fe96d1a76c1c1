/* Top: the flat profile */

const topState = { col: 'self', desc: true, filter: '' };
const topColumns = [
	{ key: 'self', title: 'self', v: fnSelf },
	{ key: 'selfpct', title: '%', v: fnSelf },
	{ key: 'incl', title: 'inclusive', v: fnIncl },
	{ key: 'inclpct', title: '%', v: fnIncl },
	/* a sampled profile (perf.data) counted no calls: its samples, as
	 * the flat profile's column */
	SAMPLED ? { key: 'samples', title: 'samples', v: f => FN.samples[ev][f] }
		: { key: 'calls', title: 'calls', v: f => FN.calls[f] },
	{ key: 'name', title: 'function', v: f => name(f) },
	{ key: 'file', title: 'file', v: f => fnFile(f) || '' },
	{ key: 'object', title: 'object', v: f => fnObject(f) || '' },
];

function sortedRows() {
	const col = topColumns.find(c => c.key === topState.col);
	let rows = Array.from({ length: NF }, (x, f) => f);

	if (topState.filter) {
		const m = funcMatcher(topState.filter);

		rows = m ? rows.filter(m) : [];
	}
	const key = rows.map(col.v);
	const idx = rows.map((x, i) => i);
	const dir = topState.desc ? -1 : 1;

	idx.sort((a, b) => {
		const x = key[a], y = key[b];

		if (x < y)
			return -dir;
		if (x > y)
			return dir;
		/* ties as the flat profile: self cost, then name */
		return fnSelf(rows[b]) - fnSelf(rows[a]) ||
			(name(rows[a]) < name(rows[b]) ? -1 : 1);
	});
	return idx.map(i => rows[i]);
}

function viewTop() {
	const box = el('div');
	const filter = el('input', { type: 'search', id: 'filter',
		placeholder: 'filter as -p: a function, file or object, FILE:FUNC (std::*, *.c)',
		value: topState.filter });
	const count = el('span', { class: 'muted', id: 'top-count' });
	const hdr = el('div', { class: 'hdr top-grid', id: 'top-head' });
	let table;

	function redraw() {
		const rows = sortedRows();
		const tot = total();

		count.textContent = rows.length + ' of ' + NF + ' functions';
		const t = vtable(rows, 'top-grid', f => cells(
			costCell(fnSelf(f)),
			el('span', { class: 'num' }, pct(fnSelf(f), tot)),
			costCell(fnIncl(f)),
			el('span', { class: 'num' }, pct(fnIncl(f), tot)),
			numCell(SAMPLED ? FN.samples[ev][f] : FN.calls[f]),
			el('span', null, fnLink(f)),
			el('span', { class: 'muted', title: fnFile(f) || '' },
				(fnFile(f) || '') + (fnLine(f) ? ':' + fnLine(f) : '')),
			el('span', { class: 'muted', title: fnObject(f) || '' },
				fnObject(f) || '')));

		t.id = 'top-table';
		if (table)
			table.replaceWith(t);
		else
			box.append(t);
		table = t;
		for (const s of hdr.children) {
			s.classList.toggle('sorted', s.dataset.key === topState.col);
			s.classList.toggle('up', !topState.desc);
		}
	}
	for (const c of topColumns)
		hdr.append(el('span', { 'data-key': c.key,
			class: ['self', 'selfpct', 'incl', 'inclpct', 'calls',
				'samples'].includes(c.key) ? 'num' : '',
			onclick: () => {
				if (topState.col === c.key)
					topState.desc = !topState.desc;
				else {
					topState.col = c.key;
					topState.desc = !['name', 'file', 'object']
						.includes(c.key);
				}
				redraw();
			} }, c.title + (['self', 'incl'].includes(c.key) &&
				unitOf() ? ' (' + unitOf() + ')' : '')));
	filter.addEventListener('input', () => {
		topState.filter = filter.value.trim();
		redraw();
	});
	box.append(el('div', { class: 'controls' }, filter, count), hdr);
	redraw();
	return box;
}
