/* Threads and time: the samples behind the views (perf.data) */

/*
 * "cga-samples" (src/print/html_samples.c) holds the profile's tracks
 * (perf.data's threads: a name, pid and tid, and their totals, which
 * are --threads's) and its samples grouped by (time bucket, track,
 * node of the flame graph's tree, event), as columns of LEB128 numbers
 * in base64. The recording's time is cut into buckets of one width in
 * whole nanoseconds, so a range of buckets is a --time range that
 * keeps exactly the samples the page sums.
 *
 * A selection of tracks and a range of buckets lives in the hash as
 * two parameters beside the transforms', "&threads=0.2&time=100-900"
 * (buckets 100 to 899), and is the first step of the transforms
 * (transform.js: xformTree()): each node of the tree gets as its self
 * the periods of the samples selected that end there, then the
 * transforms in force apply, and every view (Top, Function, the flame
 * graphs, call tree, bottom-up, sandwich) is drawn from that tree as
 * from any transformed one.
 *
 * A Callgrind profile of several parts ("kind": "parts": threads of
 * --separate-threads=yes, dumps over time) has the same shape: its
 * threads are the tracks, its dumps the buckets (no time: the strips'
 * axis is of dumps), each part's self cost per function a record at
 * the nodes of the function on the part's call paths. Those paths are
 * estimated from the part's calls, and a path the page's tree lacks is
 * a node "added" to it (samplesShape()). "part_cost" holds each part's
 * totals, which the panel shows: --threads's.
 */
XF_OPS.threads = 'threads';
XF_OPS.time = 'time';
const SLICE_OPS = { threads: true, time: true };

/* A column of n unsigned LEB128 numbers, from base64 */
function lebColumn(b64, n, Type) {
	const s = atob(b64);
	const out = new Type(n);
	let k = 0, v = 0, mul = 1;

	for (let i = 0; i < s.length && k < n; i++) {
		const c = s.charCodeAt(i);

		v += (c & 127) * mul;
		if (c & 128) {
			mul *= 128;
		} else {
			out[k++] = v;
			v = 0;
			mul = 1;
		}
	}
	return out;
}

/* The document decoded: { tracks, n, bucket, track, node, event,
 * samples, period, ... }, once; null where the profile has none (the
 * page says why: samplesWhy()). */
let smp;
function samplesDoc() {
	if (smp !== undefined)
		return smp;
	const S = doc('samples');

	smp = null;
	if (!S.tracks)
		return smp;
	const n = S.n, ng = S.groups;
	const gb = lebColumn(S.group_bucket, ng, Int32Array);
	const gt = lebColumn(S.group_track, ng, Int32Array);
	const gs = lebColumn(S.group_size, ng, Int32Array);
	const zz = lebColumn(S.node, n, Float64Array);
	const node = new Int32Array(n);
	const bucket = new Int32Array(n), track = new Int32Array(n);
	const event = S.events > 1 ? lebColumn(S.event, n, Int32Array)
		: new Int32Array(n);
	/* the samples of the records with more than one (n at most) */
	const many = lebColumn(S.samples, n, Float64Array);
	const samples = new Float64Array(n), period = new Float64Array(n);
	const per = S.period ? lebColumn(S.period, n, Float64Array) : null;
	let b = 0, nd = 0, i = 0, m = 0, k = 0;

	for (let g = 0; g < ng; g++) {
		b += gb[g];
		for (const end = i + gs[g]; i < end; i++) {
			const raw = zz[i], z = Math.floor(raw / 2);

			bucket[i] = b;
			track[i] = gt[g];
			/* zigzag: 0, -1, 1, -2, ... */
			nd += z % 2 ? -(z + 1) / 2 : z / 2;
			node[i] = nd;
			samples[i] = raw % 2 ? many[m++] : 1;
			const fixed = S.fixed[event[i]];

			period[i] = fixed ? samples[i] * fixed : per[k++];
		}
	}
	smp = Object.assign({}, S, { bucket, track, node, event, samples,
		period });
	return smp;
}
/* Whether the tracks are a Callgrind profile's parts */
function samplesParts() {
	const S = samplesDoc();

	return !!S && S.kind === 'parts';
}
/* The shape of tree base where the samples land ({ unit, parent }, made
 * once per tree): with a cut page's merged nodes (cut.js: cutWhole()),
 * numbered after the drawn ones, then the nodes the parts' paths add
 * (html_parts.c numbers them after both) */
const shapeCache = new WeakMap();
function samplesShape(base) {
	const S = samplesDoc();
	const e = doc('flame').trees.indexOf(base);
	const A = S && S.added ? S.added[e] : null;
	const W = cutWhole(base) || base;

	if (!A)
		return { unit: W.unit, parent: W.parent };
	if (!shapeCache.has(base))
		shapeCache.set(base, { unit: Array.from(W.unit).concat(A.unit),
			parent: Array.from(W.parent).concat(A.parent) });
	return shapeCache.get(base);
}
/* Why the page has no threads, or null */
function samplesWhy() {
	return doc('samples').tracks ? null : doc('samples').why;
}

/* The selection in force: { tracks (a Uint8Array by track, or null:
 * all), a, b (buckets a to b - 1) }, or null for all of the profile */
function sliceNow() {
	const S = samplesDoc();
	let tracks = null, a = 0, b = S ? S.buckets : 0, any = false;

	if (!S)
		return null;
	for (const x of xforms) {
		if (x.op === 'threads') {
			tracks = new Uint8Array(S.tracks.n);
			for (const t of x.arg.split('.'))
				if (/^\d+$/.test(t) && Number(t) < S.tracks.n)
					tracks[Number(t)] = 1;
			any = true;
		} else if (x.op === 'time' && !S.why_time) {
			const m = /^(\d+)-(\d+)$/.exec(x.arg);

			if (m && Number(m[1]) < Number(m[2])) {
				a = Math.min(Number(m[1]), S.buckets);
				b = Math.min(Number(m[2]), S.buckets);
				any = true;
			}
		}
	}
	return any ? { tracks, a, b } : null;
}

/* The first record of bucket a or later: records are in bucket order */
function recordAt(S, a) {
	let lo = 0, hi = S.n;

	while (lo < hi) {
		const mid = (lo + hi) >> 1;

		if (S.bucket[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The self column of tree base (the flame document's tree of event e)
 * for the selection in force; null when none is. */
function sliceSelf(base) {
	const sl = sliceNow();

	if (!sl)
		return null;
	const S = samplesDoc();
	const e = doc('flame').trees.indexOf(base);
	/* with the nodes a cut page merged (cut.js) and those the parts add */
	const self = new Float64Array(samplesShape(base).unit.length);
	const end = recordAt(S, sl.b);

	for (let i = recordAt(S, sl.a); i < end; i++)
		if (S.event[i] === e && (!sl.tracks || sl.tracks[S.track[i]]))
			self[S.node[i]] += S.period[i];
	return self;
}
/* The parts' measured inclusive costs, decoded once: { n, event,
 * bucket, track, fn, value } */
let inclDecoded = null;
function inclDoc(S) {
	if (inclDecoded)
		return inclDecoded;
	const n = S.incl_n;
	const ge = lebColumn(S.incl_event, n, Int32Array);
	const gb = lebColumn(S.incl_bucket, n, Int32Array);
	const gt = lebColumn(S.incl_track, n, Int32Array);
	const gs = lebColumn(S.incl_size, n, Int32Array);
	const dfn = lebColumn(S.incl_fn, n, Int32Array);
	const I = { n, event: new Int32Array(n), bucket: new Int32Array(n),
		track: new Int32Array(n), fn: new Int32Array(n),
		value: lebColumn(S.incl_value, n, Float64Array) };

	for (let g = 0, i = 0; i < n; g++)
		for (let end = i + gs[g], f = 0; i < end; i++) {
			f += dfn[i];
			I.event[i] = ge[g];
			I.bucket[i] = gb[g];
			I.track[i] = gt[g];
			I.fn[i] = f;
		}
	return inclDecoded = I;
}
/* Each function's inclusive cost of the event of tree base in the
 * parts chosen, as each part read alone measures it (--tid's and
 * --part's), where the selection is the only transform; else null
 * (the transformed tree's are the figures then) */
function sliceIncl(base) {
	const S = samplesDoc();
	const sl = sliceNow();

	if (!sl || !S.incl_n || xforms.some(x => !SLICE_OPS[x.op]))
		return null;
	const I = inclDoc(S);
	const e = doc('flame').trees.indexOf(base);
	const out = new Float64Array(NF);

	for (let i = 0; i < I.n; i++)
		if (I.event[i] === e && I.bucket[i] >= sl.a && I.bucket[i] < sl.b &&
		    (!sl.tracks || sl.tracks[I.track[i]]))
			out[I.fn[i]] += I.value[i];
	return out;
}
/* The base tree of the selection in force, { unit, parent, self } with
 * the nodes the parts add (transform.js: xformTree()); null for none */
function sliceTree(base) {
	const self = sliceSelf(base);

	return self ? Object.assign({ self }, samplesShape(base)) : null;
}

/* Each track's samples and cost of event e in buckets a to b - 1; of
 * parts, their number and totals */
function trackSums(e, a, b) {
	const S = samplesDoc();
	const samples = new Float64Array(S.tracks.n);
	const cost = new Float64Array(S.tracks.n);
	const end = recordAt(S, b);

	if (samplesParts()) {
		for (const [k, t, ...c] of S.part_cost)
			if (k >= a && k < b) {
				samples[t]++;
				cost[t] += c[e];
			}
		return { samples, cost };
	}

	for (let i = recordAt(S, a); i < end; i++)
		if (S.event[i] === e) {
			samples[S.track[i]] += S.samples[i];
			cost[S.track[i]] += S.period[i];
		}
	return { samples, cost };
}

/* A bucket's start as a recorded timestamp (ns, a BigInt) */
function bucketTime(S, k) {
	return BigInt(S.first_s) * 1000000000n + BigInt(S.first_ns) +
		BigInt(k) * BigInt(S.width);
}
/* ns as perf's seconds.nanoseconds */
function fmtStamp(ns) {
	return (ns / 1000000000n) + '.' +
		String(ns % 1000000000n).padStart(9, '0');
}
/* The command line's options for the selection: the report's own
 * (S.chosen: its --pid, --tid, --comm, --time), each replaced by the
 * page's of its kind, whose threads and time are within the report's;
 * --pid where whole processes are chosen, else --tid; --time with the
 * buckets' timestamps (both ends kept, as perf's) */
function sliceOptions(sl) {
	const S = samplesDoc();

	if (samplesParts())
		return partOptions(S, sl);
	const C = S.chosen;
	const o = {
		pid: C.pid.length ? '--pid=' + C.pid.join(',') : null,
		tid: C.tid.length ? '--tid=' + C.tid.join(',') : null,
		comm: C.comm !== null ? '--comm=' + C.comm : null,
		time: C.time !== null ? '--time=' + C.time : null,
	};

	if (sl && sl.tracks) {
		const T = S.tracks, pids = new Map();

		for (let t = 0; t < T.n; t++) {
			const p = pids.get(T.pid[t]) || { all: 0, on: 0 };

			p.all++;
			p.on += sl.tracks[t];
			pids.set(T.pid[t], p);
		}
		const whole = [...pids.values()].every(p => !p.on || p.on === p.all);
		const ids = [];

		for (let t = 0; t < T.n; t++)
			if (sl.tracks[t])
				ids.push(whole ? T.pid[t] : T.tid[t]);
		if (!ids.length)
			return ['(no thread chosen)'];
		o[whole ? 'pid' : 'tid'] = (whole ? '--pid=' : '--tid=') +
			[...new Set(ids)].join(',');
	}
	if (sl && (sl.a > 0 || sl.b < S.buckets))
		o.time = '--time=' + fmtStamp(bucketTime(S, sl.a)) + ',' +
			fmtStamp(bucketTime(S, sl.b) - 1n);
	return [o.pid, o.tid, o.comm, o.time].filter(x => x);
}
/* The same of parts: --pid and --tid choose every part of the pids
 * and thread numbers given (valgrind numbers each process's threads
 * from 1), --part one dump; what they cannot say, said */
function partOptions(S, sl) {
	const T = S.tracks, C = S.chosen;
	const on = t => !sl || !sl.tracks || sl.tracks[t];
	const pids = new Set(), tids = new Set(), all = new Set();
	const o = [];

	for (let t = 0; t < T.n; t++) {
		all.add(T.pid[t]);
		if (on(t)) {
			pids.add(T.pid[t]);
			tids.add(T.tid[t]);
		}
	}
	if (!pids.size)
		return ['(no thread chosen)'];
	if (sl && sl.tracks) {
		/* the pairs that --pid and --tid would choose */
		let pairs = 0, chosen = 0, whole = true;

		for (let t = 0; t < T.n; t++) {
			chosen += on(t) ? 1 : 0;
			if (pids.has(T.pid[t]) && tids.has(T.tid[t]))
				pairs++;
			if (pids.has(T.pid[t]) && !on(t))
				whole = false;
		}
		if (pairs !== chosen)
			return ['(threads that no --pid and --tid choose alone: ' +
				'they choose every thread number given in every ' +
				'process given)'];
		/* the report's own --pid and --tid stay: its tracks are
		 * only theirs */
		if (pids.size < all.size || C.pid.length)
			o.push('--pid=' + [...pids].join(','));
		if (!whole || C.tid.length)
			o.push('--tid=' + [...tids].join(','));
	} else {
		if (C.pid.length)
			o.push('--pid=' + C.pid.join(','));
		if (C.tid.length)
			o.push('--tid=' + C.tid.join(','));
	}
	if (C.part)	/* the report's: one dump */
		o.push('--part=' + C.part);
	else if (sl && sl.b - sl.a === 1 && S.buckets > 1)
		o.push('--part=' + S.dumps[sl.a]);
	else if (sl && (sl.a > 0 || sl.b < S.buckets))
		o.push('(' + S.word + 's ' + S.dumps[sl.a] + ' to ' +
			S.dumps[sl.b - 1] + ': --part=N reads one)');
	return o;
}
/* A stretch of the page's time that the command line's --time cannot
 * say: the report's --time had several ranges, the page's may span a
 * gap between them */
function sliceTimeCaveat(sl) {
	const S = samplesDoc();

	return sl && S.chosen.ranges > 1 && (sl.a > 0 || sl.b < S.buckets)
		? '(and within the report\'s --time=' + S.chosen.time + ')' : '';
}
