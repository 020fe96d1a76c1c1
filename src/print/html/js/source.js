/* Annotated source */

const HOT_LINES = 15;	/* the hot lines listed to jump to */

/* The lines of one file with a cost of event ev, costliest first. */
function hotLines(costs) {
	return Object.values(costs).filter(l => l.cost[ev] > 0)
		.sort((a, b) => b.cost[ev] - a.cost[ev] || a.line - b.line);
}

/*
 * File k, scrolled to line (a function's line, from its link), or
 * without one to the file's costliest line of the event shown. The
 * table draws only the rows in view, so the browser's find cannot see
 * the others: the view has its own, over the whole file.
 */
/* A call's counts as --annotate words them: "(3 calls, 5
 * recursive, counted in the outer call)". */
function callCounts(c) {
	const parts = [];

	if (c.count)
		parts.push(fmt(c.count) + (c.count === 1 ? ' call' : ' calls'));
	if (c.recursive)
		parts.push(fmt(c.recursive) + ' recursive, counted in the outer call');
	return parts.length ? ' (' + parts.join(', ') + ')' : '';
}

function viewSource(k, line) {
	const K = code();
	const sources = K.sources;

	if (!sources.length)
		return el('p', { id: 'source-none' }, K.annotated
			? 'No source file of the profile was found above the threshold ' +
			  'to embed (-I DIR or --source-map OLD=NEW say where they are).'
			: 'The profile has no source lines.');
	/* by default the hottest file whose source is here */
	k = k >= 0 && k < sources.length ? k
		: Math.max(0, sources.findIndex(s => s.lines));
	const src = sources[k];
	const costs = K.linesByFile[src.path] || {};
	const hot = hotLines(costs);
	const rows = [];
	let max = 0;

	if (line === undefined && hot.length)
		line = hot[0].line;
	/* a file not found is listed by line number, its lines with a
	 * cost only, as --annotate lists it */
	const numbers = src.lines ? src.lines.map((_, i) => i + 1)
		: Object.keys(costs).map(Number).sort((a, b) => a - b);
	for (const n of numbers) {
		const l = costs[n];

		rows.push({ line: n, text: src.lines ? src.lines[n - 1] : '',
			cost: l ? l.cost[ev] : null });
		if (l && l.cost[ev] > max)
			max = l.cost[ev];
		/* heaviest first, as --annotate lists them (its ties in
		 * the order read: the document's list is the other way) */
		const calls = l ? l.calls.map((c, i) => [c, i]) : [];

		calls.sort((a, b) => b[0].inclusive[ev] - a[0].inclusive[ev] ||
			b[1] - a[1]);
		for (const [c] of calls)
			rows.push({ call: c });
	}
	const pick = el('select', { id: 'source-file', onchange: () => {
		location.hash = withXforms('#source/' + pick.value);
	} });
	sources.forEach((s, i) => pick.append(el('option', { value: i }, s.path)));
	pick.value = k;
	const tot = total();
	let found = -1;	/* the row the search is on */
	const table = vtable(rows, 'src-grid', (r, i) => {
		if (r.call)
			return cells('', numCell(r.call.inclusive[ev]),
				el('span', { class: 'num' }, pct(r.call.inclusive[ev], tot)),
				el('span', { class: 'callrow' }, '\u2192 ', fnLink(r.call.callee),
					SAMPLED ? '' : callCounts(r.call)));
		const row = cells(el('span', { class: 'num muted' }, r.line),
			numCell(r.cost, r.cost ? heat(r.cost, max) : ''),
			el('span', { class: 'num' }, r.cost ? pct(r.cost, tot) : ''),
			el('span', { class: 'code' }, r.text));

		row.dataset.line = r.line;
		if (r.line === line)
			row.classList.add('here');
		if (i === found)
			row.classList.add('found');
		return row;
	});
	table.id = 'source-table';

	const hotList = el('table', { id: 'source-hot' });
	for (const l of hot.slice(0, HOT_LINES))
		hotList.append(el('tr', null,
			el('td', null, el('a', { href: '#source/' + k + '/' + l.line },
				'line ' + l.line)),
			el('td', { class: 'num' }, fmt(l.cost[ev])),
			el('td', { class: 'num muted' }, pct(l.cost[ev], tot))));

	/* find in the file's text (or line numbers): Enter for the next
	 * match, Shift+Enter for the one before */
	const status = el('span', { id: 'source-find-status', class: 'muted' },
		'the table draws only the lines in view, so the browser\'s find ' +
		'does not reach the others: search here');
	const find = el('input', { type: 'search', id: 'source-find',
		placeholder: 'Find in this file (Enter: next match)' });
	function search(back) {
		const q = find.value.toLowerCase();
		const hits = [];

		if (!q) {
			found = -1;
			table.paint();
			return;
		}
		rows.forEach((r, i) => {
			if (!r.call && (r.text.toLowerCase().includes(q) || String(r.line) === q))
				hits.push(i);
		});
		if (!hits.length) {
			found = -1;
			status.textContent = 'not found in ' + src.path;
			table.paint();
			return;
		}
		let n = back ? hits.length - 1 : 0;

		for (let j = 0; j < hits.length; j++)
			if (back ? hits[hits.length - 1 - j] < found : hits[j] > found) {
				n = back ? hits.length - 1 - j : j;
				break;
			}
		found = hits[n];
		status.textContent = 'match ' + (n + 1) + ' of ' + hits.length +
			' (line ' + rows[found].line + ')';
		table.scrollToRow(found);
	}
	find.addEventListener('keydown', e => {
		if (e.key === 'Enter') {
			e.preventDefault();
			search(e.shiftKey);
		}
	});
	find.addEventListener('input', () => { found = -1; });

	const note = src.lines ? null : el('p', { class: 'note', id: 'source-not-found' },
		'Source not found: its lines with a cost are listed by number ' +
		'(-I DIR or --source-map OLD=NEW say where the file is).');
	const box = el('div', null, el('div', { class: 'controls' }, pick,
		el('span', { class: 'muted' }, 'cost per line of ' + K.columns[ev] +
			(SAMPLED ? '' : '; calls below their line with their ' +
			 'inclusive cost'))),
		el('div', { class: 'controls' }, find, status), note,
		el('div', { class: 'src-split' },
			el('div', null, el('div', { class: 'hdr src-grid' }, el('span', null, 'line'),
				el('span', { class: 'num' }, K.columns[ev]), el('span', { class: 'num' }, '%'),
				el('span', null, 'source')), table),
			el('div', { class: 'src-hot' }, el('b', null, 'Hot lines'),
				hot.length ? hotList : el('p', { class: 'muted' }, 'none of ' + K.columns[ev]))));
	const cost = costColumn(rows.map(r =>
		r.call ? r.call.inclusive[ev] : r.cost), K.columns[ev]);

	box.style.setProperty('--code-cost', cost);
	sourceWidths(box, rows, cost);
	/* the line, or the first listed after it (a file listed by number
	 * has only its lines with a cost) */
	if (line !== undefined)
		requestAnimationFrame(() => table.scrollToRow(
			rows.findIndex(r => r.line >= line)));
	return box;
}

/* The source column as wide as its longest line (vtable.js
 * codeScroll()): at 800 px a line was cut with "\u2026" ("__attribute__
 * ((noinline)) static unsigned rec(int d, uns\u2026") */
function sourceWidths(box, rows, cost) {
	const em = parseFloat(getComputedStyle(document.body).fontSize);
	let code = 0;
	const calls = [];

	for (const r of rows)
		if (r.call)
			calls.push('\u2192 ' + fnLink(r.call.callee).textContent + (SAMPLED ? ''
				: callCounts(r.call)));
		else
			code = Math.max(code, codeLength(r.text || ''));
	const text = Math.ceil(Math.max(code * codeCh(), widestText(calls, false)) + 9);

	box.style.setProperty('--src-code', text + 'px');
	codeScroll(box.querySelector('#source-table'),
		box.querySelector('.hdr.src-grid'), 10 * em + parseFloat(cost) + text);
}
