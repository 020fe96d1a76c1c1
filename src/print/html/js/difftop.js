/* The diff report's Top: each function's self and inclusive cost in
 * BASE and NEW and the change, largest change first */

/* col: the column sorted by (a key of DIFF_TOP_KEYS, desc the way),
 * null for the default, the largest change first; kept in the hash
 * ("&sort=KEY,desc" or ",asc") by diffroute.js */
const diffTopState = { filter: '', col: null, desc: true };
const DIFF_TOP_TITLES = ['self base', 'self new', 'self change', '% base',
	'incl. base', 'incl. new', 'incl. change', '% base'];
const DIFF_TOP_KEYS = ['selfbase', 'selfnew', 'selfchange', 'selfpct',
	'inclbase', 'inclnew', 'inclchange', 'inclpct', 'name', 'file'];

/* The rows listed: --json's (rows [0, listed), in its order: largest
 * change of self cost, then of inclusive cost) for costs; for shares
 * every row whose share changed, in that order of the shares' change;
 * then sorted by the column chosen, ties in that order */
function diffTopRows() {
	const rows = diffTopListed();

	if (!diffTopState.col)
		return rows;
	const at = new Map(rows.map((f, i) => [f, i]));

	return sortRows(rows, diffTopValue(DIFF_TOP_KEYS.indexOf(diffTopState.col)),
		diffTopState.desc, (a, b) => at.get(a) - at.get(b));
}
function diffTopListed() {
	const { rows: matched, how } = filterRows(diffTopState.filter);

	diffTopState.how = how;
	if (!shares)
		return matched.filter(f => f < DF.listed);
	const ds = f => Math.abs(change(DF.self[0][f], DF.self[1][f]));
	const di = f => Math.abs(change(DF.inclusive[0][f], DF.inclusive[1][f]));

	return matched.filter(f => ds(f) || di(f)).sort((a, b) =>
		ds(b) - ds(a) || di(b) - di(a) || a - b);
}
/* What column c sorts by, as shown: each side's cost or share, the
 * change (signed: the largest growth first, or the largest fall), its
 * percentage (a share from none, "new", the largest), name and file */
function diffTopValue(c) {
	if (c === 8)
		return f => name(f);
	if (c === 9)
		return f => fnFile(f) || '';
	const col = c < 4 ? DF.self : DF.inclusive;

	return [f => sideValue(col[0][f], 0), f => sideValue(col[1][f], 1),
		f => change(col[0][f], col[1][f]),
		f => {
			const p = changePct(col[0][f], col[1][f]);

			return p === null ? Infinity : p;
		}][c % 4];
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
	return DIFF_TOP_TITLES.map(t => t.startsWith('%') ? (shares ? '% of share' : t)
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
	/* a title with its sort mark */
	return diffTopTitles().map((t, k) => Math.ceil(Math.max(
		textWidth(t + ' \u25BC', true), textWidth(longest[k], false)) + 10) + 'px')
		.join(' ') + ' minmax(10em, 4fr) minmax(4em, 1.5fr)';
}

function viewDiffTop() {
	const box = el('div', { id: 'difftop-view' });
	const filter = el('input', { type: 'search', id: 'filter',
		placeholder: 'as -p (std::*, prog.c:42) or part of a name',
		value: diffTopState.filter });
	const count = el('span', { class: 'muted', id: 'top-count' });
	const how = el('div', { class: 'muted', id: 'filter-how' });
	const titles = [...diffTopTitles(), 'function', 'file'];
	const hdr = el('div', { class: 'hdr difftop-grid', id: 'top-head' },
		...titles.map((t, c) => el('span', { 'data-key': DIFF_TOP_KEYS[c],
			class: (c < 8 ? 'num' : '') + (diffTopState.col === DIFF_TOP_KEYS[c]
				? ' sorted' + (diffTopState.desc ? '' : ' up') : ''),
			title: 'sort by ' + t + (c < 8 ? ': largest first, click ' +
				'again for smallest' : '') }, t)));
	/* the order, and the way back to the default */
	const order = el('span', { class: 'muted', id: 'top-order' },
		diffTopState.col ? el('a', { href: '#', id: 'top-order-reset' },
			'back to the largest change first')
			: 'largest change first; click a title to sort by it');
	let table;

	sortTitles(hdr, 'difftop');
	hdr.addEventListener('click', e => {
		const t = e.target.closest('[data-key]');

		if (!t)
			return;
		sortClick(diffTopState, t.dataset.key, !t.classList.contains('num'));
		/* the view is drawn again: the title clicked, as one pressed,
		 * has the focus back (a click left it on the page's top, and
		 * Tab, the arrows and Enter started from there) */
		sortPressed = 'difftop ' + t.dataset.key;
		location.hash = diffHref('#top');
	});
	order.addEventListener('click', e => {
		if (!e.target.closest('a'))
			return;
		e.preventDefault();
		diffTopState.col = null;
		diffTopState.desc = true;
		location.hash = diffHref('#top');
	});

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
					el('a', { href: diffHref('#fn/' + f) }, fitName(f, LINK_CHARS)),
					only ? el('span', { class: 'only' }, ' (' + only + ')') : null),
				el('span', { class: 'muted', title: fnFile(f) || '' },
					fnFile(f) || ''));
		}, null, true);

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
	box.append(el('div', { class: 'controls' }, filter, count, order), how, hdr);
	redraw();
	return box;
}
