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
 * a paint draws before it draws them. oneStop (a table whose every row
 * has a link, Top's): the table is one Tab stop, the link of its
 * current row, and the arrows, Page Up/Down, Home and End move between
 * rows; with a Tab stop a row, 10,000 functions took 10,000 Tabs to
 * pass. Returns the scroller, with scrollToRow(). */
function vtable(rows, gridClass, draw, prepare, oneStop) {
	const scroller = el('div', { class: 'vscroll' });
	const spacer = el('div', { class: 'vspacer' });
	let drawn = '';
	/* oneStop: the current row (whose link is the Tab stop), and the
	 * row a key moves to while the focus is still in the one before */
	let cur = 0, going = -1;

	/* Firefox makes a box that scrolls a Tab stop of its own, before
	 * its rows: a second stop, and one the arrows only scroll */
	if (oneStop)
		scroller.tabIndex = -1;

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
		const top = Math.floor(scroller.scrollTop / ROW);

		if (oneStop && going >= 0)
			cur = going;
		else if (oneStop && fix)
			cur = fix.i;
		else if (oneStop && (cur < top || cur >= top + Math.floor(h / ROW)))
			/* scrolled away with the focus elsewhere: Tab into
			 * the table lands on a row in view, not back where it
			 * was */
			cur = top;
		cur = Math.max(0, Math.min(cur, rows.length - 1));
		const keep = oneStop && rows.length ? cur
			: fix && fix.i < rows.length ? fix.i : -1;
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
			if (oneStop)
				r.querySelectorAll(FOCUSABLE).forEach((a, k) => {
					a.tabIndex = i === cur && k === 0 ? 0 : -1;
				});
			if (i === keep && fix && going < 0)
				focusAgain(r, fix.k);
		}
	}
	/* oneStop's keys: the current row moved, scrolled into view,
	 * drawn, and its link given the focus */
	function moveTo(i) {
		const h = scroller.clientHeight;

		going = Math.max(0, Math.min(i, rows.length - 1));
		if (going * ROW < scroller.scrollTop)
			scroller.scrollTop = going * ROW;
		else if ((going + 1) * ROW > scroller.scrollTop + h)
			scroller.scrollTop = (going + 1) * ROW - h;
		drawn = '';
		paint();
		const r = spacer.querySelector('[data-row="' + going + '"]');

		going = -1;
		if (r)
			focusAgain(r, 0);
	}
	if (oneStop)
		spacer.addEventListener('keydown', e => {
			const at = focusInRow(spacer);
			const page = Math.max(1,
				Math.floor(scroller.clientHeight / ROW) - 1);
			const to = at && !e.altKey && !e.ctrlKey && !e.metaKey &&
				!e.shiftKey ? { ArrowDown: at.i + 1, ArrowUp: at.i - 1,
					PageDown: at.i + page, PageUp: at.i - page,
					Home: 0, End: rows.length - 1 }[e.key] : undefined;

			if (to === undefined)
				return;
			e.preventDefault();
			moveTo(to);
		});
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
