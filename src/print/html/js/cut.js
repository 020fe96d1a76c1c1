/* What the report leaves out: at the text listings' threshold
 * (--threshold, 0.5% by default) the page has the functions that
 * reach it with their callers and callees (src/print/report_keep.c);
 * "cut" in the data says how many others there are. Every list the
 * page cuts says so, and how to have them: --threshold=0. */

const CUT = D.cut || null;

/* "below 0.5% of the total" */
function cutBelow() {
	return 'below ' + CUT.threshold + '% of the total';
}

/* A line saying n more of what (a noun, [one, many]) are left out:
 * null when none are. */
function cutLine(n, what, id) {
	if (!CUT || !n)
		return null;
	return el('p', { class: 'muted cut-more', id },
		fmt(n) + ' more ' + what[n === 1 ? 0 : 1] + ' ' + cutBelow() +
		(n === 1 ? ' is' : ' are') + ' not in this report: ' +
		'cganalyze --output=html --threshold=0 embeds ' +
		(n === 1 ? 'it.' : 'them.'));
}

/* Under a search of the functions' names: what it cannot find. */
function cutSearchLine(id) {
	if (!CUT)
		return null;
	return el('p', { class: 'muted cut-more', id },
		'This search cannot find the ' + fmt(CUT.more) + ' functions ' +
		cutBelow() + ', which are not in this report: ' +
		'cganalyze --output=html --threshold=0 embeds them.');
}

/* In place of a link to a function the page does not have (the code
 * views name functions by the profile's ids: -1 there) */
function cutLink() {
	return el('span', { class: 'muted cut-fn',
		title: 'cganalyze --output=html --threshold=0 embeds every function' },
		'a function ' + (CUT ? cutBelow() : '') + ', not in this report');
}

/* The profile's function id p as the page's, or -1: left out. */
let pageIds;
function pageId(p) {
	if (!FN.id)
		return p;
	if (!pageIds)
		pageIds = new Map(FN.id.map((p0, i) => [p0, i]));
	const i = pageIds.get(p);

	return i === undefined ? -1 : i;
}

/* The code views' document in the page's ids (html_data.h): a call to
 * a function left out becomes -1, a listing's functions those the page
 * has. */
function cutCodeIds(d) {
	if (!FN.id || d.pageIds)
		return;
	d.pageIds = true;
	for (const l of d.lines || [])
		for (const c of l.calls || [])
			c.callee = pageId(c.callee);
	for (const x of d.disasm || []) {
		if (x.function !== null && x.function !== undefined)
			x.function = pageId(x.function);
		x.functions = (x.functions || []).map(pageId).filter(f => f >= 0);
		for (const ins of x.instructions || [])
			for (const c of ins.calls || [])
				c.callee = pageId(c.callee);
	}
}

/* The flame graph's merged frames (report_keep.c, report_keep_nodes()): by
 * node, [how many, their cost]; -1 for those at the roots. */
function flameMore(T) {
	if (!T.more) {
		T.more = new Map();
		(T.more_parent || []).forEach((p, k) =>
			T.more.set(p, [T.more_n[k], T.more_value[k]]));
	}
	return T.more;
}

/* A merged frame's title */
function flameMoreTitle(m, total) {
	return fmt(m[0]) + ' more call path' + (m[0] === 1 ? '' : 's') +
		', each narrower than a pixel of a ' + CUT.flame_pixels +
		'-pixel view or of a function ' + cutBelow() + ': ' + withUnitPath(m[1]) +
		' (' + pct(m[1], total) + '); cganalyze --output=html --threshold=0 embeds them';
}

/*
 * The nodes the page merged, kept for its figures (report_keep.h:
 * "hidden_unit", "hidden_parent", "hidden_value", numbered after the
 * drawn ones): a function the page has keeps its nodes, and the
 * functions it leaves out are one unit, CUT_OTHER, whose runs are one
 * node. Under a choice of threads or time and under the transforms
 * (transform.js: xformTree()) the views are of this whole tree, so a
 * function's figures hold its merged paths too.
 */
const CUT_OTHER = NF;
function cutOtherName() {
	return '(functions ' + (CUT ? cutBelow() : '') + ', not in this report)';
}
/* Whether u is a function the page has (not a cycle, nor CUT_OTHER) */
function isPageFn(u) {
	return u >= 0 && u < NF;
}
/* T's nodes with the merged ones */
function cutNodes(T) {
	return T.unit.length + (T.hidden_unit ? T.hidden_unit.length : 0);
}
/* The whole tree of T as { unit, parent, self } (self: a node's value
 * less its children's), or null where the page kept no merged nodes */
function cutWhole(T) {
	if (!T.hidden_unit)
		return null;
	if (!T.whole) {
		const n = T.unit.length, all = cutNodes(T);
		const unit = Int32Array.from(T.unit.concat(T.hidden_unit));
		const parent = Int32Array.from(T.parent.concat(T.hidden_parent));
		const self = Float64Array.from(T.value.concat(T.hidden_value));

		for (let i = 0; i < all; i++)
			if (parent[i] >= 0)
				self[parent[i]] -= i < n ? T.value[i] : T.hidden_value[i - n];
		T.whole = { unit, parent, self: self.map(v => Math.max(0, v)) };
	}
	return T.whole;
}

/*
 * What the transforms bar says of a cut page's figures under the
 * choices in force (xmenu.js), or null: exact. With the merged paths
 * kept (cutWhole()), a choice of threads or time is exact, and so are
 * merge and fold (which change no function's figures); a glob of
 * focus, ignore, hide, obj or file matches only the page's functions,
 * where the command line's can match some of those left out, whose
 * names, objects and files the page does not have: the note names the
 * transforms in force that have one. Without them (more than the page
 * keeps: "hidden_max"), a merged path's cost stays with the frame it
 * was merged under.
 */
const CUT_GLOB_OPS = { focus: true, ignore: true, hide: true, obj: true,
	file: true };
function cutXformNote(base) {
	if (!CUT || !base.more_parent || !base.more_parent.length)
		return null;
	if (!base.hidden_unit)
		return 'this page merged the call paths of functions ' +
			cutBelow() + ' and those under a pixel wide into "N more" ' +
			'frames, more than ' + fmt(base.hidden_max) + ' of them: here ' +
			'their cost stays with the frame they were merged under, so ' +
			'a function\'s figures leave out its merged paths; ' +
			'cganalyze --output=html --threshold=0 keeps every path';
	const globs = xforms.filter(x => CUT_GLOB_OPS[x.op]);

	/* an estimate's transforms start from each function's self spread
	 * exactly over its paths (exact.js): the functions left out are
	 * not here to be spread */
	const est = base.estimated &&
		xforms.some(x => x.op !== 'fold' && !SLICE_OPS[x.op])
		? 'estimated from call arcs: the command line spreads each ' +
		  'function\'s self cost over its paths before it transforms ' +
		  'them, and this page leaves out the functions ' + cutBelow() +
		  ', so its figures here are within a few units of --tree\'s ' +
		  'with the same options' : null;
	const glob = globs.length && base.hidden_unit.includes(CUT_OTHER)
		? globs.map(x => x.op + '=' + x.arg).join(', ') + ': ' +
		  (globs.length === 1 ? 'its glob matches' : 'their globs match') +
		  ' the ' + fmt(NF) + ' functions of this page, not the ' +
		  fmt(CUT.more) + ' ' + cutBelow() + ' that it leaves out and ' +
		  'shows as one, ' + cutOtherName() + ', whose names, objects ' +
		  'and files it does not have, and which the command line\'s ' +
		  '--focus, --ignore and --hide can match' : null;

	if (!est && !glob)
		return null;
	return [glob, est].filter(x => x).join('; ') +
		'; cganalyze --output=html --threshold=0 embeds them';
}
