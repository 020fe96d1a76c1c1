/* Small helpers */

/* An element; attributes by name ("on..." are listeners), then
 * children: nodes, or strings put in as text. */
function el(tag, attrs, ...kids) {
	const e = document.createElement(tag);

	for (const k in attrs || {}) {
		const v = attrs[k];

		if (v === undefined || v === null)
			continue;
		if (k === 'class')
			e.className = v;
		else if (k.startsWith('on'))
			e.addEventListener(k.slice(2), v);
		else if (k === 'href' && String(v)[0] === '#')
			e.setAttribute(k, withXforms(v));	/* keep the transforms */
		else
			e.setAttribute(k, v);
	}
	for (const kid of kids)
		if (kid !== undefined && kid !== null)
			e.append(kid instanceof Node ? kid : String(kid));
	return e;
}

/* Numbers as the text listings print them (src/print/fmt.c): printf's
 * "%.Nf" rounds the exact binary value to nearest, a tie to even, where
 * toFixed() takes a tie up (0.125: "0.12" and "0.13"). A tie at N
 * decimals is v = (2k + 1) / (2 * 10^N) exactly, which a double holds
 * only as an odd multiple of 2^-(N+1): then |v| * 10^N is exact too. */
function fixed(v, decimals) {
	const a = Math.abs(v), half = 2 ** (decimals + 1);

	if (!Number.isFinite(v) || a * half % 2 !== 1 || a * half > 2 ** 52)
		return v.toFixed(decimals);
	let n = Math.floor(a * 10 ** decimals);

	if (n % 2)
		n++;
	const digits = String(n).padStart(decimals + 1, '0');
	const cut = digits.length - decimals;

	return (v < 0 ? '-' : '') + digits.slice(0, cut) +
		(decimals ? '.' + digits.slice(cut) : '');
}
/* Costs: integers with thousands separators; estimates (gmon.out)
 * with two decimals. By hand: toLocaleString's first call in a fresh
 * browser loads the locale's data, 0.04 to 0.2 s of the first view. */
function group(digits) {
	return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
function fmt(v) {
	if (v === undefined || v === null)
		return '';
	if (Number.isInteger(v))
		return group(String(v));
	const [whole, frac] = fixed(v, 2).split('.');

	return group(whole) + '.' + frac;
}
/* Whether the listings show event e's costs as seconds: gmon.out's
 * ticks, which the flat profile and call graph print as gprof does,
 * ticks * unit_seconds with two decimals (print_seconds.c). */
function inSeconds(e = ev) {
	return D.event_info[e].listed_as === 'seconds';
}
/* Whether event e is a maximum (IgProf's MEM_MAX, --json's "maximum"):
 * its costs are the largest values under them, never sums. */
function isMax(e = ev) {
	return D.event_info[e].maximum === true;
}
/* A cost of event e as the flat profile and the call graph print it:
 * gprof's seconds for gmon.out's ticks, else fmt()'s. (The annotated
 * source and the disassembly print gmon.out's ticks as ticks.) */
function fmtCost(v, e = ev) {
	if (v === undefined || v === null)
		return '';
	/* "%.2f" of the product, ungrouped, as print_seconds.c */
	return inSeconds(e) ? fixed(v * D.event_info[e].unit_seconds, 2) : fmt(v);
}
/* The unit fmtCost() writes event e in: "s", perf's "ns" or "events",
 * or '' where the event is its own unit (Ir, ticks) */
function unitOf(e = ev) {
	return inSeconds(e) ? 's' : D.event_info[e].unit || '';
}
function withUnit(v, e = ev) {
	const u = unitOf(e);

	return fmtCost(v, e) + (u ? ' ' + u : '');
}
/* "1 sample", "2 samples" */
function counted(n, word) {
	return fmt(n) + ' ' + word + (n === 1 ? '' : 's');
}
/* A call path's cost as --tree prints it (print_tree.c's cost_text()):
 * gmon.out's ticks in seconds, else whole units, an estimate's rounded
 * (a tree estimated from call arcs spreads a cost in fractions) */
function fmtPath(v, e = ev) {
	return inSeconds(e) ? fmtCost(v, e) : fmt(Math.round(v));
}
function withUnitPath(v, e = ev) {
	const u = unitOf(e);

	return fmtPath(v, e) + (u ? ' ' + u : '');
}
/* perf.data: costs are samples' periods, and counts are of samples */
const SAMPLED = !!D.sampled;
/* v's share of total; of a total of 0 (gmon.out with no tick), 0.00%
 * as the text listings print it; blank when there is no total */
function pct(v, total) {
	return total ? fixed(100 * v / total, 2) + '%'
		: total === 0 ? fixed(0, 2) + '%' : '';
}
/* What shares of call paths (inclusive costs, the trees) are of: for
 * gmon.out the time the functions got, as the call graph and --tree
 * give them (gprof's bins can give the functions more than the ticks,
 * and main, which holds every one, would be 100.15% of them: gprof's
 * call graph says 100.0); else the total in view */
function pathTotal() {
	return inSeconds() && !xforms.length ? timeGot() : total();
}
/* The time the functions got: their self costs summed (print_seconds.c
 * sums them in the same order), of every function, those the report
 * leaves out too; once an event and set of transforms, as the trees
 * ask a row at a time */
const timeGotSum = { key: null, t: 0 };
function timeGot() {
	const key = ev + ' ' + xformKey;

	if (D.graph_total !== undefined)
		return D.graph_total;
	if (timeGotSum.key !== key) {
		let t = 0;

		for (let f = 0; f < NF; f++)
			t += fnSelf(f);
		timeGotSum.key = key;
		timeGotSum.t = t;
	}
	return timeGotSum.t;
}
/* the total in view: the event's, or what the transforms leave */
function total() {
	return xforms.length && flameTree() ? flameTree().total : D.totals[ev] || 0;
}
/* a function's name: name(), fullName() and fitName() in names.js */
function cycleName(n) {
	return '<cycle ' + n + ' as a whole>';
}
function fnLink(f) {
	/* the code views' call to a function the page leaves out (cut.js) */
	if (f < 0)
		return cutLink();
	return fnLinkFit(f, LINK_CHARS);
}
function cycleLink(n) {
	return el('a', { href: '#cycle/' + n }, cycleName(n));
}
/* a path's last component: "/usr/lib/libc.so.6" -> "libc.so.6" */
function baseName(path) {
	return path.slice(path.lastIndexOf('/') + 1);
}
function hex(v) {
	return '0x' + Number(v).toString(16);
}
/* Heat: white to red by share of the largest. */
function heat(v, max) {
	const s = max > 0 ? Math.min(1, v / max) : 0;

	return s > 0 ? 'hsl(0, 90%, ' + (100 - 45 * s).toFixed(1) + '%)' : '';
}

/* A table's column titles that sort it on a click (box's children with
 * data-key): each a Tab stop, Enter or Space clicking it as a button
 * does; a title not focusable left the keyboard no way to sort. The
 * diff page draws its view again on a sort (the hash holds it): the
 * title pressed, remembered by the table's name, has the focus back
 * in the view drawn again. */
let sortPressed = null;

function sortTitles(box, name) {
	for (const t of box.querySelectorAll('[data-key]')) {
		t.tabIndex = 0;
		t.setAttribute('role', 'button');
	}
	box.addEventListener('keydown', e => {
		const t = e.target.closest('[data-key]');

		if (t && (e.key === 'Enter' || e.key === ' ')) {
			e.preventDefault();
			sortPressed = name + ' ' + t.dataset.key;
			t.click();
		}
	});
	requestAnimationFrame(() => {
		for (const t of box.querySelectorAll('[data-key]'))
			if (sortPressed === name + ' ' + t.dataset.key &&
			    t !== document.activeElement && box.isConnected &&
			    document.activeElement === document.body) {
				sortPressed = null;
				t.focus();
			}
	});
	return box;
}

/* Where the focus was in the view drawn before, as selectors of the
 * element to give it to in the view drawn now: Enter on a frame (a
 * zoom, a sandwich of another function), a transform's button, back
 * and forward draw the view again, and the focus fell to the page's top
 * (the keyboard Tabbed all the way back). The element of the same id;
 * a button of the same kind and rank; a flame graph's frame of the same node (its nodes are the tree's,
 * the same at every zoom), else the drawing's Tab stop. */
function focusKeys(box) {
	const a = document.activeElement;

	if (!a || a === document.body || !box.contains(a))
		return null;
	if (a.id)
		return ['#' + CSS.escape(a.id)];
	const area = a.parentElement && a.parentElement.closest('[id]');

	/* a button or a box of no id (a transform's): the one of its kind
	 * at the same rank, in the same place drawn again only (Enter on
	 * a button that opens another view leaves the focus there) */
	if (['BUTTON', 'INPUT', 'SELECT'].includes(a.tagName)) {
		const sel = a.tagName + [...a.classList].map(c => '.' + CSS.escape(c)).join('');

		return [{ sel, k: [...box.querySelectorAll(sel)].indexOf(a),
			place: (document.body.dataset.route || '').split('&')[0] }];
	}
	if (!area || !a.classList.contains('fr'))
		return null;
	const at = '#' + CSS.escape(area.id) + ' .fr';

	return (area.id === 'flame' ? [at + '[data-node="' + a.dataset.node + '"]']
		: []).concat([at + '[tabindex="0"]']);
}

/* The focus in the view last, kept: back and forward to a place whose
 * hash is an element's id ("#flame", "#sandwich") take the focus away
 * before the hash changes; a click (the mouse choosing) forgets it */
let focusLast = null;

document.addEventListener('focusin', () => { focusLast = focusKeys(view); });
document.addEventListener('mousedown', () => { focusLast = null; });

/* The focus given back (keys from focusKeys()), now or once the view
 * has drawn (the flame graphs draw in an animation frame), unless
 * the view took it itself */
function focusBack(keys, later) {
	if (!keys || document.activeElement !== document.body)
		return;
	for (const k of keys) {
		const to = typeof k === 'string' ? view.querySelector(k)
			: k.place === location.hash.split('&')[0]
			? view.querySelectorAll(k.sel)[k.k] : null;

		if (to) {
			to.focus({ preventScroll: true });
			return;
		}
	}
	if (!later)
		requestAnimationFrame(() => focusBack(keys, true));
}
