/* Flame graph and icicle */

/* The tree every view draws: the event shown's, transformed by the
 * transforms in force (transform.js); what a view built on call paths
 * reads, so that the transforms apply to it too. */
function flameTree() {
	return xformTree(flameBase());
}
/* The tree of the event shown ("cga-flame" has one per event, as
 * columns by node), with each node's children and the roots; for
 * an event without one (an estimate is of --sort's alone, a maximum
 * has none), another's; null when no event has one. */
function flameBase() {
	const trees = doc('flame').trees;
	const T = trees[ev] || trees.find(t => t);

	if (!T)
		return null;
	if (!T.kids) {
		T.kids = T.unit.map(() => []);
		T.roots = [];
		T.parent.forEach((p, i) => (p < 0 ? T.roots : T.kids[p]).push(i));
	}
	return T;
}
function flameName(T, i) {
	const u = T.unit[i];

	return u < 0 ? cycleName(-u) : name(u);
}
/* What the flame graph's search reads of a frame: its name, without
 * what a label adds to tell two functions of one name apart
 * (" (object: file)"): "fib" finds fib, not "(below main) (/build/fib)" */
function flameSearchName(T, i) {
	const u = T.unit[i];
	/* made once a unit and naming (short names or not): a search
	 * walks the whole tree at each key */
	const key = shortNames ? 'searchShort' : 'searchNames';

	if (!T[key])
		T[key] = new Map();
	if (!T[key].has(u))
		T[key].set(u, (u < 0 ? cycleName(-u) : u === NF ? name(u)
			: labelParts(u, shortNames).core).toLowerCase());
	return T[key].get(u);
}
function flameColor(s) {
	let h = 0;

	for (let i = 0; i < s.length; i++)
		h = (h * 31 + s.charCodeAt(i)) >>> 0;
	return 'hsl(' + (10 + h % 45) + ', 85%, ' + (60 + (h >> 8) % 15) + '%)';
}
/* Where the start-up code (the loader's, the C runtime's) is most of
 * the graph, a link to the program: the heaviest node of the function
 * the Function view opens on (start_function.h), when it is not a
 * root already. */
function programLink(T, icicle) {
	const f = D.start_function;
	let best = -1;

	for (let i = 0; i < T.unit.length; i++)
		if (T.unit[i] === f && (best < 0 || T.value[i] > T.value[best]))
			best = i;
	if (best < 0 || T.parent[best] < 0)
		return null;
	return el('a', { id: 'flame-program',
		href: flameHref((icicle ? '#icicle/' : '#flame/') + best) }, 'zoom to ' + name(f));
}
let flameSearch = '';
/* The nodes of T that hit(node) takes and none of whose callers it
 * does: what a search matched, each path counted once; also the diff
 * page's (diffflame.js) */
function flameOutermost(T, hit) {
	const out = [], walk = [...T.roots];

	while (walk.length) {
		const i = walk.pop();

		if (hit(i))
			out.push(i);
		else
			walk.push(...T.kids[i]);
	}
	return out;
}
/* levels drawn below the zoomed frame, and callers shown above it:
 * a stack can be 100,000 frames deep */
const FLAME_DEPTH = 300, FLAME_CALLERS = 40;

/* The width of a character of the frames' font, measured once. */
let flameCharWidth = 0;
function flameCharPx() {
	if (!flameCharWidth) {
		const probe = el('div', { class: 'fr' }, '0'.repeat(40));

		probe.style.visibility = 'hidden';
		probe.style.width = 'auto';
		document.body.append(probe);
		flameCharWidth = (probe.scrollWidth - 2) / 40 || 7;
		probe.remove();
	}
	return flameCharWidth;
}

/*
 * A frame's label in fits characters: whole when it fits; else without
 * a clone's suffix (it says less than the method it would push out; the
 * title keeps it), shortened in the middle as the tables' names are, so
 * that the method stays; a frame too narrow for that shows the method
 * alone, its end kept. Under ten characters, the name's start, cut.
 */
function flameLabel(label, fits) {
	if (label.length <= fits || fits < 10)
		return label;
	const s = label.replace(/ \[clone [^\]]*\]$/, '');
	const t = shortName(s, fits);
	const p = nameParts(s);
	const method = s.slice(p.last, p.targs);

	if (t.length <= fits && t.includes(method))
		return t;
	return '\u2026' + method.slice(Math.max(0, method.length - fits + 1));
}

/* Why the graph is not of the event chosen: a maximum (MEM_MAX) cannot
 * be widths, which add up (html_data.c, print_folded's refusal) */
function flameMaxNote() {
	return EV[ev] + ' is a maximum (the largest single value, not a ' +
		'sum), which a flame graph cannot show: its widths add up';
}
/* Why tree T, of another event, stands for the event shown: a
 * maximum has no tree; Callgrind's estimate is of --sort's event
 * alone. '' when T is the event shown's. */
function treeOtherEvent(T) {
	return T.event === EV[ev] ? '' : isMax() ? ' (' + flameMaxNote() + ')'
		: ' (estimated for the event --sort chose only)';
}

function viewFlame(icicle, zoom) {
	const box = el('div');
	const FL = flameTree();

	if (!FL)
		return el('p', { class: 'note', id: 'flame-max' },
			flameMaxNote() + '; no event of this profile adds up.');
	const search = el('input', { type: 'search', id: 'flame-search',
		placeholder: 'search: part of a name', value: flameSearch });
	const matched = el('span', { class: 'muted', id: 'flame-matched' });
	const info = el('div', { id: 'flame-info', class: 'muted' });
	const deepNote = el('div', { class: 'muted' });
	const area = el('div', { class: 'flame', id: 'flame' });
	/* the graph scrolls in a box of the window's height, so that the
	 * root and the readout above stay in view at any depth */
	const scroller = el('div', { class: 'flame-box', id: 'flame-box' },
		area);
	const H = 17;
	let drawnOnce = false;
	let drawnWidth = -1;	/* the area's width when last drawn */

	box.append(el('div', { class: 'controls' },
		el('span', null, (icicle ? 'Icicle' : 'Flame graph') + ' of ' + FL.event +
			treeOtherEvent(FL)),
		FL.estimated ? el('span', { class: 'note', id: 'flame-estimated' },
			'estimated from call arcs: the profile has no stacks') : null,
		zoom !== undefined
			? el('a', { href: flameHref(icicle ? '#icicle' : '#flame') }, 'reset zoom')
			: programLink(FL, icicle),
		search, matched,
		flameOrderChooser((icicle ? '#icicle' : '#flame') +
			(zoom !== undefined ? '/' + zoom : ''))), info, deepNote, scroller);
	function draw() {
		/* where the reader is, from the root's end: the root stays
		 * put when a search or a resize redraws */
		const keep = !drawnOnce ? (icicle ? 0 : scroller.clientHeight)
			: icicle ? scroller.scrollTop
			: scroller.scrollHeight - scroller.scrollTop;

		const W = area.clientWidth || 1000;
		const frames = [];	/* [node or -1, x, w, depth, up] */

		drawnWidth = area.clientWidth;
		const z = zoom >= 0 && zoom < FL.unit.length ? zoom : -1;
		const ztotal = z < 0 ? FL.total : FL.value[z];
		const scale = ztotal > 0 ? W / ztotal : 0;
		let depth = 0;

		/* the root, then the zoomed node's callers, full width
		 * (the nearest FLAME_CALLERS of them) */
		frames.push([-1, 0, W, depth++, z >= 0]);
		if (z >= 0) {
			const chain = [];

			for (let p = FL.parent[z]; p >= 0 && chain.length < FLAME_CALLERS;
			     p = FL.parent[p])
				chain.unshift(p);
			for (const p of chain)
				frames.push([p, 0, W, depth++, true]);
		}
		const laid = flameLayout(FL, z < 0 ? flameRoots(FL) : [z], 0,
			scale, depth, depth + FLAME_DEPTH, frames);

		if (z < 0)
			flameMoreFrame(FL, -1, FL.roots.reduce((x, r) =>
				x + FL.value[r] * scale, 0), scale, depth,
				depth + FLAME_DEPTH, frames);
		const maxDepth = Math.max(depth, laid.maxDepth), cut = laid.cut;

		area.textContent = '';
		area.style.height = (maxDepth + 1) * H + 'px';
		const needle = flameSearch.toLowerCase();
		const frag = document.createDocumentFragment();

		for (const [i, fx, w, d, up, m] of frames) {
			const label = i === -2 ? fmt(m[0]) + ' more'
				: i < 0 ? 'all' : flameName(FL, i);
			const value = i === -2 ? m[1] : i < 0 ? FL.total : FL.value[i];

			frag.append(flameFrame(i, label, fx, w,
				(icicle ? d : maxDepth - d) * H,
				(i === -2 || FL.unit[i] === NF ? ' more' : i < 0 ? ' root' : '') +
				(up ? ' up' : '') +
				(i >= 0 && needle && flameSearchName(FL, i).includes(needle) ? ' hit' : ''),
				value, i === -2 ? flameMoreTitle(m, FL.total)
				: label + ': ' + withUnitPath(value) + ' (' + pct(value, FL.total) + ')'));
		}
		area.append(frag);
		framesTabStop(area);
		deepNote.textContent = cut ? 'Stacks deeper than ' + FLAME_DEPTH +
			' frames are not drawn: click a frame to zoom in.' : '';
		/* what the search matches, not counting a match inside one */
		if (needle) {
			/* on a cut page, with the paths it merged */
			const W = flameWhole();
			const sum = flameOutermost(W, i => W.unit[i] !== NF &&
				flameSearchName(W, i).includes(needle))
				.reduce((s, i) => s + W.value[i], 0);

			matched.textContent = 'matched ' + withUnitPath(sum) + ' (' + pct(sum, FL.total) + ')' +
				(CUT ? '; the functions ' + cutBelow() +
				 ' are not in this report (--threshold=0 embeds them)' : '');
		} else {
			matched.textContent = '';
		}
		/* last, when the lines above have their text */
		scroller.scrollTop = icicle ? keep
			: scroller.scrollHeight - keep;
		/* the readout sticks below the tabs, which stick to the top */
		info.style.top =
			document.getElementById('tabs').offsetHeight + 'px';
		if (!drawnOnce) {
			const root = area.querySelector('.fr.root');

			/* the box ends below the fold when the header is tall */
			if (root)
				root.scrollIntoView({ block: 'nearest' });
			drawnOnce = true;
		}
	}
	area.addEventListener('click', e => {
		const t = e.target.closest('.fr');

		if (!t || t.classList.contains('more'))
			return;
		const i = Number(t.dataset.node);

		location.hash = withXforms(flameHref((icicle ? '#icicle' : '#flame') +
			(i >= 0 ? '/' + i : '')));
	});
	area.addEventListener('mouseover', e => {
		const t = e.target.closest('.fr');
		const i = t ? Number(t.dataset.node) : -1;

		info.textContent = '';
		if (!t)
			return;
		const links = el('span', { class: 'readout-links' });

		if (i >= 0 && isPageFn(FL.unit[i]))
			links.append(' \u00b7 ', fnLink(FL.unit[i]));
		if (i >= 0 && FL.unit[i] !== NF)
			links.append(' \u00b7 ', el('a', { href: flameHref('#sandwich/' + FL.unit[i]),
				title: 'key s on a frame' }, 'sandwich'));
		readoutFill(info, t.title, links);
	});
	/* from the keys: a frame in focus has the readout, Enter zooms
	 * to it as a click does, "s" opens its sandwich, "m" its menu */
	area.addEventListener('focusin', e =>
		e.target.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
	framesKeys(area);
	area.addEventListener('keydown', e => {
		const t = e.target.closest('.fr');
		const i = t ? Number(t.dataset.node) : -1;

		if (frameMenuKey(e, t))
			return;
		if (t && e.key === 'Enter')
			t.click();
		else if (i >= 0 && FL.unit[i] !== NF && e.key === 's')
			location.hash = withXforms(flameHref('#sandwich/' + FL.unit[i]));
		else
			return;
		e.preventDefault();
	});
	search.addEventListener('input', () => {
		flameSearch = search.value;
		draw();
	});
	/* drawn by route() when the box is in the page (its width known),
	 * and again only when that width changes: a panel drawn above it
	 * (timeline.js) or a scroll bar coming can narrow it after */
	box.redraw = draw;
	if (window.ResizeObserver)
		new ResizeObserver(() => {
			if (box.isConnected && area.clientWidth !== drawnWidth)
				draw();
		}).observe(area);
	return box;
}
