/* The transforms' menu, breadcrumbs, and the Function view's share */

/*
 * The menu of a function's transforms (a row of the call tree or
 * bottom-up, a frame of the flame graph): target { unit, path } where
 * path, the names of a node's call path, offers to merge that node.
 */
function xformMenu(x, y, target) {
	const u = target.unit;

	/* the functions a cut page left out (cut.js): no name to give */
	if (u === NF)
		return;
	const menu = el('div', { id: 'xmenu', role: 'menu' });
	/* Tab out of the menu closes it, as a click outside does: it
	 * stayed open over the view, its items still under the keys */
	menu.addEventListener('focusout', () => setTimeout(() => {
		/* after the move: Escape and a choice have closed it already */
		if (menu.isConnected && !menu.contains(document.activeElement))
			closeMenu();
	}));
	const item = (text, act) => menu.append(el('button',
		{ role: 'menuitem', onclick: () => { closeMenu(); act(); } }, text));
	const nm = u < 0 ? cycleName(-u) : fitName(u, 60);

	closeMenu();
	menuFrom = document.activeElement;
	if (u >= 0) {
		const glob = globQuote(FN.name[u] || '');

		item('Focus on ' + nm, () => xformAdd('focus', glob));
		item('Ignore ' + nm, () => xformAdd('ignore', glob));
		item('Hide ' + nm + ' (its cost to its callers)',
			() => xformAdd('hide', glob));
	}
	if (target.path)
		item('Merge this call of ' + nm + ' into its caller',
			() => xformAdd('merge', target.path));
	if (u >= 0) {
		item('Fold the recursion of ' + nm,
			() => xformAdd('fold', globQuote(FN.name[u] || '')));
	}
	item('Fold all recursion', () => xformAdd('fold', '*'));
	if (u >= 0 && fnObject(u))
		item('Focus on the object ' + baseName(fnObject(u)),
			() => xformAdd('obj', globQuote(fnObject(u))));
	if (u >= 0 && fnFile(u))
		item('Focus on the file ' + baseName(fnFile(u)),
			() => xformAdd('file', globQuote(fnFile(u))));
	item(u < 0 ? 'Open the cycle' : 'Open the function',
		() => { location.hash = withXforms(u < 0 ? '#cycle/' + -u : '#fn/' + u); });
	document.body.append(menu);
	/* in the window, below and right of the click where it fits */
	const r = menu.getBoundingClientRect();

	menu.style.left = Math.max(0, Math.min(x, innerWidth - r.width - 4)) + 'px';
	menu.style.top = Math.max(0, Math.min(y, innerHeight - r.height - 4)) + 'px';
	menu.querySelector('button').focus();
}
let menuFrom = null;	/* what had the keys before the menu */
function closeMenu() {
	const m = document.getElementById('xmenu');

	if (m) {
		m.remove();
		return true;
	}
	return false;
}
document.addEventListener('mousedown', e => {
	if (!e.target.closest('#xmenu'))
		closeMenu();
});
document.addEventListener('keydown', e => {
	const m = document.getElementById('xmenu');

	if (!m)
		return;
	const items = [...m.querySelectorAll('button')];
	const k = items.indexOf(document.activeElement);

	if (e.key === 'Escape') {
		closeMenu();
		if (menuFrom && menuFrom.isConnected)
			menuFrom.focus({ preventScroll: true });
	}
	else if (e.key === 'ArrowDown')
		items[(k + 1) % items.length].focus();
	else if (e.key === 'ArrowUp')
		items[(k - 1 + items.length) % items.length].focus();
	else
		return;
	e.preventDefault();
	e.stopPropagation();
}, true);
/* the menu on right-click of a flame graph frame (flame.js draws
 * frames with their tree node in data-node), a sandwich's (with their
 * unit in data-unit: paths merged, none to merge) or a Top table's row */
document.addEventListener('contextmenu', e => {
	const fr = e.target.closest('#flame .fr');
	const i = fr ? Number(fr.dataset.node) : -1;
	const sw = e.target.closest('#sandwich .fr[data-unit]');
	const top = e.target.closest('#top-table .row');
	const a = top && top.querySelector('a[href^="#fn/"]');

	if (sw) {
		e.preventDefault();
		xformMenu(e.clientX, e.clientY, { unit: Number(sw.dataset.unit) });
	} else if (i >= 0) {
		const T = flameTree();

		e.preventDefault();
		xformMenu(e.clientX, e.clientY, { unit: T.unit[i],
			path: treePath(T, i) });
	} else if (a) {
		e.preventDefault();
		xformMenu(e.clientX, e.clientY,
			{ unit: parseInt(a.getAttribute('href').slice(4)) });
	}
});

/* The menu of a frame from the keys ("m", or the context-menu key), as
 * a right-click on it opens it */
function frameMenuKey(e, frame) {
	if (!frame || (e.key !== 'm' && e.key !== 'ContextMenu'))
		return false;
	const r = frame.getBoundingClientRect();

	frame.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true,
		cancelable: true, clientX: r.left + 4, clientY: r.bottom }));
	e.preventDefault();
	return true;
}

/* A transform as the breadcrumbs say it */
function xformLabel(x) {
	if (x.op === 'fold' && x.arg === '*')
		return 'fold all recursion';
	if (SLICE_OPS[x.op])
		return sliceLabel(x);
	const arg = x.op === 'merge' ? x.arg.join(' \u2192 ') : x.arg;

	return XF_OPS[x.op] + ' ' + shortName(arg, 70);
}
/*
 * The transforms in force as breadcrumbs under the tabs: each goes
 * back to the view with the transforms up to it, its cross removes
 * it; then the share of the total in view.
 */
function drawCrumbs() {
	const bar = document.getElementById('crumbs');

	bar.textContent = '';
	bar.hidden = !xforms.length && !xformDropped.length;
	if (bar.hidden)
		return;
	bar.append(el('span', { class: 'muted' }, 'Transforms: '));
	xforms.forEach((x, k) => {
		const go = el('a', { class: 'crumb-go', title: 'only the transforms up to this one' },
			xformLabel(x));
		const drop = el('a', { class: 'crumb-drop', title: 'remove this transform' },
			'\u00D7');

		go.setAttribute('href', xformPlace(xforms.slice(0, k + 1)));
		/* a glob that names nothing changes nothing: say so */
		if (x.op !== 'merge' && !SLICE_OPS[x.op] &&
		    !xformSel(x.op, x.arg).includes(1))
			go.append(el('span', { class: 'muted' }, ' (matches nothing)'));
		drop.setAttribute('href', xformPlace(xforms.filter((y, j) => j !== k)));
		bar.append(el('span', { class: 'crumb', title: xformLabel(x) }, go, drop));
	});
	bar.append(xformForm());
	const none = el('a', { id: 'crumbs-clear' }, 'clear');

	none.setAttribute('href', xformPlace([]));
	bar.append(none);
	if (xformDropped.length)
		bar.append(el('span', { class: 'note' }, 'not understood, left out: ' +
			xformDropped.join(' ')));
	if (!xforms.length)
		return;
	const T = flameTree(), base = flameBase();
	/* of the profile's total, as the command line's note: an estimated
	 * tree adds up to a little more or less (gmon.out's 92.13 ticks of
	 * 92), which --hide left at "99.85%" */
	const of = base.estimated ? D.totals[EV.indexOf(base.event)] : base.total;

	bar.append(el('span', { id: 'in-view' }, 'in view: ' + withUnitPath(T.total) +
		' of ' + withUnitPath(of) + ' (' + (pct(T.total, of) || '0%') + ')'));
	if (T.estimated)
		bar.append(el('span', { class: 'note' },
			'estimated from call arcs: the profile has no stacks'));
	/* every function's levels folded: --fold-recursion's tree
	 * (fold.js); some functions' only, no command line's */
	if (foldsLevels(xforms, base) && !foldedBase(base))
		bar.append(el('span', { class: 'note', id: 'crumbs-levels' },
			!foldedDoc() || sliceNow()
			? "recursion levels (fib'2) folded on their estimate " +
			  'apart, not as --fold-recursion folds them before it ' +
			  'estimates' + (foldedDoc() ? ' (threads or time ' +
			  'chosen)' : ': make the report with ' +
			  '--fold-recursion for its figures')
			: "some functions' recursion levels (fib'2) folded, on " +
			  'their estimate apart: fold every function\'s ' +
			  '(fold=*) for --fold-recursion\'s figures'));
	const note = cutXformNote(base);

	if (note)
		bar.append(el('span', { class: 'note', id: 'crumbs-cut' }, note));
}

/* A transform by glob, as the command line's --focus=GLOB: the
 * functions' names as -p's name rule matches them ("std::*"), or an
 * object's or a source file's path ("libc*", "*.h") */
function xformForm() {
	const op = el('select', { class: 'xf-op', title: 'the transform' });
	const text = el('input', { type: 'search', class: 'xf-glob',
		placeholder: 'a name or glob: std::*, *.h',
		title: 'functions by name as -p matches them; for object and ' +
			'file, a path or its last components' });
	const apply = () => {
		const v = text.value.trim();

		if (v)
			xformAdd(op.value, v);
	};

	for (const k of ['focus', 'ignore', 'hide', 'fold', 'obj', 'file'])
		op.append(el('option', { value: k }, XF_OPS[k]));
	text.addEventListener('keydown', e => {
		if (e.key === 'Enter')
			apply();
	});
	return el('span', { class: 'xf-form' }, op, text,
		el('button', { onclick: apply }, 'add'));
}

/* The Function view's transforms of f: buttons under its heading */
function fnXformBar(f) {
	const b = (text, op, arg) => el('button', { class: 'xf',
		onclick: () => xformAdd(op, arg) }, text);
	const glob = globQuote(FN.name[f] || '');

	if (!flameBase())	/* only maximum events: no stacks to cut */
		return null;
	return el('p', { id: 'fn-xforms' }, el('span', { class: 'muted' }, 'Transforms: '),
		b('focus on it', 'focus', glob), b('ignore it', 'ignore', glob),
		b('hide it', 'hide', glob), b('fold its recursion', 'fold', glob),
		fnObject(f) ? b('focus on its object', 'obj', globQuote(fnObject(f))) : null,
		fnFile(f) ? b('focus on its file', 'file', globQuote(fnFile(f))) : null);
}

/*
 * The Function view under transforms: f's callers and callees in the
 * transformed stacks (treeArcs()), each arc's cost once per stack and
 * its share of f's inclusive cost. The call graph's entry (calls,
 * children, gprof's split) is of the whole profile: not shown here.
 */
function fnXformEntry(f) {
	const T = flameTree();
	const { callers, callees } = treeArcs(T, f);
	const incl = fnIncl(f);
	const u = unitOf();
	const box = el('div', { id: 'fn-xform-entry' });
	const table = (id, title, m) => {
		const t = el('table', { class: 'entry', id }, el('tr', null,
			el('th', { class: 'num' }, u ? 'cost (' + u + ')' : 'cost'),
			el('th', { class: 'num' }, 'of its inclusive'),
			el('th', null, title)));
		/* none of no cost: a path the threads or time chosen
		 * (samples.js) or the event shown have no sample on */
		const list = [...m].filter(a => a[1] > 0).sort((a, b) => b[1] - a[1]);

		for (const [k, v] of list)
			t.append(el('tr', null, el('td', { class: 'num' }, fmtCost(v)),
				el('td', { class: 'num' }, pct(v, incl)),
				el('td', null, k === null ? el('span', { class: 'muted' },
					'<the stacks start here>') : unitLink(k))));
		if (!list.length)
			t.append(el('tr', null, el('td'), el('td'),
				el('td', { class: 'muted' }, 'none')));
		return t;
	};

	if (!inView(f)) {
		box.append(el('p', { class: 'note', id: 'fn-not-in-view' },
			'Not in view: the transforms leave no stack through this function.'));
		return box;
	}
	box.append(el('p', { class: 'muted' }, 'Under the transforms: the ' +
		'callers and callees in the stacks left' + (T.estimated
			? ' (estimated from call arcs)' : '') + ', each stack counted ' +
		'once; the profile\'s counts of calls and samples are of the whole ' +
		'profile, not shown.'),
	el('h3', null, 'Callers'), table('fn-xform-callers', 'caller', callers),
	el('h3', null, 'Callees'), table('fn-xform-callees', 'callee', callees));
	return box;
}
