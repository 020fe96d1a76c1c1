/* The differential flame graph: NEW's call paths, each frame coloured
 * by its change from BASE */

/*
 * Drawn as the report's flame graph (frames.js lays it out from the
 * tree's values, NEW's), so its root spans NEW's total and a path BASE
 * alone has takes no width. A frame's colour says its change: red where
 * NEW spends more (slower), blue where less (faster), grey where the
 * same, more saturated the larger the change, the largest in view full;
 * a path BASE does not have is hatched ("new"). With the switch, the
 * changes are of shares.
 */
function diffColor(d, most) {
	if (!d || !most)
		return 'hsl(0, 0%, 86%)';
	const t = Math.min(1, Math.abs(d) / most);

	return 'hsl(' + (d > 0 ? 0 : 215) + ', ' + (20 + 70 * t).toFixed(0) +
		'%, ' + (88 - 30 * t).toFixed(0) + '%)';
}
/* The search: frames whose name holds it (any case) are outlined and
 * the others faded, so that a frame keeps the colour of its change;
 * kept in the hash ("&search=") by diffroute.js */
let diffFlameSearch = '';
/* What the search reads of a frame: its name, without what a label
 * adds to tell two functions of one name apart (" (object: file)"):
 * "fib" finds fib, not "(below main) (/build/fib)" */
function diffSearchName(T, u) {
	const core = f => labelParts(f, shortNames).core;

	/* made once a unit: a search walks the whole tree at each key */
	if (!T.searchNames)
		T.searchNames = new Map();
	if (!T.searchNames.has(u))
		T.searchNames.set(u, (u >= 0 ? core(u)
			: T.cycles[-u - 1].map(core).join(', ')).toLowerCase());
	return T.searchNames.get(u);
}
/* What the search matched on each side, each path once (a match inside
 * a match is in it): its cost and share of the side's total and the
 * change, as a frame's */
function diffMatchedText(T, needle) {
	const nodes = flameOutermost(T, i =>
		diffSearchName(T, T.unit[i]).includes(needle));
	const [b, n] = pathSides(nodes.reduce((s, i) => s + T.vb[i], 0),
		nodes.reduce((s, i) => s + T.value[i], 0));
	const of = (v, t) => shares ? '' : ' (' + pct(v, t) + ')';

	if (!nodes.length)
		return 'no frame matches';
	return 'matched: base ' + fmtSide(sideValue(b, 0)) + of(b, T.baseTotal) +
		', new ' + fmtSide(sideValue(n, 1)) + of(n, T.total) + ', change ' +
		fmtChange(change(b, n)) + ' (' + fmtPct(changePct(b, n)) + ')';
}
/* What a node (or the root, -1) is on each side, in words */
function diffNodeText(T, i) {
	const [b, n] = pathSides(i < 0 ? T.baseTotal : T.vb[i],
		i < 0 ? T.total : T.value[i]);
	const label = i < 0 ? 'all' : diffUnitName(T, T.unit[i]);

	return label + ': base ' + fmtSide(sideValue(b, 0)) + ', new ' +
		fmtSide(sideValue(n, 1)) + ', change ' + fmtChange(change(b, n)) +
		' (' + fmtPct(changePct(b, n)) + ')' +
		(i >= 0 && !T.inBase[i] ? ' \u00b7 new: not in base' : '');
}
function diffLegend() {
	const swatch = (cls, style, text) => {
		const s = el('span', { class: 'swatch ' + cls });

		if (style)
			s.style.background = style;
		return el('span', { class: 'legend-item' }, s, text);
	};

	return el('div', { class: 'legend', id: 'flame-legend' },
		swatch('', diffColor(1, 1), shares ? 'larger share in new' : 'slower: more in new'),
		swatch('', diffColor(0.3, 1), 'a little'),
		swatch('', diffColor(0, 1), 'no change'),
		swatch('', diffColor(-0.3, 1), 'a little'),
		swatch('', diffColor(-1, 1), shares ? 'smaller share in new' : 'faster: less in new'),
		swatch('newpath', null, 'new: not in base'),
		el('span', { class: 'muted' }, 'colour by the size of the change, ' +
			'the largest in view full; widths are new\'s'));
}

function viewDiffFlame(zoom) {
	if (diffNoTree())
		return diffNoTree();
	const T = diffTree();
	const box = el('div', { id: 'diffflame-view' });
	const info = el('div', { id: 'flame-info', class: 'muted' });
	const area = el('div', { class: 'flame', id: 'flame' });
	const scroller = el('div', { class: 'flame-box', id: 'flame-box' }, area);
	const search = el('input', { type: 'search', id: 'flame-search',
		placeholder: 'search: part of a name', value: diffFlameSearch });
	const matched = el('span', { class: 'muted', id: 'flame-matched' });
	const reset = zoom !== undefined ? el('a', { href: diffHref('#flame'),
		id: 'flame-reset' }, 'reset zoom') : null;
	/* a click zooms to a frame; its function's view is then a link */
	const zu = zoom >= 0 && zoom < T.unit.length ? T.unit[zoom] : -1;
	const fnLink = zu >= 0 ? el('a', { href: diffHref('#fn/' + zu),
		id: 'flame-fn' }, 'function view of ' + fitName(zu, 60)) : null;
	const H = 17;

	box.append(el('div', { class: 'controls' },
		el('span', null, 'Differential flame graph of ' + diffEvent() +
			': new\'s call paths, coloured by their change from base'),
		T.estimated ? el('span', { class: 'note', id: 'flame-estimated' },
			'estimated from call arcs: the profiles have no stacks') : null,
		reset, fnLink, search, matched),
		diffLegend(), info, scroller);
	function draw() {
		const W = area.clientWidth || 1000;
		const frames = [];
		const z = zoom >= 0 && zoom < T.unit.length ? zoom : -1;
		const ztotal = z < 0 ? T.span : T.value[z];
		const scale = ztotal > 0 ? W / ztotal : 0;
		let depth = 0;

		frames.push([-1, 0, W, depth++, z >= 0]);
		if (z >= 0) {
			const chain = [];

			for (let p = T.parent[z]; p >= 0; p = T.parent[p])
				chain.unshift(p);
			for (const p of chain)
				frames.push([p, 0, W, depth++, true]);
		}
		const laid = flameLayout(T, z < 0 ? T.roots : [z], 0, scale, depth,
			depth + FLAME_DEPTH, frames);
		const maxDepth = Math.max(depth, laid.maxDepth);
		let most = 0;

		/* of the frames zoomed to: their callers' changes would
		 * grey them out */
		for (const [i, , , , up] of frames)
			if (i >= 0 && !up)
				most = Math.max(most, Math.abs(change(T.vb[i], T.value[i])));
		area.textContent = '';
		area.style.height = (maxDepth + 1) * H + 'px';
		const needle = diffFlameSearch.toLowerCase();
		const frag = document.createDocumentFragment();

		area.classList.toggle('searching', !!needle);
		matched.textContent = needle ? diffMatchedText(T, needle) : '';
		for (const [i, fx, w, d, up] of frames) {
			const label = i < 0 ? 'all' : diffUnitName(T, T.unit[i]);
			const value = i < 0 ? T.total : T.value[i];
			const div = flameFrame(i, label, fx, w, (maxDepth - d) * H,
				(i < 0 ? ' root' : '') + (up ? ' up' : '') +
				(i >= 0 && !T.inBase[i] ? ' newpath' : '') +
				(i >= 0 && needle && diffSearchName(T, T.unit[i]).includes(needle)
					? ' match' : ''),
				value, diffNodeText(T, i));

			if (i >= 0) {
				div.style.background = diffColor(change(T.vb[i], T.value[i]), most);
				div.dataset.base = T.vb[i];
			} else {
				div.dataset.base = T.baseTotal;
			}
			frag.append(div);
		}
		area.append(frag);
		framesTabStop(area);
		scroller.scrollTop = scroller.scrollHeight;
		info.style.top = document.getElementById('tabs').offsetHeight + 'px';
	}
	area.addEventListener('click', e => {
		const t = e.target.closest('.fr');

		if (t)
			location.hash = diffHref('#flame' + (Number(t.dataset.node) >= 0
				? '/' + t.dataset.node : ''));
	});
	area.addEventListener('mouseover', e => {
		const t = e.target.closest('.fr');

		info.textContent = '';
		if (t)
			readoutFill(info, t.title, null);
	});
	area.addEventListener('focusin', e =>
		e.target.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
	framesKeys(area);
	area.addEventListener('keydown', e => {
		const t = e.target.closest('.fr');

		if (t && e.key === 'Enter') {
			t.click();
			e.preventDefault();
		}
	});
	/* the hash says the search as typed: replaced, not a step of
	 * the history for each key */
	search.addEventListener('input', () => {
		diffFlameSearch = search.value;
		history.replaceState(null, '', diffHref('#flame' +
			(zoom !== undefined ? '/' + zoom : '')));
		if (reset)
			reset.setAttribute('href', diffHref('#flame'));
		diffTabLinks('flame');
		document.body.dataset.route = location.hash;
		draw();
	});
	/* drawn once, by diffRoute() when the box is in the page */
	box.redraw = draw;
	return box;
}
