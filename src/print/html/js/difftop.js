/* The diff report's Top: each function's self and inclusive cost in
 * BASE and NEW and the change, largest change first */

const diffTopState = { filter: '' };
const DIFF_TOP_TITLES = ['self base', 'self new', 'self change', '% base',
	'incl. base', 'incl. new', 'incl. change', '% base'];

/* The rows listed: --json's (rows [0, listed), in its order: largest
 * change of self cost, then of inclusive cost) for costs; for shares
 * every row whose share changed, in that order of the shares' change */
function diffTopRows() {
	const { rows: matched, how } = filterRows(diffTopState.filter);

	diffTopState.how = how;
	if (!shares)
		return matched.filter(f => f < DF.listed);
	const ds = f => Math.abs(change(DF.self[0][f], DF.self[1][f]));
	const di = f => Math.abs(change(DF.inclusive[0][f], DF.inclusive[1][f]));

	return matched.filter(f => ds(f) || di(f)).sort((a, b) =>
		ds(b) - ds(a) || di(b) - di(a) || a - b);
}

/* A row's figures for one cost (DF.self or DF.inclusive): base, new,
 * change, its percentage */
function diffCells(col, f) {
	const b = col[0][f], n = col[1][f], d = change(b, n);

	return [el('span', { class: 'num' }, fmtSide(sideValue(b, 0))),
		el('span', { class: 'num' }, fmtSide(sideValue(n, 1))),
		el('span', { class: 'num ' + (d > 0 ? 'worse' : d < 0 ? 'better' : '') },
			fmtChange(d)),
		el('span', { class: 'num muted' }, fmtPct(changePct(b, n)))];
}

/* The columns' titles as shown: shares in %, costs in their unit */
function diffTopTitles() {
	return DIFF_TOP_TITLES.map(t => t.endsWith('%') ? (shares ? '% of share' : t)
		: shares ? t + ' %' : unitOf() ? t + ' (' + unitOf() + ')' : t);
}
/* The columns' widths: each as wide as its widest figure or title;
 * figures measured once a column, the longest of the first rows (a
 * measure is a layout: one a cell made the switch take 0.6 s) */
function diffTopTemplate(rows) {
	const longest = DIFF_TOP_TITLES.map(() => '');

	for (const f of rows.slice(0, 500))
		[DF.self, DF.inclusive].forEach((col, c) => {
			const b = col[0][f], n = col[1][f];
			const texts = [fmtSide(sideValue(b, 0)), fmtSide(sideValue(n, 1)),
				fmtChange(change(b, n)), fmtPct(changePct(b, n))];

			texts.forEach((t, k) => {
				if (t.length > longest[4 * c + k].length)
					longest[4 * c + k] = t;
			});
		});
	return diffTopTitles().map((t, k) => Math.ceil(Math.max(
		textWidth(t, true), textWidth(longest[k], false)) + 10) + 'px')
		.join(' ') + ' minmax(10em, 4fr) minmax(4em, 1.5fr)';
}

function viewDiffTop() {
	const box = el('div', { id: 'difftop-view' });
	const filter = el('input', { type: 'search', id: 'filter',
		placeholder: 'as -p (std::*, prog.c:42) or part of a name',
		value: diffTopState.filter });
	const count = el('span', { class: 'muted', id: 'top-count' });
	const how = el('div', { class: 'muted', id: 'filter-how' });
	const hdr = el('div', { class: 'hdr difftop-grid', id: 'top-head' },
		...diffTopTitles().map(t => el('span', { class: 'num' }, t)),
		el('span', null, 'function'), el('span', null, 'file'));
	let table;

	function redraw() {
		const rows = diffTopRows();

		count.textContent = rows.length + ' of ' + NF + ' functions ' +
			(shares ? 'whose share changed' : 'listed by --diff') +
			/* as the text says it */
			(!DF.listed && !shares ? ': no function\'s cost changed' : '');
		how.textContent = diffTopState.how;
		box.style.setProperty('--difftop-columns', diffTopTemplate(rows));
		const t = vtable(rows, 'difftop-grid', f => {
			const only = onlyIn(f);

			return cells(...diffCells(DF.self, f), ...diffCells(DF.inclusive, f),
				el('span', { class: 'fname', title: fullName(f) },
					fitName(f, LINK_CHARS),
					only ? el('span', { class: 'only' }, ' (' + only + ')') : null),
				el('span', { class: 'muted', title: fnFile(f) || '' },
					fnFile(f) || ''));
		});

		t.id = 'top-table';
		if (table)
			table.replaceWith(t);
		else
			box.append(t);
		table = t;
	}
	let typing;
	filter.addEventListener('input', () => {
		clearTimeout(typing);
		typing = setTimeout(() => {
			diffTopState.filter = filter.value.trim();
			redraw();
		}, NF > 100000 ? 300 : 0);
	});
	box.append(el('div', { class: 'controls' }, filter, count), how, hdr);
	redraw();
	return box;
}
