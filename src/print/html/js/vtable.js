/* A table that draws only the rows in view */

const FOCUSABLE = 'a[href], button, input, select, [tabindex]';

/* The focus inside one of box's rows: the row's index (data-row) and
 * which of its focusable elements has it; null for none */
function focusInRow(box) {
	const a = document.activeElement;
	const r = a && box.contains(a) ? a.closest('[data-row]') : null;

	return r ? { i: Number(r.dataset.row),
		k: [...r.querySelectorAll(FOCUSABLE)].indexOf(a) } : null;
}

/* The k-th focusable element of row r (drawn again) focused */
function focusAgain(r, k) {
	const to = r.querySelectorAll(FOCUSABLE)[k];

	if (to)
		to.focus({ preventScroll: true });
}

/* rows: any array; draw(row, index) makes one row's element (a
 * grid of cells); prepare(first, last) (optional) is told which rows
 * a paint draws before it draws them. Returns the scroller, with
 * scrollToRow(). */
function vtable(rows, gridClass, draw, prepare) {
	const scroller = el('div', { class: 'vscroll' });
	const spacer = el('div', { class: 'vspacer' });
	let drawn = '';

	spacer.style.height = rows.length * ROW + 'px';
	scroller.append(spacer);
	function paint() {
		const h = scroller.clientHeight || 600;
		const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - 5);
		const last = Math.min(rows.length, first + Math.ceil(h / ROW) + 10);
		/* the row holding the focus is drawn again wherever the scroll
		 * is, and the focus put back in it: Tab to a row near the
		 * bottom scrolls, and the paint that follows must not drop the
		 * focus to the page's top (Tab would never leave the first
		 * rows) */
		const fix = focusInRow(spacer);
		const keep = fix && fix.i < rows.length ? fix.i : -1;
		const key = first + ':' + last + ':' + keep;

		if (key === drawn)
			return;
		drawn = key;
		if (prepare)
			prepare(first, last);
		spacer.textContent = '';
		const list = [];
		if (keep >= 0 && keep < first)
			list.push(keep);
		for (let i = first; i < last; i++)
			list.push(i);
		if (keep >= last)
			list.push(keep);
		for (const i of list) {
			const r = draw(rows[i], i);

			r.classList.add('row', gridClass);
			r.style.top = i * ROW + 'px';
			r.dataset.row = i;
			spacer.append(r);
			if (i === keep)
				focusAgain(r, fix.k);
		}
	}
	scroller.addEventListener('scroll', paint);
	scroller.paint = () => { drawn = ''; paint(); };
	scroller.scrollToRow = i => {
		scroller.scrollTop = Math.max(0, i * ROW - 4 * ROW);
		scroller.paint();
	};
	requestAnimationFrame(paint);
	paint();
	return scroller;
}

function cells(...kids) {
	return el('div', null, ...kids.map(k =>
		k instanceof Node && k.tagName === 'SPAN' ? k : el('span', null, k)));
}
/* a cost of the event shown, as the flat profile prints it (fmtCost()) */
function costCell(v) {
	return el('span', { class: 'num' }, fmtCost(v));
}
/* The code views' cost column in px: as wide as its widest figure or
 * its bold title (8em cut perf's "cpu-clock:ppp" and would cut a
 * minute's nanoseconds, "60,000,000,000") */
function costColumn(values, title) {
	const max = values.reduce((m, v) => Math.max(m, v || 0), 0);

	return Math.ceil(Math.max(textWidth(fmt(max), false),
		textWidth(title, true)) + 10) + 'px';
}
function numCell(v, style) {
	const s = el('span', { class: 'num' }, fmt(v));

	if (style)
		s.style.background = style;
	return s;
}

/*
 * The code views' listings (source, disassembly) cut no cell: each
 * column as wide as its widest text (a code column's by the length of
 * its lines in the monospace font), and where the window is narrower
 * the listing scrolls sideways in its box, its titles kept over their
 * columns. codeCh(): the width of a character of the code font, in px;
 * codeLength(): a line's length in characters, tabs to the next
 * multiple of 8 as the browser draws them.
 */
function codeCh() {
	const probe = el('span', { class: 'code' }, '0'.repeat(100));

	probe.style.cssText = 'position: absolute; visibility: hidden';
	document.body.append(probe);
	const ch = probe.getBoundingClientRect().width / 100;

	probe.remove();
	return ch;
}
function codeLength(s) {
	let n = 0;

	for (const c of s)
		n = c === '\t' ? n + 8 - n % 8 : n + 1;
	return n;
}
/* table (a vtable()) at least width px wide, head's titles moved with
 * its scroll (report.css --scroll-x: the head has no scroll bar to
 * reserve room for, so its own scroll would stop short of the table's) */
function codeScroll(table, head, width) {
	table.firstChild.style.minWidth = Math.ceil(width) + 'px';
	table.addEventListener('scroll', () => {
		head.style.setProperty('--scroll-x', table.scrollLeft + 'px');
	});
}
/* The widest of some texts of the page's font, measured (each is a
 * layout): the longest few by characters */
function widestText(texts, bold) {
	const longest = texts.slice().sort((a, b) => b.length - a.length);

	return longest.slice(0, 5).reduce((w, t) =>
		Math.max(w, textWidth(t, bold)), 0);
}
