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
 * functions shown together read the same (fitSet(): the rows a paint
 * draws, an entry's callers and callees; only what is shown is
 * shortened, for a profile of 700,000 functions). The whole name is
 * the element's title and the Function view's heading.
 */
let shortNames = !!D.short_names;
const ELL = '\u2026';
const LINK_CHARS = 100;	/* a name in a link of a list or table */

/* the cycles the labels name: the profile's, or under a fold of every
 * recursion level the folded profile's (fold.js: foldedCycles()) */
let fnCycles = FN.cycle;
function cycleSuffix(f) {
	return fnCycles[f] ? ' <cycle ' + fnCycles[f] + '>' : '';
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
/* every label of one form, made once: sorting by name asks often */
const labelCache = {};
function labels(short) {
	const key = (short ? 's' : 'w') + (fnCycles === FN.cycle ? '' : 'f');

	if (!labelCache[key])
		labelCache[key] = Array.from({ length: NF }, (x, f) => {
			const p = labelParts(f, short);

			return p.core + p.extra;
		});
	return labelCache[key];
}
/* (and of the functions a cut page leaves out: cut.js's CUT_OTHER) */
function fullName(f) {
	return f === NF ? cutOtherName() : labels(false)[f];
}
function name(f) {
	return f === NF ? cutOtherName() : labels(shortNames)[f];
}

/* s's <...> groups as { a: open, b: close, kids: groups inside },
 * the outermost ones (an operator's '<' or '>' is no bracket:
 * "operator<<", "operator->") */
function templateGroups(s) {
	const top = [];
	const open = [];

	for (let i = 0; i < s.length; i++) {
		if (s[i] === 'o' && operatorAt(s, i, s.length)) {
			i += 8;
			while (i < s.length && '<>=-'.includes(s[i]))
				i++;
			i--;
			continue;
		}
		if (s[i] === '<') {
			open.push({ a: i, b: -1, kids: [] });
		} else if (s[i] === '>' && open.length) {
			const g = open.pop();

			g.b = i;
			(open.length ? open[open.length - 1].kids : top).push(g);
		}
	}
	return top;
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

	/* the outermost groups, but for one holding k its inner ones;
	 * the longest elided first, until the name fits */
	const cand = [];
	const add = g => {
		if (g.a < k && k < g.b)
			g.kids.forEach(add);
		else if (g.b - g.a > 2)
			cand.push(g);
	};
	let over = t.length - max;
	const chosen = [];

	templateGroups(t).forEach(add);
	cand.sort((x, y) => (y.b - y.a) - (x.b - x.a) || x.a - y.a);
	for (const g of cand) {
		if (over <= 0)
			break;
		chosen.push(g);
		over -= g.b - g.a - 2;
	}
	chosen.sort((x, y) => y.a - x.a);	/* from the end: positions hold */
	for (const g of chosen)
		elide(g.a, g.b);
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

/* f's label in at most max characters, alone (fitSet() tells it
 * apart from others), made once per form and width: a profile of
 * 700,000 functions shortens only those it shows */
const plainFit = {};
function fitName(f, max) {
	if (!(max > 0) || f === NF)
		return name(f);
	const key = (shortNames ? 's' : 'w') + max;
	const memo = plainFit[key] || (plainFit[key] = new Map());
	let t = memo.get(f);

	if (t === undefined) {
		const whole = name(f);

		t = whole.length <= max ? whole : fitParts(labelParts(f, shortNames), max);
		memo.set(f, t);
	}
	return t;
}

/*
 * The labels of the functions ids (the rows a table shows) in at most
 * max characters, no two alike unless their whole labels are: where
 * two shortened labels collide, each is shortened again keeping in
 * view where its whole label differs from the others'. A Map by id.
 */
function fitSet(ids, max) {
	const out = new Map();
	const cut = [];

	for (const f of ids) {
		out.set(f, fitName(f, max));
		if (max > 0 && name(f).length > max)
			cut.push(f);	/* only a shortened one can read as another */
	}
	for (let round = 0; round < 3; round++) {
		const seen = new Map();
		let changed = false;

		for (const f of cut) {
			const list = seen.get(out.get(f));

			if (list)
				list.push(f);
			else
				seen.set(out.get(f), [f]);
		}
		for (const list of seen.values()) {
			if (list.length < 2 ||
			    list.every(f => name(f) === name(list[0])))
				continue;
			for (const f of list) {
				const whole = name(f);
				const p = labelParts(f, shortNames);
				let d = Infinity;

				for (const g of list)
					if (name(g) !== whole)
						d = Math.min(d, commonPrefix(whole, name(g)));
				const t = d < p.core.length ? fitParts(p, max, d)
					: cutAround(whole, max, d);

				changed = changed || t !== out.get(f);
				out.set(f, t);
			}
		}
		if (!changed)
			break;
	}
	return out;
}

/* A link to f's view showing its name in max characters (0: whole)
 * or as text, the whole name on hover */
function fnLinkFit(f, max, text) {
	return el('a', { href: '#fn/' + f, title: fullName(f),
		'data-label': name(f) }, text !== undefined ? text : fitName(f, max));
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
