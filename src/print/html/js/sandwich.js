/* Sandwich: one function's callers and callees as flame graphs */

/* A child of node p of merged tree S for unit, made when new */
function sandwichChild(S, p, unit) {
	let c = S.at[p].get(unit);

	if (c === undefined) {
		c = S.unit.length;
		S.unit.push(unit);
		S.value.push(0);
		S.kids.push([]);
		S.at.push(new Map());
		S.kids[p].push(c);
		S.at[p].set(unit, c);
	}
	return c;
}

/*
 * Unit u's frames in tree T (the flame graph's, flameTree(): after the
 * user's transforms), those of the units is() holds (u, or a cycle's
 * members), all its call paths merged, in two trees of the
 * flame graph's shape (unit, value, kids, roots) rooted at node 0, u:
 * "up", its callers, the nearest first; "down", its callees. Of each
 * path only its outermost frame of u is taken, its callers above and
 * everything below (a recursive call of u too): each stack is counted
 * once, as u's inclusive cost counts it. "root": what of it is in
 * stacks that start at u. With entered (a cycle's members), the frame
 * itself is the first below, so that the member entered shows.
 */
function sandwichTrees(T, u, is, entered) {
	const tree = () => ({ unit: [u], value: [0], kids: [[]], roots: [0],
		at: [new Map()] });
	const up = tree(), down = tree();
	const walk = T.roots.slice();
	let root = 0;

	while (walk.length) {
		const n = walk.pop();

		if (!is(T.unit[n])) {
			walk.push(...T.kids[n]);
			continue;
		}
		const v = T.value[n];
		let c = 0;

		up.value[0] += v;
		down.value[0] += v;
		if (T.parent[n] < 0)
			root += v;
		for (let p = T.parent[n]; p >= 0; p = T.parent[p]) {
			c = sandwichChild(up, c, T.unit[p]);
			up.value[c] += v;
		}
		/* its subtree, merged into down's by unit, children in
		 * the tree's order */
		const below = (entered ? [n] : T.kids[n]).map(k => [k, 0]).reverse();

		while (below.length) {
			const [k, at] = below.pop();
			const m = sandwichChild(down, at, T.unit[k]);

			down.value[m] += T.value[k];
			for (let j = T.kids[k].length; j-- > 0;)
				below.push([T.kids[k][j], m]);
		}
	}
	return { up, down, root };
}

/* A tree estimated from arcs scaled to the measured cost, the middle
 * that cost exactly */
function sandwichScale(S, measured) {
	const factor = measured / S.up.value[0];

	for (const t of [S.up, S.down]) {
		t.value = t.value.map(v => v * factor);
		t.value[0] = measured;
	}
	S.root *= factor;
}

function viewSandwich(f) {
	/* on a cut page, with the paths it merged */
	const T = flameWhole();

	if (!T)	/* only maximum events: no tree adds up */
		return el('p', { class: 'note', id: 'flame-max' },
			flameMaxNote() + '; no event of this profile adds up.');
	let u = f;

	if (!(u >= 0 && u < NF) && !(u < 0 && calls().cycleByNumber[-u]))
		u = D.start_function;
	if (!(u >= 0 && u < NF) && !(u < 0))
		return el('p', null, 'The profile has no functions.');
	/* estimated from arcs, the tree has a cycle as one unit, its
	 * members as leaves of their share of its self cost */
	const member = u >= 0 && T.estimated && fnCycle(u) ? u : -1;

	if (member >= 0)
		u = -fnCycle(u);
	const label = u < 0 ? cycleName(-u) : fullName(u);
	/* a cycle in a tree from stacks: the frames of its members */
	const members = u < 0 && !T.estimated
		? new Set(calls().cycleByNumber[-u].members) : null;
	const S = sandwichTrees(T, u, members ? x => members.has(x) : x => x === u,
		!!members);
	/* an estimate's paths, scaled to the cost the profile measured
	 * (the tree's roots are scaled to the total, and its smallest
	 * paths cut): its middle the function's inclusive cost, as the
	 * listings and --json give it. Not after a transform: the tree's
	 * costs are the ones in view. */
	const measured = T.estimated && !T.transformed && S.up.value[0] > 0;

	if (measured)
		sandwichScale(S, u < 0 ? calls().cycleByNumber[-u].inclusive[ev]
				 : fnIncl(u));
	const mid = S.up.value[0];
	const box = el('div', { id: 'sandwich-view' });
	const info = el('div', { id: 'flame-info', class: 'muted' });
	const deepNote = el('div', { class: 'muted' });
	const area = el('div', { class: 'flame', id: 'sandwich' });
	const scroller = el('div', { class: 'flame-box', id: 'sandwich-box' }, area);
	const H = 17;
	const sum = t => t.kids[0].reduce((s, k) => s + t.value[k], 0);
	let drawnOnce = false;

	box.append(el('div', { class: 'controls' },
		el('span', null, 'Sandwich of ', el('b', { id: 'sandwich-name' }, label),
			' for ' + T.event + treeOtherEvent(T)),
		T.estimated ? el('span', { class: 'note', id: 'flame-estimated' },
			'estimated from call arcs: the profile has no stacks' +
			(T.transformed ? '' : '; scaled to the measured inclusive cost'))
			: null,
		u < 0 ? cycleLink(-u) : el('a', { href: '#fn/' + u }, 'Function view'),
		flameOrderChooser('#sandwich/' + (member >= 0 ? member : u))));
	if (member >= 0)
		box.append(el('p', { class: 'note' }, name(member) + ' is part of ' +
			cycleName(-u) + ': the tree estimated from call arcs takes ' +
			'the cycle as one, so this is the cycle\'s sandwich.'));
	box.append(el('p', { id: 'sandwich-facts' },
		'Inclusive ', el('b', null, withUnitPath(mid)), ' (' +
		pct(mid, measured ? total() : T.total) +
		' of the total); from its callers ' + withUnitPath(sum(S.up)) +
		', in stacks starting at it ' + withUnitPath(S.root) +
		'; in its callees ' + withUnitPath(sum(S.down)) + ', in itself ' +
		/* an estimate's sum may pass it by a rounding error */
		withUnitPath(Math.max(0, mid - sum(S.down))) + '. Callers above it, callees ' +
		'below: each of its call paths once, merged.'), info, deepNote);
	if (!(mid > 0)) {
		box.append(el('p', null, label + ' has no frame in the flame ' +
			'graph of ' + T.event + '.'));
		return box;
	}
	box.append(scroller);

	function draw() {
		const W = area.clientWidth || 1000;
		const scale = W / mid;
		const ups = [], downs = [];
		const a = flameLayout(S.up, [0], 0, scale, 0, FLAME_DEPTH, ups);
		const b = flameLayout(S.down, [0], 0, scale, 0, FLAME_DEPTH, downs);
		const top = a.maxDepth;	/* the middle's row */
		const frag = document.createDocumentFragment();
		const frame = (t, half, [i, x, w, d]) => {
			const lab = flameName(t, i);
			const v = t.value[i];
			const div = flameFrame(i, lab, x, w,
				(half === 'callers' ? top - d : top + d) * H,
				i ? (t.unit[i] === NF ? ' more' : '') : ' mid', v,
				lab + ': ' + withUnitPath(v) + ' (' +
				pct(v, mid) + ' of ' + label + '\'s)');

			div.dataset.half = i ? half : 'middle';
			div.dataset.unit = t.unit[i];
			frag.append(div);
		};

		for (const fr of ups)
			frame(S.up, 'callers', fr);
		for (const fr of downs)
			if (fr[0])
				frame(S.down, 'callees', fr);
		area.textContent = '';
		area.style.height = (top + b.maxDepth + 1) * H + 'px';
		area.append(frag);
		framesTabStop(area);
		deepNote.textContent = a.cut || b.cut ? 'Paths longer than ' +
			FLAME_DEPTH + ' frames are not drawn.' : '';
		info.style.top = document.getElementById('tabs').offsetHeight + 'px';
		/* first, the middle in view */
		if (!drawnOnce) {
			scroller.scrollTop = top * H - scroller.clientHeight / 3;
			drawnOnce = true;
		}
	}
	/* a frame opens its function's sandwich; the middle its
	 * Function view */
	const open = t => {
		const v = Number(t.dataset.unit);

		if (v === NF)	/* the functions a cut page left out */
			return;
		location.hash = withXforms(t.dataset.half === 'middle'
			? (v < 0 ? '#cycle/' + -v : '#fn/' + v)
			: flameHref('#sandwich/' + v));
	};
	area.addEventListener('click', e => {
		const t = e.target.closest('.fr');

		if (t)
			open(t);
	});
	framesKeys(area);
	area.addEventListener('keydown', e => {
		const t = e.target.closest('.fr');

		if (frameMenuKey(e, t && t.dataset.unit !== undefined ? t : null))
			return;
		if (t && (e.key === 'Enter' || e.key === ' ')) {
			e.preventDefault();
			open(t);
		}
	});
	const readout = e => {
		const t = e.target.closest('.fr');

		info.textContent = '';
		if (!t)
			return;
		const v = Number(t.dataset.unit);

		readoutFill(info, t.title, el('span', { class: 'readout-links' },
			' \u00b7 ', v < 0 ? cycleLink(-v) : unitLink(v)));
	};
	area.addEventListener('mouseover', readout);
	area.addEventListener('focusin', readout);
	/* route() draws it once in the page; a view made elsewhere is
	 * drawn in the next frame */
	requestAnimationFrame(() => drawnOnce || draw());
	box.redraw = draw;
	return box;
}
