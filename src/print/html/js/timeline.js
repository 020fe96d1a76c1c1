/* Threads and time: the tracks' panel and its timeline (samples.js) */

/*
 * Under the breadcrumbs, on every view: the processes and their
 * threads with their samples and cost (of the event shown, in the time
 * chosen), a box each to choose them, and a strip per thread of its
 * samples over time, the part of the function shown (Function,
 * Sandwich) in another colour. A drag across the strips chooses a
 * range of time. The choice goes into the hash (sliceGo()), and every
 * view is drawn again from the samples chosen; the panel says which
 * command line gives the same numbers. A Callgrind profile's parts:
 * its threads the same, its dumps along the strips in place of time.
 */
const STRIP_H = 22;	/* px: a strip's height */
/* threads listed before a "show all": a recording of a build has
 * hundreds of short processes, and the panel is drawn on every route */
const TRACKS_SHOWN = 24;
let tracksOpen = true, tracksAll = false;

/* The hash of the place shown with the selection sl ({ tracks, a, b }
 * as sliceNow()'s): the transforms and the place kept (the tree's
 * nodes are the same whatever is chosen) */
function sliceHash(sl) {
	const S = samplesDoc();
	const { place, params } = hashParts(location.hash || '#top');
	const kept = params.filter(([k]) => !SLICE_OPS[k]);
	const mine = [];

	if (sl && sl.tracks && sl.tracks.includes(0))
		mine.push(['threads', [...sl.tracks.keys()]
			.filter(t => sl.tracks[t]).join('.') || 'none']);
	if (sl && (sl.a > 0 || sl.b < S.buckets))
		mine.push(['time', sl.a + '-' + sl.b]);
	return hashJoin(place || 'top', mine.concat(kept));
}
function sliceGo(sl) {
	location.hash = sliceHash(sl);
}
/* a crumb's words */
function sliceLabel(x) {
	const S = samplesDoc();

	if (!S)
		return XF_OPS[x.op] + ' ' + x.arg + ' (the profile has none)';
	if (x.op === 'threads') {
		const n = x.arg.split('.').filter(t => /^\d+$/.test(t) &&
			Number(t) < S.tracks.n).length;

		return 'threads: ' + n + ' of ' + S.tracks.n;
	}
	const sl = sliceNow();

	if (samplesParts())
		return dumpSpan(S, sl);

	return 'time: ' + fmtSeconds(sl.a * S.width) + ' to ' +
		fmtSeconds(sl.b * S.width) + ' s';
}
/* buckets a to b - 1 of parts as their dumps' (buffers') numbers */
function dumpSpan(S, sl) {
	return sl.b - sl.a === 1 ? S.word + ' ' + S.dumps[sl.a]
		: S.word + 's ' + S.dumps[sl.a] + ' to ' + S.dumps[sl.b - 1];
}
/* A track's name: perf.data's thread and its tid, a Callgrind part's
 * program and valgrind's number of the thread */
function trackName(T, t) {
	if (!samplesParts())
		return T.name[t] + ' (tid ' + T.tid[t] + ')';
	return T.tid[t] ? 'thread ' + T.tid[t] : 'every thread';
}
/* ns from the recording's first sample as seconds */
function fmtSeconds(ns) {
	if (!ns)
		return '0';
	return (ns / 1e9).toFixed(ns < 1e7 ? 6 : 3);
}

/* The panel, made once under the breadcrumbs, its content again on
 * each route() */
let tracksKey = null;	/* what the panel shows: drawn again when it changes */
function drawTracks() {
	const t = performance.now();
	const f = /^#(fn|sandwich)\//.test(location.hash) ? lastFunction : '';
	/* the transforms but the selection's change nothing here */
	const mine = xforms.filter(x => SLICE_OPS[x.op]).map(x => x.op + x.arg);
	const key = [mine, ev, f, tracksAll, document.readyState].join('|');

	if (key === tracksKey)
		return;
	tracksKey = key;
	drawPanel();
	/* how long it took, for bench/html_timeline.py */
	document.body.dataset.tracksMs = (performance.now() - t).toFixed(1);
}
/* The panel drawn again keeps the focus where it was: the toggle, a
 * thread's box, the time's fields (each drawn anew); Enter on the
 * toggle dropped it to the page's top, and a second Enter did nothing */
let panelLast = null;	/* the last focus in the panel, as panelFocus() */

function panelFocus(a) {
	const box = document.getElementById('tracks');

	return box && a && box.contains(a) ? (a.id ? '#' + CSS.escape(a.id)
		: a.dataset.track ? 'input[data-track="' + a.dataset.track + '"]'
		: a.dataset.pid ? 'input[data-pid="' + a.dataset.pid + '"]' : null) : null;
}
/* kept: a box changing the hash to a place that is an element's id
 * ("#flame") has the focus taken away before the panel is drawn */
document.addEventListener('focusin', e => { panelLast = panelFocus(e.target); });
document.addEventListener('mousedown', e => {
	if (!panelFocus(e.target))
		panelLast = null;
});
function drawPanel() {
	const a = document.activeElement;
	const at = a === document.body ? panelLast : panelFocus(a);

	panelDraw();
	const to = at && document.querySelector('#tracks ' + at);

	if (to && document.activeElement !== to)
		to.focus({ preventScroll: true });
}
function panelDraw() {
	let box = document.getElementById('tracks');

	if (!box) {
		box = el('section', { id: 'tracks' });
		document.getElementById('crumbs').after(box);
	}
	box.textContent = '';
	if (document.readyState === 'loading' ||
	    (!samplesDoc() && !samplesWhy())) {
		box.hidden = true;
		return;
	}
	const why = samplesWhy();
	const S = samplesDoc();

	box.hidden = false;
	if (!S) {
		box.append(el('p', { class: 'note', id: 'tracks-none' },
			'No threads or timeline: ' + why + '.'));
		return;
	}
	const sl = sliceNow() || { tracks: null, a: 0, b: S.buckets };
	const head = el('div', { id: 'tracks-head' });
	const toggle = el('button', { id: 'tracks-toggle', 'aria-expanded':
		String(tracksOpen) }, (tracksOpen ? '\u25BE' : '\u25B8') +
		(samplesParts() ? ' Threads and ' + S.word + 's'
		: ' Threads and time'));

	toggle.onclick = () => {
		tracksOpen = !tracksOpen;
		drawPanel();
	};
	head.append(toggle, ' ', el('span', { id: 'tracks-sum' }, sliceSummary(S, sl)));
	const opts = sliceOptions(sliceNow());
	/* what the whole is made of: a Callgrind file's dumps (IgProf's
	 * buffers) are no samples */
	const every = 'every ' + (samplesParts() ? S.word : 'sample');

	head.append(' ', el('span', { class: 'muted' }, 'as'), ' ',
		el('code', { id: 'tracks-cli' }, opts.length ? opts.join(' ')
			: '(no option: ' + every + ')'), ' ',
		el('span', { class: 'muted' }, sliceTimeCaveat(sliceNow())));
	if (sliceNow()) {
		const all = el('a', { id: 'tracks-all' }, every);

		all.setAttribute('href', sliceHash(null));
		head.append(' ', all);
	}
	box.append(head);
	if (samplesParts())
		box.append(el('p', { class: 'note', id: 'tracks-estimated' },
			S.exact ? 'Each ' + S.word + ' is a part of the profile, ' +
			'read alone with its stacks: every figure under a choice ' +
			'is --pid/--part\'s.'
			: 'Each thread\'s and ' + S.word + '\'s cost, and each ' +
			'function\'s self and inclusive cost in Top and its ' +
			'view, are the parts\' own, exact (--threads\'s and ' +
			'--pid/--tid/--part\'s); under a choice the call paths ' +
			'(flame graph, call tree, bottom-up, sandwich, callers ' +
			'and callees) are estimated from each part\'s calls, as ' +
			'the whole profile\'s tree is.'));
	if (!S.why_time && tracksOpen && !samplesParts())
		box.append(rangeForm(S, sl));
	if (S.why_time)
		box.append(el('p', { class: 'note', id: 'timeline-none' },
			(samplesParts() ? 'No ' + S.word + 's to draw: '
			: 'No timeline: ') +
			S.why_time + '.'));
	/* samples or parts' costs the page could not place on a node
	 * (html_samples.c, html_parts.c): none where the page keeps its
	 * merged paths (report_keep.h) */
	if ((S.unplaced || S.moved) && sl && sliceNow())
		box.append(el('p', { class: 'note', id: 'tracks-unplaced' },
			samplesParts() ? 'Some of the chosen parts\' costs are ' +
			'on call paths this page could not place and are left ' +
			'out of the views; cganalyze --output=html --threshold=0 ' +
			'keeps them.' : fmt(S.unplaced) + ' samples of call paths ' +
			'too narrow for this page are left out of the views chosen ' +
			'here; cganalyze --output=html --threshold=0 keeps them.'));
	if (tracksOpen)
		box.append(trackTable(S, sl));
}

/* The stretch of time by the keys: seconds from the first sample,
 * taken to the buckets that hold them (the first whole, the last up
 * to its end) */
function rangeForm(S, sl) {
	const secs = k => k ? fmtSeconds(k * S.width) : '0';
	const from = el('input', { id: 'range-from', size: 8, value: secs(sl.a),
		'aria-label': 'from, seconds' });
	const to = el('input', { id: 'range-to', size: 8, value: secs(sl.b),
		'aria-label': 'to, seconds' });
	const form = el('form', { id: 'range-form' }, 'Time from ', from,
		' s to ', to, ' s ', el('button', null, 'choose'));

	form.onsubmit = e => {
		e.preventDefault();
		const bucket = (v, up) => {
			const k = Number(v) * 1e9 / S.width;

			return Math.max(0, Math.min(S.buckets, up ? Math.ceil(k)
				: Math.floor(k)));
		};
		const a = bucket(from.value, false), b = bucket(to.value, true);

		if (Number.isFinite(a) && Number.isFinite(b) && b > a)
			sliceGo({ tracks: sl.tracks, a, b });
	};
	return form;
}

function sliceSummary(S, sl) {
	const n = sl.tracks ? sl.tracks.reduce((a, b) => a + b, 0) : S.tracks.n;
	const part = sl.a > 0 || sl.b < S.buckets;
	const time = samplesParts()
		? (part ? dumpSpan(S, sl) : 'every ' + S.word)
		: part ? fmtSeconds(sl.a * S.width) + ' s to ' +
		fmtSeconds(sl.b * S.width) + ' s' : 'all the time';

	return n + ' of ' + S.tracks.n + ' threads, ' + time + ':';
}

/* The processes, heaviest first, each with its threads */
function trackGroups(S, sums) {
	const T = S.tracks, procs = new Map();

	for (let t = 0; t < T.n; t++) {
		if (!procs.has(T.pid[t]))
			procs.set(T.pid[t], { pid: T.pid[t], threads: [], cost: 0 });
		const p = procs.get(T.pid[t]);

		p.threads.push(t);
		p.cost += sums.cost[t];
	}
	const list = [...procs.values()];

	for (const p of list) {
		/* its main thread first: perf's tid = pid, valgrind's 1 */
		const main = samplesParts() ? 1 : p.pid;

		p.threads.sort((a, b) => (T.tid[b] === main) - (T.tid[a] === main) ||
			sums.cost[b] - sums.cost[a] || T.tid[a] - T.tid[b]);
		p.name = T.name[p.threads[0]];
	}
	return list.sort((a, b) => b.cost - a.cost || a.pid - b.pid);
}

function trackTable(S, sl) {
	const T = S.tracks;
	const e = Math.max(0, doc('flame').trees.indexOf(flameBase()));
	const sums = trackSums(e, sl.a, sl.b);
	const on = t => !sl.tracks || sl.tracks[t] === 1;
	let tot = 0;

	for (let t = 0; t < T.n; t++)
		if (on(t))
			tot += sums.cost[t];
	const table = el('table', { id: 'tracks-table' });
	const strips = [];
	const timed = !S.why_time;

	table.append(el('tr', null, el('th'), el('th', null, 'thread'),
		el('th', { class: 'num' }, samplesParts() ? 'parts' : 'samples'),
		el('th', { class: 'num' }, EV[ev] || 'cost'),
		el('th', { class: 'num' }, 'share'),
		timed ? el('th', { class: 'strip-cell' }, timeAxis(S, sl)) : el('th')));
	const choose = (ts, yes) => {
		const next = new Uint8Array(T.n);

		for (let t = 0; t < T.n; t++)
			next[t] = on(t) ? 1 : 0;
		for (const t of ts)
			next[t] = yes ? 1 : 0;
		sliceGo({ tracks: next.includes(0) ? next : null, a: sl.a, b: sl.b });
	};
	let shown = 0, left = 0;

	for (const p of trackGroups(S, sums)) {
		if (shown >= TRACKS_SHOWN && !tracksAll) {
			left += p.threads.length;
			continue;
		}
		shown += p.threads.length;
		const any = p.threads.some(on), every = p.threads.every(on);
		const box = el('input', { type: 'checkbox', class: 'track-proc',
			'data-pid': p.pid, 'aria-label': 'process ' + p.pid });
		let s = 0, c = 0;

		/* of its threads chosen, as its share; of all when none is */
		for (const t of p.threads) {
			if (any && !on(t))
				continue;
			s += sums.samples[t];
			c += sums.cost[t];
		}
		box.checked = every;
		box.indeterminate = any && !every;
		box.onchange = () => choose(p.threads, box.checked);
		table.append(el('tr', { class: 'proc-row' + (any ? '' : ' off'),
			'data-pid': p.pid },
			el('td', null, box),
			el('td', null, p.name + ' (pid ' + (p.pid || '-') + ', ' +
				p.threads.length + (p.threads.length > 1 ? ' threads)' : ' thread)')),
			el('td', { class: 'num' }, fmt(s)),
			el('td', { class: 'num' }, fmtCost(c, ev)),
			el('td', { class: 'num' }, any ? pct(c, tot) : ''),
			el('td')));
		for (const t of p.threads) {
			const tb = el('input', { type: 'checkbox', class: 'track-thread',
				'data-track': t, 'aria-label': 'thread ' + T.tid[t] });
			/* its height now: the page's layout does not change
			 * when it is drawn (a canvas is 150 px high at first) */
			const cv = timed ? el('canvas', { class: 'strip', 'data-track': t,
				height: STRIP_H }) : null;

			tb.checked = on(t);
			tb.onchange = () => choose([t], tb.checked);
			table.append(el('tr', { class: 'thread-row' + (on(t) ? '' : ' off'),
				'data-track': t },
				el('td', null, tb),
				el('td', { class: 'thread-name' }, trackName(T, t)),
				el('td', { class: 'num' }, fmt(sums.samples[t])),
				el('td', { class: 'num' }, fmtCost(sums.cost[t], ev)),
				el('td', { class: 'num' }, on(t) ? pct(sums.cost[t], tot) : ''),
				el('td', { class: 'strip-cell' }, cv)));
			if (cv)
				strips.push(cv);
		}
	}
	if (left) {
		const more = el('button', { id: 'tracks-more' }, 'show all ' + T.n +
			' threads');

		more.onclick = () => {
			tracksAll = true;
			drawTracks();
		};
		table.append(el('tr', null, el('td'), el('td', { colspan: 5 },
			left + ' more threads, lighter: ', more)));
	}
	if (timed)
		requestAnimationFrame(() => drawStrips(S, sl, e, strips));
	return el('div', { id: 'tracks-scroll' }, table);
}

/* The time axis: the recording's span, the range chosen */
function timeAxis(S, sl) {
	const span = S.buckets * S.width;

	if (samplesParts())
		return el('span', { class: 'axis' },
			el('span', null, S.word + ' ' + S.dumps[0]),
			el('span', { class: 'muted' }, S.word + 's, not time: ' +
				(sl.a > 0 || sl.b < S.buckets ? 'drag to choose others'
				: 'drag across the strips to choose some')),
			el('span', null, S.word + ' ' + S.dumps[S.buckets - 1]));
	return el('span', { class: 'axis' },
		el('span', null, '0 s'),
		el('span', { class: 'muted' }, sl.a > 0 || sl.b < S.buckets
			? 'drag to choose another stretch of time'
			: 'drag across the strips to choose a stretch of time'),
		el('span', null, fmtSeconds(span) + ' s'));
}

/* Each strip: per bucket (or per pixel, where buckets are narrower),
 * the cost of the event shown, the part in the function shown darker;
 * outside the range chosen, greyed */
function drawStrips(S, sl, e, strips) {
	if (!strips.length)
		return;
	const f = /^#(fn|sandwich)\//.test(location.hash) ? lastFunction : undefined;
	const { cost, max } = bucketCosts(S, e);
	const hit = f === undefined ? null : bucketCosts(S, e, nodesOf(f)).cost;
	/* one width for all: read once, not once a strip (each read after
	 * a canvas is sized would lay the page out again) */
	const w = strips[0].parentNode.clientWidth || 300;
	const dpr = window.devicePixelRatio || 1;

	for (const cv of strips) {
		const t = Number(cv.dataset.track);
		const g = cv.getContext('2d');

		cv.width = Math.round(w * dpr);
		cv.height = Math.round(STRIP_H * dpr);
		cv.style.width = w + 'px';
		cv.style.height = STRIP_H + 'px';
		g.scale(dpr, dpr);
		const xOf = k => k * w / S.buckets;

		/* the stretch chosen, behind the samples */
		if (sl.a > 0 || sl.b < S.buckets) {
			g.fillStyle = 'rgba(40, 100, 220, 0.15)';
			g.fillRect(xOf(sl.a), 0, xOf(sl.b) - xOf(sl.a), STRIP_H);
		}
		let hitAll = 0;	/* the function's cost in the strip */

		for (let k = 0; k < S.buckets; k++) {
			const v = cost[t * S.buckets + k];

			if (!v)
				continue;
			const h = Math.max(1, STRIP_H * v / max);
			const x = xOf(k), bw = Math.max(1, xOf(k + 1) - x);

			g.fillStyle = '#9aa7b8';
			g.fillRect(x, STRIP_H - h, bw, h);
			const hv = hit ? hit[t * S.buckets + k] : 0;

			hitAll += hv;
			if (hv) {
				g.fillStyle = '#d9480f';
				g.fillRect(x, STRIP_H - h * hv / v, bw, h * hv / v);
			}
		}
		/* (the tests read it: --tid's inclusive cost of the function) */
		cv.dataset.hit = hitAll;
		g.fillStyle = 'rgba(255, 255, 255, 0.7)';
		if (sl.a > 0)
			g.fillRect(0, 0, xOf(sl.a), STRIP_H);
		if (sl.b < S.buckets)
			g.fillRect(xOf(sl.b), 0, w - xOf(sl.b), STRIP_H);
		if (sl.tracks && !sl.tracks[t])
			g.fillRect(0, 0, w, STRIP_H);
		cv.onmousedown = ev0 => stripDrag(ev0, S, sl, strips);
		/* the time under the pointer */
		cv.onmousemove = m => {
			const r = cv.getBoundingClientRect();

			const at = (m.clientX - r.left) / r.width * S.buckets;
			const k = Math.min(S.buckets - 1, Math.floor(at));

			cv.title = samplesParts() ? S.word + ' ' + S.dumps[k] +
				(S.triggers[k] ? ': ' + S.triggers[k] : '')
				: fmtSeconds(at * S.width) + ' s';
		};
	}
}
/* The cost of event e per track and bucket (of the samples whose node
 * is in mask, when given), and the largest; the whole's kept per event */
const bucketCache = new Map();
function bucketCosts(S, e, mask) {
	if (!mask && bucketCache.has(e))
		return bucketCache.get(e);
	const cost = new Float64Array(S.tracks.n * S.buckets);
	let max = 0;

	if (samplesParts() && !mask)	/* the parts' totals */
		for (const [k, t, ...c] of S.part_cost)
			cost[t * S.buckets + k] += c[e];
	else
		for (let i = 0; i < S.n; i++)
			if (S.event[i] === e && (!mask || mask[S.node[i]]))
				cost[S.track[i] * S.buckets + S.bucket[i]] += S.period[i];
	for (const v of cost)
		if (v > max)
			max = v;
	if (!mask)
		bucketCache.set(e, { cost, max });
	return { cost, max };
}
/* Which nodes of the base tree have f in their path (with a cut
 * page's merged ones, where its samples land: cut.js) */
function nodesOf(f) {
	const B = samplesShape(flameBase());
	const m = new Uint8Array(B.unit.length);

	for (let i = 0; i < B.unit.length; i++)
		m[i] = B.unit[i] === f || (B.parent[i] >= 0 && m[B.parent[i]]) ? 1 : 0;
	return m;
}

/* A drag across the strips: its buckets shaded while it goes, the
 * range chosen when the button is let go */
function stripDrag(e0, S, sl, strips) {
	const r = e0.target.getBoundingClientRect();
	/* a few pixels from an end is the end: a hand does not hit the
	 * first or last pixel */
	const at = x => x - r.left <= 3 ? 0 : r.right - x <= 3 ? S.buckets
		: Math.round((x - r.left) / r.width * S.buckets);
	/* dumps are few and wide: every dump the drag touches, one for a
	 * click */
	const dumps = samplesParts();
	const pos = x => Math.max(0, Math.min(S.buckets, (x - r.left) /
		r.width * S.buckets));
	const span = (x0, x1) => dumps ? [Math.min(S.buckets - 1,
		Math.floor(pos(Math.min(x0, x1)))), Math.max(1,
		Math.ceil(pos(Math.max(x0, x1))))]
		: [Math.min(at(x0), at(x1)), Math.max(at(x0), at(x1))];
	const from = e0.clientX;
	const shade = el('div', { id: 'strip-shade' });
	const table = document.getElementById('tracks-table');
	const tr = table.getBoundingClientRect();
	let to = from;

	e0.preventDefault();
	shade.style.top = (tr.top + scrollY) + 'px';
	shade.style.height = tr.height + 'px';
	document.body.append(shade);
	const move = e => {
		to = e.clientX;
		let [a, b] = span(from, to);

		if (dumps && b <= a)
			b = a + 1;
		shade.style.left = (r.left + scrollX + a * r.width / S.buckets) + 'px';
		shade.style.width = ((b - a) * r.width / S.buckets) + 'px';
	};
	const up = e => {
		move(e);
		removeEventListener('mousemove', move);
		removeEventListener('mouseup', up);
		shade.remove();
		let [a, b] = span(from, to);

		if (dumps && b <= a)
			b = a + 1;
		if (b > a)
			sliceGo({ tracks: sl.tracks, a, b });
	};
	addEventListener('mousemove', move);
	addEventListener('mouseup', up);
}
/* the first view may be drawn before the page is read: the panel then */
document.addEventListener('DOMContentLoaded', drawTracks);
window.addEventListener('resize', () => {
	tracksKey = null;
	drawTracks();
});
