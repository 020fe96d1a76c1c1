/* Names as the page shows them */

/*
 * A function's label is the listings' name for it: whole (a name two
 * functions share told apart by object and file, as "labels" has it)
 * or as --short-names shortens it ("short_labels"), the Top view's
 * toggle choosing (its default the run's --short-names); a cycle
 * member's ends in " <cycle N>". A label longer than its place is
 * shortened in the middle by fitName(): it keeps its start and its end
 * (the last component, the parameters' end, a clone or recursion
 * level, the file that tells two apart), and never so that two
 * functions read the same. The whole name is the element's title and
 * the Function view's heading.
 */
let shortNames = !!D.short_names;
const ELL = '\u2026';
const LINK_CHARS = 100;	/* a name in a link of a list or table */

function cycleSuffix(f) {
	return FN.cycle[f] ? ' <cycle ' + FN.cycle[f] + '>' : '';
}
/* the label with its name and what follows the name (" (object:
 * file)", " <cycle N>") apart */
function labelParts(f, short) {
	const n = FN.name[f] || '???';
	const whole = D.labels[f] || n;
	const extra = whole.startsWith(n) ? whole.slice(n.length) : '';
	let core = whole.slice(0, whole.length - extra.length);

	if (short && D.short_labels[f]) {
		const s = D.short_labels[f];

		core = extra && s.endsWith(extra) ? s.slice(0, s.length - extra.length) : s;
	}
	return { core, extra: extra + cycleSuffix(f) };
}
function fullName(f) {
	const p = labelParts(f, false);

	return p.core + p.extra;
}
function name(f) {
	const p = labelParts(f, shortNames);

	return p.core + p.extra;
}

/* s's <...> groups as [open, close], nested ones too (an operator's
 * '<' or '>' is no bracket: "operator<<", "operator->") */
function templateGroups(s) {
	const groups = [];
	const open = [];

	for (let i = 0; i < s.length; i++) {
		if (operatorAt(s, i, s.length)) {
			i += 8;
			while (i < s.length && '<>=-'.includes(s[i]))
				i++;
			i--;
			continue;
		}
		if (s[i] === '<')
			open.push(i);
		else if (s[i] === '>' && open.length)
			groups.push([open.pop(), i]);
	}
	return groups;
}
/* the ')' that closes the '(' at s[i] */
function closeParen(s, i) {
	let depth = 0;

	for (let j = i; j < s.length; j++) {
		if (s[j] === '(')
			depth++;
		else if (s[j] === ')' && --depth === 0)
			return j;
	}
	return s.length - 1;
}

/*
 * A name in at most max characters, shortened in the middle: template
 * arguments become "<…>", the longest first; then the parameters
 * "(…)"; then the start is cut to what fits before the last component
 * and what follows it; and if that alone is too long, its end is kept.
 * keep (optional): a position of s to keep in view, where it differs
 * from a name that would read the same: what holds it is not elided.
 */
function shortName(s, max, keep) {
	if (s.length <= max)
		return s;
	let t = s, k = keep === undefined ? -1 : keep;
	/* t with (a, b) elided to "…", k moved with it */
	const elide = (a, b) => {
		if (k >= b)
			k -= b - a - 2;
		t = t.slice(0, a + 1) + ELL + t.slice(b);
	};

	for (;;) {
		const g = templateGroups(t).filter(([a, b]) =>
			b - a > 2 && !(a < k && k < b));

		if (t.length <= max || !g.length)
			break;
		g.sort((x, y) => (y[1] - y[0]) - (x[1] - x[0]) || x[0] - y[0]);
		elide(g[0][0], g[0][1]);
	}
	const p = paramsStart(t);

	if (t.length > max && p < t.length) {
		const c = closeParen(t, p);

		if (c - p > 2 && !(p < k && k < c))
			elide(p, c);
	}
	if (t.length <= max)
		return t;
	const tailAt = nameParts(t).last;
	const room = max - 1 - (t.length - tailAt);

	if (room >= 4 && (k < room || k >= tailAt))
		return t.slice(0, room) + ELL + t.slice(tailAt);
	if (k >= 0)
		return cutAround(t, max, k);
	return ELL + t.slice(t.length - (max - 1));
}

/* s in max characters showing its position d (where it differs from
 * another): its start, the stretch around d, its end */
function cutAround(s, max, d) {
	if (s.length <= max)
		return s;
	const end = Math.floor(max / 4);

	if (d < max - end - 1)
		return s.slice(0, max - end - 1) + ELL + s.slice(s.length - end);
	const head = Math.floor(max / 4);
	const mid = max - head - end - 2;
	const from = Math.min(Math.max(head, d - Math.floor(mid / 2)),
		s.length - end - mid);

	return s.slice(0, head) + ELL + s.slice(from, from + mid) + ELL +
		s.slice(s.length - end);
}

/* What follows a name, in at most max characters: a path's
 * directories go first (" (ld.so: …/memcmp-sse2.S)") */
function shortExtra(x, max) {
	if (x.length <= max)
		return x;
	return x.replace(/([ (:])(\/?[^ ()]*\/)([^/ ()]+)/g,
		(m, a, dirs, base) => a + ELL + '/' + base);
}

/* A label too long for max: the name first, shortened if it must be;
 * what follows it in the room left (cut at its end: where two labels
 * then read the same, fitNames() shows where they differ: keep, as
 * shortName's) */
function fitParts(p, max, keep) {
	const x = shortExtra(p.extra, max);
	const core = shortName(p.core, Math.max(8, max - Math.min(x.length, 4)), keep);
	const room = max - core.length;

	if (x.length <= room)
		return core + x;
	return core + (room >= 4 ? x.slice(0, room - 1) + ELL : '');
}

function commonPrefix(a, b) {
	let i = 0;

	while (i < a.length && i < b.length && a[i] === b[i])
		i++;
	return i;
}

/*
 * Every function's label in at most max characters (the toggle's
 * form), no two alike unless their whole labels are: where two
 * shortened labels collide, each is cut again around where its whole
 * label differs from the others'. An array by function id, kept per
 * form and width.
 */
const fitted = {};
function fitNames(max) {
	const key = (shortNames ? 's' : 'w') + max;

	if (fitted[key])
		return fitted[key];
	const out = new Array(NF);
	const whole = new Array(NF);

	for (let f = 0; f < NF; f++) {
		const p = labelParts(f, shortNames);

		whole[f] = p.core + p.extra;
		out[f] = whole[f].length <= max ? whole[f] : fitParts(p, max);
	}
	for (let round = 0; round < 3; round++) {
		const seen = new Map();
		let changed = false;

		for (let f = 0; f < NF; f++) {
			const list = seen.get(out[f]);

			if (list)
				list.push(f);
			else
				seen.set(out[f], [f]);
		}
		for (const list of seen.values()) {
			if (list.length < 2 ||
			    list.every(f => whole[f] === whole[list[0]]))
				continue;
			for (const f of list) {
				let d = Infinity;

				for (const g of list)
					if (whole[g] !== whole[f])
						d = Math.min(d, commonPrefix(whole[f], whole[g]));
				const p = labelParts(f, shortNames);
				const t = d < p.core.length ? fitParts(p, max, d)
					: cutAround(whole[f], max, d);

				changed = changed || t !== out[f];
				out[f] = t;
			}
		}
		if (!changed)
			break;
	}
	fitted[key] = out;
	return out;
}
function fitName(f, max) {
	return max > 0 ? fitNames(max)[f] : name(f);
}

/* A link to f's view showing its name in max characters (0: whole),
 * the whole name on hover */
function fnLinkFit(f, max) {
	return el('a', { href: '#fn/' + f, title: fullName(f),
		'data-label': name(f) }, fitName(f, max));
}

/* How many characters of the names' font fit in an element's width */
let charPx = 0;
function charsIn(elem) {
	const w = elem ? elem.clientWidth : 0;

	if (!w)
		return 0;
	if (!charPx) {
		const probe = el('span', { class: 'fname' }, '0'.repeat(40));

		probe.style.position = 'absolute';
		probe.style.visibility = 'hidden';
		document.body.append(probe);
		charPx = probe.getBoundingClientRect().width / 40;
		probe.remove();
	}
	return charPx > 0 ? Math.max(8, Math.floor((w - 8) / charPx)) : 0;
}
