/* The diff report's header, switch and views by location.hash */

/*
 *   #top            the functions' changes     #flame[/K]  the
 *   #calltree       the call tree              differential flame
 *   #bottomup       ... inverted               graph (zoomed to node K)
 *   #fn[/N]         row N's costs, callers and callees (difffn.js);
 *                   without N the last one shown
 * then the view's own: Top's "&sort=KEY,desc" (or ",asc"), the
 * Function view's "&callers=KEY,desc&callees=KEY,asc" (each table's
 * sort, absent for --json's order), the flame graph's "&search=TEXT"
 * (URI-encoded); then "&shares=1": the switch,
 * comparing each side's shares of its total. The report's route.js
 * reads the report's hash; this page's is its own, parsed here.
 */
let lastDiffFunction;
function hashParts(hash) {
	const [place, ...rest] = hash.replace(/^#/, '').split('&');
	const params = rest.filter(p => p).map(p => {
		const eq = p.indexOf('=');
		let v = eq < 0 ? '' : p.slice(eq + 1);

		try {
			v = decodeURIComponent(v);
		} catch (e) {
			/* a "%" not of an escape: as written */
		}
		return [eq < 0 ? p : p.slice(0, eq), v];
	});

	return { place, params };
}
/* A place of this page ("#flame/3") with its view's state (Top's
 * sort, the Function view's tables' sorts, the flame graph's search)
 * and the switch as they are */
function diffHref(place) {
	const sort = s => s.col + (s.desc ? ',desc' : ',asc');
	let own = '';

	if (place.startsWith('#top') && diffTopState.col)
		own = '&sort=' + sort(diffTopState);
	else if (place.startsWith('#fn'))
		own = ['callers', 'callees'].filter(w => diffFnState[w].col)
			.map(w => '&' + w + '=' + sort(diffFnState[w])).join('');
	else if (place.startsWith('#flame') && diffFlameSearch)
		own = '&search=' + encodeURIComponent(diffFlameSearch);
	return place + own + (shares ? '&shares=1' : '');
}
/* The tabs' links, each to its view as last seen: the Function tab to
 * the function last shown */
function diffTabLinks(tab) {
	for (const a of document.querySelectorAll('#tabs a')) {
		const place = '#' + a.id.slice(4);

		a.classList.toggle('on', a.id === 'tab-' + tab);
		a.setAttribute('href', diffHref(place === '#fn' && lastDiffFunction !==
			undefined ? place + '/' + lastDiffFunction : place));
	}
}
/* The view's own parameters from the hash: Top's and the Function
 * view's sorts, the default for none or a key this page does not
 * have; the search */
function diffViewState(tab, params) {
	const get = k => (params.find(([key]) => key === k) || [])[1];
	const sort = (state, value, keys) => {
		const [col, way] = (value || '').split(',');
		const known = keys.includes(col);

		state.col = known ? col : null;
		state.desc = !known || way !== 'asc';
	};

	if (tab === 'top') {
		sort(diffTopState, get('sort'), DIFF_TOP_KEYS);
	} else if (tab === 'fn') {
		for (const w of ['callers', 'callees'])
			sort(diffFnState[w], get(w), DIFF_FN_KEYS);
	} else if (tab === 'flame') {
		diffFlameSearch = get('search') || '';
	}
}

function drawDiffHeader() {
	const h = document.getElementById('head');
	const sides = el('table', { id: 'diff-sides' });
	const pctOf = SIDE_TOTAL[0] ? ' (' + fmtPct(100 * (SIDE_TOTAL[1] -
		SIDE_TOTAL[0]) / SIDE_TOTAL[0]) + ')' : '';
	const mains = DF.main_programs;

	h.append(el('h1', null, 'cganalyze --diff: ' + DF.base.path + ' \u2192 ' +
		DF.new.path));
	for (const [k, s] of [['base', DF.base], ['new', DF.new]])
		sides.append(el('tr', null, el('td', null, k), el('td', null, s.path),
			el('td', null, s.format || ''),
			el('td', { class: 'num', id: 'total-' + k }, withUnit(s.total))));
	sides.append(el('tr', null, el('td', null, 'change'),
		el('td', null, diffEvent()),
		el('td'), el('td', { class: 'num', id: 'total-change' },
			signed(DF.delta, fmtCost(Math.abs(DF.delta))) + pctOf)));
	h.append(sides);
	if (mains)
		h.append(el('p', { class: 'muted', id: 'diff-mains' }, mains.matched
			? 'The main programs ' + mains.base + ' (base) and ' + mains.new +
			  ' (new) are compared as one object: ' + mains.functions_in_both +
			  ' functions in both by ' + mains.by + '.'
			: 'The main programs ' + mains.base + ' (base) and ' + mains.new +
			  ' (new) have no function in both: not compared as one object.'));
	if (D.warnings) {
		const n = D.warnings.split('\n').filter(x => x).length;

		h.append(el('details', { id: 'warnings' },
			el('summary', null, 'Messages of the run (' + n + ')'),
			el('pre', null, D.warnings)));
	}
	const box = el('input', { type: 'checkbox', id: 'shares' });

	box.addEventListener('change', () => {
		const { place } = hashParts(location.hash);

		shares = box.checked;
		location.hash = diffHref('#' + (place || 'top'));
	});
	document.getElementById('tabs').append(el('label', {
		title: 'compare each function\'s share of its own profile\'s ' +
			'total: for runs of different lengths' }, box,
		' shares of each total'));
}

function diffRoute() {
	const { place, params } = hashParts(location.hash);
	const parts = (place || 'top').split('/');
	const arg = parts.length > 1 && parts[1] !== '' ? Number(parts[1]) : undefined;
	let tab = parts[0], node;

	shares = params.some(([k, v]) => k === 'shares' && v === '1');
	document.getElementById('shares').checked = shares;
	diffViewState(['fn', 'flame', 'calltree', 'bottomup'].includes(tab) ? tab
		: 'top', params);
	switch (tab) {
	case 'flame':
		node = viewDiffFlame(arg);
		break;
	case 'calltree':
		node = viewDiffCallTree();
		break;
	case 'bottomup':
		node = viewDiffBottomUp();
		break;
	case 'fn':
		if (arg !== undefined)
			lastDiffFunction = arg;
		node = viewDiffFunction(arg !== undefined ? arg : lastDiffFunction);
		break;
	default:
		tab = 'top';
		node = viewDiffTop();
	}
	const focused = focusKeys(view) ||
		(document.activeElement === document.body ? focusLast : null);

	view.textContent = '';
	view.append(node);
	diffTabLinks(tab);
	if (node.redraw)
		node.redraw();
	focusBack(focused);
	document.body.dataset.route = location.hash;
}

drawDiffHeader();
window.addEventListener('hashchange', diffRoute);
window.addEventListener('resize', () => {
	const v = view.firstChild;

	if (v && v.redraw && v.id === 'diffflame-view')
		v.redraw();
});
diffRoute();
