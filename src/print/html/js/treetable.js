/* A tree of rows, opened by the reader: the call tree and bottom-up */

/*
 * src says what the tree is; its nodes are whatever it likes:
 *   roots        the first level, heaviest first
 *   kids(n)      n's children, heaviest first, asked for when n opens
 *   hasKids(n)   whether n can open
 *   cells(row)   the numbers' cells of a row ({ n, depth, up: the
 *                parent's row or null })
 *   label(row)   the name's element
 *   enter(row)   what Enter does (the function's view)
 *   menu(row, x, y)  the row's transforms menu
 * Only the rows in view are elements, as in vtable(); a node's
 * children are made when it opens, so a tree of 100,000 nodes opens
 * as fast as one of ten. Keys: up and down move, right opens (or goes
 * to the first child), left closes (or goes to the parent), Enter
 * opens the function, "*" opens every row below, the menu key (or "m")
 * the transforms menu.
 */
const TREE_INDENT = 14;	/* px a level */
const TREE_DEEPEST = 40;	/* levels indented; deeper rows say their depth */
const TREE_OPEN_DEPTH = 500;	/* the heaviest path is opened this deep */
const TREE_ALL = 20000;	/* rows "*" opens at most */

/* Each tree view's rows, selection and scroll by the tree they are of
 * (flameTree()'s, one per event and transforms): going back to a view
 * (after Enter on a row) finds it as it was left */
const treeKept = new WeakMap();

function treeTable(src, gridClass, id, heavy, T) {
	const scroller = el('div', { class: 'vscroll tree', id, tabindex: 0,
		role: 'tree' });
	const spacer = el('div', { class: 'vspacer' });
	let kept = treeKept.get(T);

	if (!kept)
		treeKept.set(T, kept = {});
	const was = kept[id];
	let rows = [];
	let sel = was ? was.sel : 0, drawn = '', version = 0;
	const keep = () => {
		kept[id] = { rows, sel, top: scroller.scrollTop };
	};

	scroller.append(spacer);
	/* the rows of nodes at depth under up; the first opened too down
	 * the heaviest path when heavy */
	function level(nodes, depth, up, out, openFirst) {
		nodes.forEach((n, k) => {
			const row = { n, depth, up, open: false };

			out.push(row);
			if (k === 0 && openFirst && depth < TREE_OPEN_DEPTH &&
			    src.hasKids(n)) {
				row.open = true;
				level(src.kids(n), depth + 1, row, out, true);
			}
		});
		return out;
	}
	rows = was ? was.rows : level(src.roots, 0, null, [], heavy);

	/* the rows of row's subtree in order, opened until there are
	 * TREE_ALL (the children of a row opened all follow it); without
	 * recursion, a stack can be 100,000 frames deep */
	function subtree(row, most = TREE_ALL) {
		const out = [], stack = [row];

		while (stack.length) {
			const r = stack.pop();

			if (r !== row)
				out.push(r);
			if (out.length >= most || !src.hasKids(r.n))
				continue;
			r.open = true;
			const kids = src.kids(r.n);

			for (let k = kids.length - 1; k >= 0; k--)
				stack.push({ n: kids[k], depth: r.depth + 1, up: r, open: false });
		}
		return out;
	}
	function open(i, all) {
		const row = rows[i];

		if (!row || !src.hasKids(row.n) || (row.open && !all))
			return;
		if (row.open)
			close(i);
		row.open = true;
		const add = all ? subtree(row)
			: level(src.kids(row.n), row.depth + 1, row, [], false);

		rows = rows.slice(0, i + 1).concat(add, rows.slice(i + 1));
		if (sel > i)
			sel += add.length;
		changed();
	}
	function close(i) {
		const row = rows[i];
		let end = i + 1;

		if (!row || !row.open)
			return;
		row.open = false;
		while (end < rows.length && rows[end].depth > row.depth)
			end++;
		rows.splice(i + 1, end - i - 1);
		if (sel > i)
			sel = sel < end ? i : sel - (end - i - 1);
		changed();
	}
	function changed() {
		keep();
		version++;
		spacer.style.height = rows.length * ROW + 'px';
		paint();
	}
	function select(i) {
		sel = Math.max(0, Math.min(rows.length - 1, i));
		const top = sel * ROW, h = scroller.clientHeight || 600;

		if (top < scroller.scrollTop)
			scroller.scrollTop = top;
		else if (top + ROW > scroller.scrollTop + h)
			scroller.scrollTop = top + ROW - h;
		keep();
		version++;
		paint();
	}
	function nameCell(row, i) {
		const deep = row.depth > TREE_DEEPEST;
		const can = src.hasKids(row.n);
		const cell = el('span', { class: 'tname' },
			el('span', { class: 'toggle', 'data-i': i },
				can ? row.open ? '\u25BE' : '\u25B8' : '\u00B7'),
			deep ? el('span', { class: 'muted' }, '[' + row.depth + '] ') : null,
			src.label(row),
			el('button', { class: 'rowmenu', 'data-i': i,
				title: 'transforms: focus, ignore, hide, ...' }, '\u22EF'));

		cell.style.paddingLeft = Math.min(row.depth, TREE_DEEPEST) *
			TREE_INDENT + 'px';
		return cell;
	}
	function paint() {
		const h = scroller.clientHeight || 600;
		const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - 5);
		const last = Math.min(rows.length, first + Math.ceil(h / ROW) + 10);
		const key = first + ':' + last + ':' + version;

		if (key === drawn)
			return;
		drawn = key;
		spacer.textContent = '';
		for (let i = first; i < last; i++) {
			const r = el('div', { class: 'row ' + gridClass +
				(i === sel ? ' sel' : ''), 'data-i': i,
				'data-depth': rows[i].depth, role: 'treeitem',
				'aria-level': rows[i].depth + 1,
				'aria-selected': i === sel ? 'true' : 'false',
				'aria-expanded': src.hasKids(rows[i].n)
					? String(rows[i].open) : null },
				...src.cells(rows[i]), nameCell(rows[i], i));

			r.style.top = i * ROW + 'px';
			/* the tree is one Tab stop, its rows reached by the
			 * arrows: a link a Tab stop each had Tab walk every
			 * row, and Enter open the selected row, not the
			 * link's */
			for (const a of r.querySelectorAll('a, button'))
				a.tabIndex = -1;
			spacer.append(r);
		}
	}
	function menuAt(i) {
		const r = spacer.querySelector('.row[data-i="' + i + '"]');
		const b = r ? r.querySelector('.rowmenu').getBoundingClientRect()
			: scroller.getBoundingClientRect();

		src.menu(rows[i], b.left, b.bottom);
	}
	scroller.addEventListener('scroll', () => {
		keep();
		paint();
	});
	scroller.addEventListener('click', e => {
		const r = e.target.closest('.row');

		if (!r)
			return;
		const i = Number(r.dataset.i);

		if (e.target.closest('.toggle'))
			rows[i].open ? close(i) : open(i);
		else if (e.target.closest('.rowmenu'))
			src.menu(rows[i], e.clientX, e.clientY);
		if (!e.target.closest('a')) {
			select(i);
			scroller.focus({ preventScroll: true });
		}
	});
	scroller.addEventListener('contextmenu', e => {
		const r = e.target.closest('.row');

		if (!r)
			return;
		e.preventDefault();
		select(Number(r.dataset.i));
		src.menu(rows[sel], e.clientX, e.clientY);
	});
	scroller.addEventListener('keydown', e => {
		const row = rows[sel];
		const page = Math.max(1, Math.floor(scroller.clientHeight / ROW) - 1);

		/* a link clicked keeps the focus: Enter is its own */
		if (!row || e.altKey || e.ctrlKey || e.metaKey ||
		    (e.key === 'Enter' && e.target.closest('a')))
			return;
		switch (e.key) {
		case 'ArrowDown': select(sel + 1); break;
		case 'ArrowUp': select(sel - 1); break;
		case 'PageDown': select(sel + page); break;
		case 'PageUp': select(sel - page); break;
		case 'Home': select(0); break;
		case 'End': select(rows.length - 1); break;
		case 'ArrowRight':
			if (row.open)
				select(sel + 1);
			else
				open(sel);
			break;
		case 'ArrowLeft':
			if (row.open)
				close(sel);
			else if (row.up)
				select(rows.lastIndexOf(row.up, sel));
			break;
		case 'Enter': src.enter(row); break;
		case '*': open(sel, true); break;
		case 'ContextMenu':
		case 'm': menuAt(sel); break;
		default:
			return;
		}
		e.preventDefault();
	});
	scroller.redrawRows = () => { drawn = ''; paint(); };
	/* in the page: where it was left, or the deepest row of the
	 * heaviest path selected */
	scroller.shown = () => {
		let i = 0;

		if (was) {
			scroller.scrollTop = was.top;
			select(was.sel);
			return;
		}
		while (heavy && i + 1 < rows.length && rows[i + 1].up === rows[i])
			i++;
		select(i);
	};
	scroller.rowCount = () => rows.length;
	/* every row opened (up to TREE_ALL), or none */
	scroller.openAll = () => {
		rows = [];
		for (const n of src.roots) {
			const row = { n, depth: 0, up: null, open: false };

			rows.push(row);
			rows = rows.concat(subtree(row, TREE_ALL - rows.length));
		}
		sel = 0;
		scroller.scrollTop = 0;
		changed();
	};
	scroller.closeAll = () => {
		rows = level(src.roots, 0, null, [], false);
		sel = 0;
		scroller.scrollTop = 0;
		changed();
	};
	spacer.style.height = rows.length * ROW + 'px';
	return scroller;
}

/* The cells of a cost, its share of the whole and of its parent */
function shareCells(v, whole, parent) {
	return [el('span', { class: 'num' }, fmtPath(v)),
		el('span', { class: 'num' }, pct(v, whole)),
		el('span', { class: 'num muted' }, pct(v, parent))];
}
/* A unit's name as a link: a function's view, a cycle's */
function unitLink(u) {
	if (u === NF)	/* the functions a cut page left out (cut.js) */
		return el('span', { class: 'muted cut-fn', title: 'cganalyze ' +
			'--output=html --threshold=0 embeds every function' }, name(u));
	return u < 0 ? cycleLink(-u) : fnLinkFit(u, LINK_CHARS);
}
/* The grid's widths: each number as wide as the widest it shows, T's
 * total (an estimate's with two decimals), or as its title with the
 * unit (treeTitle(); "self (nanoseconds)" ran into "self %"), bold:
 * a character more */
function treeColumns(T, titles) {
	const w = Math.max(fmtCost(T.total + (T.estimated ? 0.01 : 0)).length,
		7) + 2;

	return titles.map(treeTitle).map(t => (t.endsWith('%') || t === 'of parent'
		? Math.max(t.length, 7) + 2 : Math.max(w, t.length + 3)) + 'ch')
		.join(' ') + ' minmax(10em, 1fr)';
}
