/* The views by location.hash */

let lastFunction, waiting = false, drawn = false;

/* A hash as its place ("flame/12") and its parameters after it, each
 * "&key=value", as [key, value as written] pairs; and back */
function hashParts(hash) {
	const [place, ...rest] = hash.replace(/^#/, '').split('&');
	const params = rest.filter(p => p).map(p => {
		const eq = p.indexOf('=');

		return eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
	});

	return { place, params };
}
function hashJoin(place, params) {
	return '#' + place + params.map(([k, v]) => '&' + k + '=' + v).join('');
}

function route() {
	/* "#place/arg&key=value": the flame graphs' order and the
	 * transforms in force (transform.js) after the place */
	const { place, params } = hashParts(location.hash);
	const parts = (place || 'top').split('/');
	const order = (params.find(([k]) => k === 'order') || ['', ''])[1];
	const arg = parts.length > 1 && parts[1] !== '' ? Number(parts[1]) : undefined;
	let tab = parts[0], node;

	/* the views but Top read the documents after this script: they
	 * wait until the browser has read the page; so does Top under
	 * transforms (the flame graph's trees) */
	if ((params.length || ['fn', 'cycle', 'flame', 'icicle', 'sandwich',
	     'source', 'disasm', 'calltree', 'bottomup'].includes(tab)) &&
	    document.readyState === 'loading') {
		if (!waiting)
			document.addEventListener('DOMContentLoaded', route);
		waiting = true;
		return;
	}
	xformSet(params);

	flameOrder = FLAME_ORDERS[order] ? order : '';
	switch (parts[0]) {
	case 'fn':
		if (arg !== undefined)
			lastFunction = arg;
		node = viewFunction(arg !== undefined ? arg : lastFunction);
		break;
	case 'cycle':
		node = viewCycle(arg);
		tab = 'fn';
		break;
	case 'flame':
	case 'icicle':
		node = viewFlame(parts[0] === 'icicle', arg);
		break;
	case 'sandwich':
		/* a function, or -N: cycle N as a whole */
		if (arg >= 0)
			lastFunction = arg;
		node = viewSandwich(arg !== undefined ? arg : lastFunction);
		break;
	case 'source':
		node = viewSource(arg, parts[2] ? Number(parts[2]) : undefined);
		break;
	case 'disasm':
		node = viewDisasm(arg);
		break;
	case 'calltree':
		node = viewCallTree();
		break;
	case 'bottomup':
		node = viewBottomUp();
		break;
	default:
		tab = 'top';
		node = viewTop();
	}
	/* the views of lines and instructions, and gprof's cycle entry,
	 * are of the whole profile: the transforms are of call paths */
	if (xforms.length && ['cycle', 'source', 'disasm'].includes(parts[0]))
		node.prepend(el('p', { class: 'note', id: 'xform-whole' },
			'This view is of the whole profile: the transforms in force ' +
			'apply to the call paths (Top, Function, flame graph, call ' +
			'tree, bottom-up).'));
	const focused = focusKeys(view) ||
		(document.activeElement === document.body ? focusLast : null);

	view.textContent = '';
	view.append(node);
	for (const a of document.querySelectorAll('#tabs a')) {
		a.classList.toggle('on', a.id === 'tab-' + tab);
		a.setAttribute('href', withXforms('#' + a.id.slice(4)));
	}
	/* the flame graphs' tabs keep the order chosen */
	for (const t of ['flame', 'icicle', 'sandwich'])
		document.getElementById('tab-' + t).href =
			withXforms(flameHref('#' + t));
	drawCrumbs();
	drawTracks();
	if (node.redraw)
		node.redraw();
	focusBack(focused);
	if (!drawn)
		firstDrawn();
	drawn = true;
	/* the place drawn, for a test (or a script) to wait for: a
	 * hashchange is handled a task after the hash is set */
	document.body.dataset.route = location.hash;
}

/* How long the first view took, for bench/html and the curious:
 * from the script's start, and from the start of loading the page,
 * in the animation frame that paints it. */
function firstDrawn() {
	performance.mark('cga-drawn');
	requestAnimationFrame(() => {
		document.body.dataset.drawMs = (performance.now() - t0).toFixed(0);
		document.body.dataset.loadedMs = performance.now().toFixed(0);
	});
}

drawHeader();
window.addEventListener('hashchange', route);
window.addEventListener('resize', () => {
	const flame = view.firstChild;

	if (flame && flame.redraw)
		flame.redraw();
});
route();
/* once the page is read, the other views' documents are parsed and
 * indexed while the browser is idle, so that the first click on a
 * view does not wait for them */
window.addEventListener('load', () => {
	const idle = window.requestIdleCallback || (f => setTimeout(f, 50));

	for (const warm of [calls, code, flameTree])
		idle(() => warm());
});
