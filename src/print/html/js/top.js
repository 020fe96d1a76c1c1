/* Top: the flat profile */

const topState = { col: 'self', desc: true, filter: '' };
const topColumns = [
	{ key: 'self', title: 'self', v: fnSelf, cost: true },
	{ key: 'selfpct', title: '%', v: fnSelf },
	{ key: 'incl', title: 'inclusive', v: fnIncl, cost: true },
	{ key: 'inclpct', title: '%', v: fnIncl },
	/* a sampled profile (perf.data) counted no calls: its samples, as
	 * the flat profile's column */
	SAMPLED ? { key: 'samples', title: 'samples', v: f => FN.samples[ev][f] }
		: { key: 'calls', title: 'calls', v: f => FN.calls[f] },
	{ key: 'name', title: 'function', v: f => name(f) },
	/* as the cell reads, "prog.c:18": by file, then line */
	{ key: 'file', title: 'file', v: f => (fnFile(f) || '') + '\u0000' +
		String(fnLine(f) || 0).padStart(10, '0') },
	{ key: 'object', title: 'object', v: f => fnObject(f) || '' },
];

/* A function's calls as the flat profile prints them (fmt_calls()):
 * none blank, its calls of itself after a "+" (valgrind's fib'2:
 * "2+9,996"); gmon.out's listing, gprof's, has the calls alone */
function callsText(f) {
	const c = FN.calls[f], r = inSeconds() ? 0 : FN.self_calls[f];

	return (c || r ? fmt(c) : '') + (r ? '+' + fmt(r) : '');
}

/* The columns shown: a sampled profile's samples, but not beside an
 * event that is their count (pprof's "samples": its self says it, as
 * the flat profile leaves the column out) */
function topShown() {
	return D.event_info[ev].sample_count
		? topColumns.filter(c => c.key !== 'samples') : topColumns;
}

/* A column's title, a cost's with its unit ("self (ns)"). */
function topTitle(c) {
	return c.title + (c.cost && unitOf() ? ' (' + unitOf() + ')' : '');
}

/* the rows the filter leaves, and what it did with the text */
function sortedRows() {
	const col = topShown().find(c => c.key === topState.col) || topColumns[0];
	const { rows: matched, how } = filterRows(topState.filter);
	/* under transforms, the functions left in view (transform.js) */
	const rows = xforms.length ? matched.filter(inView) : matched;

	topState.how = how;
	/* ties as the flat profile: self cost, then name */
	return sortRows(rows, col.v, topState.desc, (a, b) =>
		fnSelf(b) - fnSelf(a) || (name(a) < name(b) ? -1 : 1));
}
/* rows by v(row) (each computed once), largest first when desc, ties
 * by tie(row, row); also the diff page's Top (difftop.js) */
function sortRows(rows, v, desc, tie) {
	const key = rows.map(v);
	const idx = rows.map((x, i) => i);
	const dir = desc ? -1 : 1;

	idx.sort((a, b) => {
		const x = key[a], y = key[b];

		if (x < y)
			return -dir;
		if (x > y)
			return dir;
		return tie(rows[a], rows[b]);
	});
	return idx.map(i => rows[i]);
}
/* A click on column key's title: the other way when it is the column
 * sorted by, else by it, numbers largest first and text from A */
function sortClick(state, key, text) {
	if (state.col === key) {
		state.desc = !state.desc;
	} else {
		state.col = key;
		state.desc = !text;
	}
}

/* The columns' widths: each number's as wide as its longest figure
 * (the largest value's) or its title, so that none is cut and every
 * title shows at 800 px; name, file and object share the rest, the
 * name most. Measured in px: the header is
 * bold and the rows are not, so no font-relative unit fits both. */
const TEXT_COLUMNS = {
	name: 'minmax(10em, 4fr)',
	file: 'minmax(4em, 2fr)',
	object: 'minmax(4em, 1.3fr)',
};
function textWidth(text, bold) {
	const probe = el('span', { class: 'num' }, text);

	probe.style.cssText = 'position: absolute; visibility: hidden; ' +
		'font-weight: ' + (bold ? 'bold' : 'normal');
	document.body.append(probe);
	const w = probe.getBoundingClientRect().width;

	probe.remove();
	return w;
}
/* by event and transforms: a filter keeps the widths */
const topTemplates = {};
function topTemplate() {
	const key = ev + xformKey;

	if (!topTemplates[key])
		topTemplates[key] = measureTop();
	return topTemplates[key];
}
function measureTop() {
	return topShown().map(c => {
		if (TEXT_COLUMNS[c.key])
			return TEXT_COLUMNS[c.key];
		/* a column of text this does not know */
		if (NF && typeof c.v(0) !== 'number')
			return 'minmax(4em, 1fr)';
		let widest = ['100.00%'];

		if (c.key === 'calls') {
			/* "2+9,996": the longest texts, not the largest
			 * number; "+" and "," are narrower or wider than a
			 * digit, so each shape of the longest two lengths is
			 * measured ("42+49,107" is wider than "1,296,016") */
			const texts = [];
			let most = 0;

			for (let f = 0; f < NF; f++) {
				const t = callsText(f);

				most = Math.max(most, t.length);
				if (t.length + 1 >= most)
					texts.push(t);
			}
			widest = [...new Set(texts.filter(t => t.length + 1 >= most)
				.map(t => t.replace(/\d/g, '0')))].concat(widest);
		} else if (!c.key.endsWith('pct')) {
			let max = 0;

			for (let f = 0; f < NF; f++)
				max = Math.max(max, c.v(f) || 0);
			widest = [c.cost ? fmtCost(max) : fmt(max)];
		}
		/* the title with its sort mark; the cells' padding */
		return Math.ceil(Math.max(...widest.map(t => textWidth(t, false)),
			textWidth(topTitle(c) + ' \u25BC', true)) + 10) + 'px';
	}).join(' ');
}

/* The object's file name; the path on hover. */
function objectCell(f) {
	const path = fnObject(f) || '';

	return el('span', { class: 'muted', title: path }, baseName(path));
}

function viewTop() {
	const box = el('div');
	const filter = el('input', { type: 'search', id: 'filter',
		placeholder: 'as -p (std::*, prog.c:42) or part of a name',
		title: 'As -p SPEC: a name or glob (std::*, *.c), a file or object, ' +
			'FILE:FUNC, FILE:LINE. A word that names nothing finds the ' +
			'names containing it.',
		value: topState.filter });
	const count = el('span', { class: 'muted', id: 'top-count' });
	const how = el('div', { class: 'muted', id: 'filter-how' });
	const more = el('div');
	const hdr = el('div', { class: 'hdr top-grid', id: 'top-head' });
	const shortBox = el('input', { type: 'checkbox', id: 'short-names' });
	let table, nameMax = 0;	/* characters the name column shows; 0: unknown */
	let fitted = new Map();	/* the rows a paint draws: their names */

	/* the names fit the column once it has a width, and again when
	 * the window's changes it */
	function fit() {
		/* a row's cell: the header's spans the scroll bar too */
		const m = table && charsIn(table.querySelector('.row .fname'));

		if (m && m !== nameMax && table) {
			nameMax = m;
			table.paint();
		}
	}

	function redraw() {
		const rows = sortedRows();
		const tot = total(), pathTot = pathTotal();

		count.textContent = rows.length + ' of ' + NF + ' functions';
		how.textContent = topState.how;
		/* the functions the report leaves out (cut.js): a filter
		 * cannot find them either */
		more.replaceChildren(...[topState.filter ? cutSearchLine('top-more')
			: cutLine(CUT && CUT.more, ['function', 'functions'], 'top-more')]
			.filter(x => x));
		const counts = topShown().some(c => c.key === 'samples' ||
			c.key === 'calls');
		const t = vtable(rows, 'top-grid', f => cells(
			costCell(fnSelf(f)),
			el('span', { class: 'num' }, pct(fnSelf(f), tot)),
			costCell(fnIncl(f)),
			el('span', { class: 'num' }, pct(fnIncl(f), pathTot)),
			/* counts are of the whole profile: none under transforms */
			...(counts ? [xforms.length ? numCell(undefined)
				: SAMPLED ? numCell(FN.samples[ev][f])
				: el('span', { class: 'num' }, callsText(f))] : []),
			el('span', { class: 'fname' }, fnLinkFit(f, nameMax, fitted.get(f))),
			el('span', { class: 'muted', title: fnFile(f) || '' },
				(fnFile(f) || '') + (fnLine(f) ? ':' + fnLine(f) : '')),
			objectCell(f)),
			(first, last) => {
				/* the names of the rows drawn, told apart */
				fitted = fitSet(rows.slice(first, last), nameMax);
			}, true);

		t.id = 'top-table';
		box.style.setProperty('--top-columns', topTemplate());
		if (table)
			table.replaceWith(t);
		else
			box.append(t);
		table = t;
		requestAnimationFrame(fit);
		for (const s of hdr.children) {
			s.classList.toggle('sorted', s.dataset.key === topState.col);
			s.classList.toggle('up', !topState.desc);
		}
	}
	for (const c of topShown())
		hdr.append(el('span', { 'data-key': c.key,
			class: ['self', 'selfpct', 'incl', 'inclpct', 'calls',
				'samples'].includes(c.key) ? 'num' : '',
			onclick: () => {
				sortClick(topState, c.key,
					['name', 'file', 'object'].includes(c.key));
				redraw();
			} }, topTitle(c)));
	sortTitles(hdr, 'top');
	/* a large profile's filter takes a second or more (-p's seven
	 * forms of each name): it waits for a pause in the typing */
	let typing;
	filter.addEventListener('input', () => {
		clearTimeout(typing);
		typing = setTimeout(() => {
			topState.filter = filter.value.trim();
			redraw();
		}, NF > 100000 ? 300 : 0);
	});
	shortBox.checked = shortNames;
	shortBox.addEventListener('change', () => {
		shortNames = shortBox.checked;
		redraw();
	});
	window.addEventListener('resize', () => {
		if (box.isConnected)
			fit();
	});
	box.append(el('div', { class: 'controls' }, filter, count,
		el('label', { title: 'names as --short-names shows them: ' +
			'template arguments <...> and parameters (...)' },
			shortBox, ' short names')), how, more, hdr);
	redraw();
	return box;
}
