/* Frames: what the flame graph, the icicle and the sandwich draw alike */

/*
 * The order of a frame's children: as the tree holds them (the order
 * the stacks or arcs came in: the default), heaviest first ("weight",
 * left-heavy), or by name ("name"). Set by route() from the address's
 * "&order=", so that a bookmark keeps it.
 */
let flameOrder = '';
const FLAME_ORDERS = { '': 'as recorded', weight: 'heaviest first', name: 'by name' };

/* The readout above a graph of frames: the hovered frame's title,
 * "NAME: COST", the name cut with an ellipsis where the line ends, its
 * cost ("510 (100.00%)", the diff's "base 300, new ...") and links (or
 * none) after it always in view; one line, so that a long C++ name
 * does not push the graph down under the pointer (report.css,
 * #flame-info). The cost starts at the last ": " before a figure or
 * "base " (a name may hold ": ", "(libc.so.6: ./csu/...)"). */
function readoutFill(info, text, links) {
	const m = [...text.matchAll(/: (?=base |[-+]?\d)/g)].pop();
	const at = m ? m.index : text.length;

	info.textContent = '';
	info.append(el('span', { class: 'readout-text' }, text.slice(0, at)),
		el('span', { class: 'readout-cost' }, text.slice(at)));
	if (links)
		info.append(links);
}

/* A place in the flame graph, the icicle or the sandwich, in the order
 * shown. */
function flameHref(place) {
	return place + (flameOrder ? '&order=' + flameOrder : '');
}
function flameSorted(T, list) {
	if (flameOrder === 'weight')
		return list.slice().sort((a, b) => T.value[b] - T.value[a] || a - b);
	if (flameOrder === 'name') {
		const key = list.map(i => flameName(T, i));
		const low = key.map(k => k.toLowerCase());
		const at = new Map(list.map((i, k) => [i, k]));

		return list.slice().sort((a, b) => {
			const x = at.get(a), y = at.get(b);

			return low[x] < low[y] ? -1 : low[x] > low[y] ? 1
				: key[x] < key[y] ? -1 : key[x] > key[y] ? 1 : a - b;
		});
	}
	return list;
}
/* T's roots and node i's children in the order shown, sorted once */
function flameRoots(T) {
	return flameSorted(T, T.roots);
}
function flameKids(T, i) {
	if (!flameOrder)
		return T.kids[i];
	if (T.sortedBy !== flameOrder) {
		T.sortedBy = flameOrder;
		T.sortedKids = [];
	}
	return T.sortedKids[i] || (T.sortedKids[i] = flameSorted(T, T.kids[i]));
}

/*
 * Lays out tree T (unit, value, kids) from the nodes start, side by
 * side from x, at depth d0 on, scale px a unit of cost: pushes
 * [node, x, width, depth] to frames, depth first, children left to
 * right in the order shown; leaves out what is under half a pixel, and
 * past deepest (then cut). Returns the deepest depth drawn and cut.
 */
function flameLayout(T, start, x, scale, d0, deepest, frames) {
	const stack = [];
	let maxDepth = d0, cut = false;

	for (const r of start) {
		stack.push([r, x, d0]);
		x += T.value[r] * scale;
	}
	while (stack.length) {
		const [i, x0, d] = stack.pop();
		const w = T.value[i] * scale;

		if (w < 0.5)
			continue;
		if (d >= deepest) {
			cut = true;
			continue;
		}
		frames.push([i, x0, w, d, false]);
		if (d > maxDepth)
			maxDepth = d;
		let cx = x0;

		for (const k of flameKids(T, i)) {
			stack.push([k, cx, d + 1]);
			cx += T.value[k] * scale;
		}
		flameMoreFrame(T, i, cx, scale, d + 1, deepest, frames);
	}
	return { maxDepth, cut };
}

/* After node i's children (i -1: the roots), at x, the frame of those
 * merged under it (cut.js), when the tree has one there: [-2, x,
 * width, depth, false, [how many, cost]]. */
function flameMoreFrame(T, i, x, scale, d, deepest, frames) {
	const m = T.more_parent && flameMore(T).get(i);

	if (m && m[1] * scale >= 0.5 && d < deepest)
		frames.push([-2, x, m[1] * scale, d, false, m]);
}

/* A frame: node i (-1: the root, -2: merged ones) named label, at x, w px wide, top px
 * down, of classes more (" root", " hit"...), its value and title. */
function flameFrame(i, label, x, w, top, more, value, title) {
	const div = el('div', { class: 'fr' + more, 'data-node': i,
		'data-value': value, title, tabindex: -1 });

	div.style.left = x.toFixed(2) + 'px';
	div.style.width = w.toFixed(2) + 'px';
	div.style.top = top + 'px';
	/* (a frame of the functions a cut page left out is hatched as
	 * the merged ones are: cut.js) */
	if (i >= 0 && !more.startsWith(' more'))
		div.style.background = flameColor(label);
	/* shortened in the middle as the tables' names are, so that the
	 * end of a C++ name (the method) stays; a frame of a few
	 * characters shows the name's start, cut */
	if (w > 24)
		div.textContent = flameLabel(label, Math.floor((w - 3) / flameCharPx()));
	return div;
}

/*
 * The keyboard in a drawing of frames (flame graph, icicle, sandwich,
 * the diff's): one Tab stop, not one a frame (a big graph's thousands
 * made Tab walk thousands), and the arrows inside it. Frames are made
 * with tabindex -1; framesKeys(area) once, then framesTabStop(area)
 * after each drawing, give 0 to one frame: the last focused if drawn
 * again (by node), else the root, the middle or the first. Left and
 * Right go to the next frame on the row, Up and Down to the row above
 * or below, to the frame over the middle of this one or the nearest;
 * Home to the root.
 */
function framesTabStop(area) {
	const last = area.dataset.focusNode;
	const stop = (last !== undefined &&
		area.querySelector('.fr[data-node="' + last + '"]')) ||
		area.querySelector('.fr.root, .fr.mid') || area.querySelector('.fr');

	if (stop)
		stop.tabIndex = 0;
}
function framesKeys(area) {
	area.addEventListener('focusin', e => {
		const t = e.target.closest('.fr');

		if (!t)
			return;
		for (const f of area.querySelectorAll('.fr[tabindex="0"]'))
			if (f !== t)
				f.tabIndex = -1;
		t.tabIndex = 0;
		area.dataset.focusNode = t.dataset.node;
	});
	area.addEventListener('keydown', e => {
		const t = e.target.closest('.fr');
		const to = t && !e.altKey && !e.ctrlKey && !e.metaKey &&
			framesNext(area, t, e.key);

		if (to === undefined || to === false)
			return;
		e.preventDefault();
		if (to) {
			to.focus();
			to.scrollIntoView({ block: 'nearest', inline: 'nearest' });
		}
	});
}
/* The frame key k moves to from frame t: null for none that way,
 * undefined for a key that is not a move */
function framesNext(area, t, k) {
	const box = f => [parseFloat(f.style.left), parseFloat(f.style.width),
		parseFloat(f.style.top)];
	const [x, w, y] = box(t);
	const mid = x + w / 2;
	let best = null, bestD = Infinity;

	if (k === 'Home')
		return area.querySelector('.fr.root, .fr.mid');
	if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(k))
		return undefined;
	const frames = [...area.querySelectorAll('.fr')].map(f => [f, ...box(f)]);

	if (k === 'ArrowLeft' || k === 'ArrowRight') {
		for (const [f, fx, , fy] of frames) {
			const d = k === 'ArrowRight' ? fx - x : x - fx;

			if (fy === y && f !== t && d > 0 && d < bestD) {
				best = f;
				bestD = d;
			}
		}
		return best;
	}
	/* the nearest row that way, then its frame nearest the middle */
	let row = null;

	for (const [, , , fy] of frames) {
		const d = k === 'ArrowDown' ? fy - y : y - fy;

		if (d > 0 && (row === null || d < Math.abs(row - y)))
			row = fy;
	}
	for (const [f, fx, fw, fy] of frames) {
		if (fy !== row)
			continue;
		const d = mid < fx ? fx - mid : mid > fx + fw ? mid - fx - fw : 0;

		if (d < bestD) {
			best = f;
			bestD = d;
		}
	}
	return best;
}

/* The choice of flameOrder, a link each: the place with its order */
function flameOrderChooser(place) {
	const box = el('span', { class: 'order', id: 'flame-order' }, 'children: ');

	for (const o in FLAME_ORDERS)
		box.append(o === flameOrder
			? el('b', { 'data-order': o }, FLAME_ORDERS[o])
			: el('a', { href: place + (o ? '&order=' + o : ''), 'data-order': o },
				FLAME_ORDERS[o]), ' ');
	return box;
}
