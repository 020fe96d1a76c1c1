/*
 * cganalyze's report: draws the views from the analysis this page
 * carries as JSON (elements "cga-*", written by src/print/print_html.c
 * and html_data.c: "cga-data" for the first view, before this script;
 * "cga-calls", "cga-flame" and "cga-code" after it, each parsed when a
 * view first needs it). No framework and no build step. Every name,
 * path and line of source from the profile goes into the page as text
 * (textContent, or a string given to append()), never as markup. The view is chosen by
 * location.hash, so links are plain links and the browser's back and
 * forward move between views.
 *
 *   #top              the flat profile           #fn/ID      a function
 *   #cycle/N          cycle N as a whole         #flame[/K]  flame graph,
 *   #icicle[/K]       ... upside down            (zoomed to node K)
 *   #source/K[/LINE]  annotated source file K    #disasm/K   disassembly K
 */
'use strict';

(function () {
	const t0 = performance.now();
	const D = JSON.parse(document.getElementById('cga-data').textContent);
	const FN = D.functions;	/* columns, by function id */
	const NF = FN.name.length;
	const EV = D.events;
	let ev = Math.max(0, EV.indexOf(D.sort_event));	/* the event shown */
	const view = document.getElementById('view');
	const ROW = 20;	/* px: the height of a row of the big tables */

	performance.mark('cga-parsed');

	/* A function's fields, from the columns. */
	const fnSelf = f => FN.self[ev][f];
	const fnIncl = f => FN.inclusive[ev][f];
	const fnFile = f => FN.file[f] < 0 ? null : D.paths[FN.file[f]];
	const fnObject = f => FN.object[f] < 0 ? null : D.paths[FN.object[f]];
	const fnLine = f => FN.line[f] || null;
	const fnCycle = f => FN.cycle[f] || null;

	/* The documents after this script, each parsed once, when a view
	 * first asks for it (route() waits until the page is read). */
	const docs = {};
	function doc(id) {
		if (!docs[id])
			docs[id] = JSON.parse(document.getElementById('cga-' + id).textContent);
		return docs[id];
	}

	/* ---- small helpers ---- */

	/* An element; attributes by name ("on..." are listeners), then
	 * children: nodes, or strings put in as text. */
	function el(tag, attrs, ...kids) {
		const e = document.createElement(tag);

		for (const k in attrs || {}) {
			const v = attrs[k];

			if (v === undefined || v === null)
				continue;
			if (k === 'class')
				e.className = v;
			else if (k.startsWith('on'))
				e.addEventListener(k.slice(2), v);
			else
				e.setAttribute(k, v);
		}
		for (const kid of kids)
			if (kid !== undefined && kid !== null)
				e.append(kid instanceof Node ? kid : String(kid));
		return e;
	}

	/* Costs: integers with thousands separators; estimates (gmon.out)
	 * with two decimals. By hand: toLocaleString's first call in a fresh
	 * browser loads the locale's data, 0.04 to 0.2 s of the first view. */
	function group(digits) {
		return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	}
	function fmt(v) {
		if (v === undefined || v === null)
			return '';
		if (Number.isInteger(v))
			return group(String(v));
		const [whole, frac] = v.toFixed(2).split('.');

		return group(whole) + '.' + frac;
	}
	function pct(v, total) {
		return total ? (100 * v / total).toFixed(2) + '%' : '';
	}
	function total() {
		return D.totals[ev] || 0;
	}
	/* the names the listings show (a cycle member's with its cycle) */
	const NAME = FN.name.map((n, f) => (D.labels[f] || n || '???') +
		(FN.cycle[f] ? ' <cycle ' + FN.cycle[f] + '>' : ''));
	function name(f) {
		return NAME[f];
	}
	function cycleName(n) {
		return '<cycle ' + n + ' as a whole>';
	}
	function fnLink(f) {
		return el('a', { href: '#fn/' + f }, name(f));
	}
	function cycleLink(n) {
		return el('a', { href: '#cycle/' + n }, cycleName(n));
	}
	function hex(v) {
		return '0x' + Number(v).toString(16);
	}
	/* Heat: white to red by share of the largest. */
	function heat(v, max) {
		const s = max > 0 ? Math.min(1, v / max) : 0;

		return s > 0 ? 'hsl(0, 90%, ' + (100 - 45 * s).toFixed(1) + '%)' : '';
	}

	/* ---- the indexes the views share, made when first needed ---- */

	/* The calls (columns by call id, "cga-calls"), each function's
	 * callers and callees as call ids, the cycles by number. */
	let callsIndex;
	function calls() {
		if (callsIndex)
			return callsIndex;
		const d = doc('calls');
		const c = d.calls;
		const deleted = new Set(d.deleted);
		const callersOf = Array.from({ length: NF }, () => []);
		const calleesOf = Array.from({ length: NF }, () => []);
		const cycleByNumber = {};

		for (let i = 0; i < c.n; i++) {
			if (deleted.has(i))
				continue;
			calleesOf[c.caller[i]].push(i);
			callersOf[c.callee[i]].push(i);
		}
		for (const y of d.cycles)
			cycleByNumber[y.id] = y;
		callsIndex = { caller: c.caller, callee: c.callee, count: c.count,
			incl: c.inclusive, callersOf, calleesOf, cycleByNumber };
		return callsIndex;
	}

	/* The annotated source and the disassembly ("cga-code"): the files
	 * by path, the line costs by file and line, the listing of each
	 * function. */
	let codeIndex;
	function code() {
		if (codeIndex)
			return codeIndex;
		const d = doc('code');
		const sourceByPath = {};
		const linesByFile = {};
		const disasmOf = {};

		d.sources.forEach((s, k) => { sourceByPath[s.path] = k; });
		for (const l of d.lines || [])
			(linesByFile[l.file] = linesByFile[l.file] || {})[l.line] = l;
		d.disasm.forEach((x, k) => {
			for (const f of x.functions || [])
				disasmOf[f] = k;
		});
		codeIndex = { annotated: d.annotated, sources: d.sources,
			disasm: d.disasm, disasmSource: d.disasm_source,
			sourceByPath, linesByFile, disasmOf };
		return codeIndex;
	}

	/* ---- the glob of -p, as src/select/symspec.c matches names ---- */

	/* fnmatch(3) without flags: * and ? match any character (also
	 * '/'), [...] a set ([!...] or [^...] its complement), \ quotes. */
	function globRegExp(p) {
		let re = '^';

		for (let i = 0; i < p.length; i++) {
			const c = p[i];

			if (c === '*') {
				re += '[\\s\\S]*';
			} else if (c === '?') {
				re += '[\\s\\S]';
			} else if (c === '[') {
				let j = i + 1, neg = false, body = '';

				if (p[j] === '!' || p[j] === '^') {
					neg = true;
					j++;
				}
				if (p[j] === ']') {
					body += '\\]';
					j++;
				}
				for (; j < p.length && p[j] !== ']'; j++)
					body += '\\^['.includes(p[j]) ? '\\' + p[j] : p[j];
				if (j >= p.length) {
					re += '\\[';	/* no closing ']': a plain '[' */
				} else {
					re += '[' + (neg ? '^' : '') + body + ']';
					i = j;
				}
			} else if (c === '\\' && i + 1 < p.length) {
				i++;
				re += p[i].replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
			} else {
				re += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
			}
		}
		return new RegExp(re + '$');
	}
	function textMatches(p, re, s) {
		return p === s || re.test(s);
	}
	/* the name without its C++ parameter list: up to the '(' matching
	 * the last ')'; 0 when none, or nothing before it */
	function withoutParams(s) {
		const close = s.lastIndexOf(')');
		let depth = 0;

		if (close < 0)
			return 0;
		for (let i = close; i >= 0; i--) {
			if (s[i] === ')')
				depth++;
			else if (s[i] === '(' && --depth === 0)
				return i;
		}
		return 0;
	}
	/* where the name after the last "::" outside <...> starts, or 0 */
	function unqualified(s) {
		let depth = 0;

		for (let i = s.length - 1; i >= 1; i--) {
			if (s[i] === '>')
				depth++;
			else if (s[i] === '<' && depth)
				depth--;
			else if (!depth && s[i] === ':' && s[i - 1] === ':')
				return i + 1;
		}
		return 0;
	}
	function nameOrBaseMatches(p, re, s) {
		if (textMatches(p, re, s))
			return true;
		let n = withoutParams(s);

		if (!n)
			n = s.length;
		const base = s.slice(0, n);

		if (n !== s.length && textMatches(p, re, base))
			return true;
		const q = unqualified(base);

		return q > 0 && textMatches(p, re, base.slice(q));
	}
	/* "fib'2" is fib: the first "'" + digits ending at "'" or the end */
	function foldRecursion(s) {
		return s.replace(/'[0-9]+(?='|$)/, '');
	}
	function nameMatches(p, re, s) {
		if (nameOrBaseMatches(p, re, s))
			return true;
		if (!s.includes("'"))
			return false;
		const folded = foldRecursion(s);

		return folded !== s && nameOrBaseMatches(p, re, folded);
	}
	/* a path: whole, or its last components ("src/a.c", "a.c") */
	function pathMatches(p, re, s) {
		if (!s)
			return false;
		if (textMatches(p, re, s))
			return true;
		for (let i = s.indexOf('/'); i >= 0; i = s.indexOf('/', i + 1))
			if (textMatches(p, re, s.slice(i + 1)))
				return true;
		return false;
	}
	/* the one ':' of FILE:FUNC or FILE:LINE ("::" is part of a name):
	 * its index, -1 for none, -2 for more than one */
	function singleColon(p) {
		let found = -1;

		for (let i = p.indexOf(':'); i >= 0; i = p.indexOf(':', i + 1)) {
			if ((i > 0 && p[i - 1] === ':') || p[i + 1] === ':')
				continue;
			if (found >= 0)
				return -2;
			found = i;
		}
		return found;
	}
	/* -p's SPEC: a function name, a file or an object; FILE:FUNC, a
	 * function of a file; FILE:LINE, the functions of a file starting
	 * at or before the line. null when it is no SPEC. */
	/* a function by its names: the profile's, the one shown where it
	 * differs (--short-names), and the demangled form of a mangled one
	 * (--no-demangle), as -p takes a name in either form */
	function fnNameMatches(p, re, f) {
		return nameMatches(p, re, FN.name[f] || '') ||
			(f in D.labels && nameMatches(p, re, D.labels[f])) ||
			(f in D.demangled && nameMatches(p, re, D.demangled[f]));
	}
	function funcMatcher(p) {
		const colon = singleColon(p);

		if (colon === -2 || colon === 0 || colon === p.length - 1)
			return null;
		if (colon < 0) {
			const re = globRegExp(p);
			/* each file and object once, not once per function */
			const pathHit = D.paths.map(s => pathMatches(p, re, s));

			return f => fnNameMatches(p, re, f) ||
				(FN.file[f] >= 0 && pathHit[FN.file[f]]) ||
				(FN.object[f] >= 0 && pathHit[FN.object[f]]);
		}
		const file = p.slice(0, colon), rest = p.slice(colon + 1);
		const fre = globRegExp(file);
		const fileHit = D.paths.map(s => pathMatches(file, fre, s));
		const inFile = f => FN.file[f] >= 0 && fileHit[FN.file[f]];

		if (/^[0-9]+$/.test(rest)) {
			const line = Number(rest);

			return f => inFile(f) && fnLine(f) && fnLine(f) <= line;
		}
		const re = globRegExp(rest);

		return f => inFile(f) && fnNameMatches(rest, re, f);
	}

	/* ---- a table that draws only the rows in view ---- */

	/* rows: any array; draw(row, index) makes one row's element (a
	 * grid of cells). Returns the scroller, with scrollToRow(). */
	function vtable(rows, gridClass, draw) {
		const scroller = el('div', { class: 'vscroll' });
		const spacer = el('div', { class: 'vspacer' });
		let drawn = '';

		spacer.style.height = rows.length * ROW + 'px';
		scroller.append(spacer);
		function paint() {
			const h = scroller.clientHeight || 600;
			const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - 5);
			const last = Math.min(rows.length, first + Math.ceil(h / ROW) + 10);
			const key = first + ':' + last;

			if (key === drawn)
				return;
			drawn = key;
			spacer.textContent = '';
			for (let i = first; i < last; i++) {
				const r = draw(rows[i], i);

				r.classList.add('row', gridClass);
				r.style.top = i * ROW + 'px';
				spacer.append(r);
			}
		}
		scroller.addEventListener('scroll', paint);
		scroller.paint = () => { drawn = ''; paint(); };
		scroller.scrollToRow = i => {
			scroller.scrollTop = Math.max(0, i * ROW - 4 * ROW);
			scroller.paint();
		};
		requestAnimationFrame(paint);
		paint();
		return scroller;
	}

	function cells(...kids) {
		return el('div', null, ...kids.map(k =>
			k instanceof Node && k.tagName === 'SPAN' ? k : el('span', null, k)));
	}
	function numCell(v, style) {
		const s = el('span', { class: 'num' }, fmt(v));

		if (style)
			s.style.background = style;
		return s;
	}

	/* ---- the header ---- */

	function drawHeader() {
		const h = document.getElementById('head');
		const inputs = el('table');
		const events = el('table');

		for (const i of D.inputs)
			inputs.append(el('tr', null,
				el('td', null, i.path || ''),
				el('td', null, i.format || ''),
				el('td', null, i.creator || ''),
				el('td', null, i.cmd || '')));
		D.event_info.forEach((e, k) => {
			events.append(el('tr', null,
				el('td', null, e.name),
				el('td', null, e.long_name || ''),
				el('td', { class: 'num' }, fmt(D.totals[k])),
				el('td', { class: 'muted' }, e.unit_seconds ?
					'1 unit = ' + e.unit_seconds + ' s' : '')));
		});
		h.append(el('h1', null, 'cganalyze: ' +
			D.inputs.map(i => i.path).join(', ')));
		h.append(el('details', { open: '' },
			el('summary', null, 'Events and totals'), events));
		h.append(el('details', null,
			el('summary', null, 'Inputs (' + D.inputs.length + ')'), inputs));
		if (D.binaries.length) {
			const b = el('table');

			for (const x of D.binaries)
				b.append(el('tr', null,
					el('td', null, x.path),
					el('td', null, x.object || ''),
					el('td', null, 'load offset ' + hex(x.load_offset)),
					el('td', { class: 'muted' }, x.load_offset_reason)));
			h.append(el('details', null,
				el('summary', null, 'Binaries (' + D.binaries.length + ')'), b));
		}
		if (D.warnings) {
			const n = D.warnings.split('\n').filter(x => x).length;

			h.append(el('details', { id: 'warnings' },
				el('summary', null, 'Messages of the run (' + n + ')'),
				el('pre', null, D.warnings)));
		}
		/* the event every view shows */
		const pick = el('select', { id: 'event', onchange: () => {
			ev = Number(pick.value);
			/* a zoomed frame is a node of the other event's tree */
			if (/^#(flame|icicle)\/./.test(location.hash))
				location.hash = location.hash.replace(/\/.*/, '');
			else
				route();
		} });
		EV.forEach((e, k) => pick.append(el('option', { value: k }, e)));
		pick.value = ev;
		document.getElementById('tabs').append(el('label', null, 'Event: ', pick));
	}

	/* ---- Top: the flat profile ---- */

	const topState = { col: 'self', desc: true, filter: '' };
	const topColumns = [
		{ key: 'self', title: 'self', v: fnSelf },
		{ key: 'selfpct', title: '%', v: fnSelf },
		{ key: 'incl', title: 'inclusive', v: fnIncl },
		{ key: 'inclpct', title: '%', v: fnIncl },
		{ key: 'calls', title: 'calls', v: f => FN.calls[f] },
		{ key: 'name', title: 'function', v: f => name(f) },
		{ key: 'file', title: 'file', v: f => fnFile(f) || '' },
		{ key: 'object', title: 'object', v: f => fnObject(f) || '' },
	];

	function sortedRows() {
		const col = topColumns.find(c => c.key === topState.col);
		let rows = Array.from({ length: NF }, (x, f) => f);

		if (topState.filter) {
			const m = funcMatcher(topState.filter);

			rows = m ? rows.filter(m) : [];
		}
		const key = rows.map(col.v);
		const idx = rows.map((x, i) => i);
		const dir = topState.desc ? -1 : 1;

		idx.sort((a, b) => {
			const x = key[a], y = key[b];

			if (x < y)
				return -dir;
			if (x > y)
				return dir;
			/* ties as the flat profile: self cost, then name */
			return fnSelf(rows[b]) - fnSelf(rows[a]) ||
				(name(rows[a]) < name(rows[b]) ? -1 : 1);
		});
		return idx.map(i => rows[i]);
	}

	function viewTop() {
		const box = el('div');
		const filter = el('input', { type: 'search', id: 'filter',
			placeholder: 'filter as -p: a function, file or object, FILE:FUNC (std::*, *.c)',
			value: topState.filter });
		const count = el('span', { class: 'muted', id: 'top-count' });
		const hdr = el('div', { class: 'hdr top-grid', id: 'top-head' });
		let table;

		function redraw() {
			const rows = sortedRows();
			const tot = total();

			count.textContent = rows.length + ' of ' + NF + ' functions';
			const t = vtable(rows, 'top-grid', f => cells(
				numCell(fnSelf(f)),
				el('span', { class: 'num' }, pct(fnSelf(f), tot)),
				numCell(fnIncl(f)),
				el('span', { class: 'num' }, pct(fnIncl(f), tot)),
				numCell(FN.calls[f]),
				el('span', null, fnLink(f)),
				el('span', { class: 'muted', title: fnFile(f) || '' },
					(fnFile(f) || '') + (fnLine(f) ? ':' + fnLine(f) : '')),
				el('span', { class: 'muted', title: fnObject(f) || '' },
					fnObject(f) || '')));

			t.id = 'top-table';
			if (table)
				table.replaceWith(t);
			else
				box.append(t);
			table = t;
			for (const s of hdr.children) {
				s.classList.toggle('sorted', s.dataset.key === topState.col);
				s.classList.toggle('up', !topState.desc);
			}
		}
		for (const c of topColumns)
			hdr.append(el('span', { 'data-key': c.key,
				class: ['self', 'selfpct', 'incl', 'inclpct', 'calls']
					.includes(c.key) ? 'num' : '',
				onclick: () => {
					if (topState.col === c.key)
						topState.desc = !topState.desc;
					else {
						topState.col = c.key;
						topState.desc = !['name', 'file', 'object']
							.includes(c.key);
					}
					redraw();
				} }, c.title));
		filter.addEventListener('input', () => {
			topState.filter = filter.value.trim();
			redraw();
		});
		box.append(el('div', { class: 'controls' }, filter, count), hdr);
		redraw();
		return box;
	}

	/* ---- Function: gprof's call graph entry ---- */

	/* The self and inclusive cost of f, or of its cycle when it has one:
	 * what an arc into it is split by. */
	function calleeUnit(f) {
		const c = fnCycle(f) ? calls().cycleByNumber[fnCycle(f)] : null;

		return c ? { self: c.self[ev], incl: c.inclusive[ev], calls: c.calls }
			 : { self: fnSelf(f), incl: fnIncl(f), calls: FN.calls[f] };
	}

	/*
	 * gprof's call graph entry: callers above, the entry's own line, then
	 * callees; each arc's inclusive cost split into the callee's self and
	 * children in the callee's own proportion (cg_arc_share()), and
	 * "called" as count/the callee's calls. Arcs inside a cycle are
	 * counted only: their cost is the cycle's.
	 */
	function entryTable(f, arcsIn, arcsOut, sameUnit) {
		const tot = total();
		const t = el('table', { class: 'entry' }, el('tr', null,
			el('th', { class: 'num' }, '% total'), el('th', { class: 'num' }, 'self'),
			el('th', { class: 'num' }, 'children'), el('th', { class: 'num' }, 'inclusive'),
			el('th', { class: 'num' }, 'called'), el('th', null, 'function')));
		const C = calls();
		const arcRow = (a, other, callee, dir) => {
			const inside = sameUnit(other);
			const u = calleeUnit(callee);
			const incl = C.incl[ev][a];
			const self = u.incl > 0 ? Math.min(incl, incl * u.self / u.incl) : 0;

			return el('tr', { class: dir }, el('td'),
				el('td', { class: 'num' }, inside ? '' : fmt(self)),
				el('td', { class: 'num' }, inside ? '' : fmt(incl - self)),
				el('td', { class: 'num' }, inside ? '' : fmt(incl)),
				el('td', { class: 'num' }, fmt(C.count[a]) +
					(inside ? '' : '/' + fmt(u.calls))),
				el('td', null, fnLink(other),
					inside ? el('span', { class: 'muted' }, ' (within the cycle)') : null));
		};

		if (!arcsIn.length)
			t.append(el('tr', { class: 'caller' }, el('td'), el('td'), el('td'),
				el('td'), el('td'), el('td', { class: 'muted' }, '<spontaneous>')));
		for (const a of arcsIn)
			t.append(arcRow(a, C.caller[a], C.callee[a], 'caller'));
		t.append(el('tr', { class: 'primary' },
			el('td', { class: 'num' }, pct(f.inclusive, tot)),
			el('td', { class: 'num' }, fmt(f.self)),
			el('td', { class: 'num' }, fmt(f.inclusive - f.self)),
			el('td', { class: 'num' }, fmt(f.inclusive)),
			el('td', { class: 'num' }, fmt(f.calls) +
				(f.selfCalls ? '+' + fmt(f.selfCalls) : '')),
			el('td', null, f.label)));
		for (const a of arcsOut)
			t.append(arcRow(a, C.callee[a], C.callee[a], 'callee'));
		return t;
	}

	function byCost(list) {
		const C = calls();

		return list.slice().sort((a, b) =>
			C.incl[ev][b] - C.incl[ev][a] || C.count[b] - C.count[a]);
	}

	function viewFunction(f) {
		if (!(f >= 0 && f < NF)) {
			/* none chosen yet: the one of the highest inclusive cost */
			f = -1;
			for (let i = 0; i < NF; i++)
				if (f < 0 || fnIncl(i) > fnIncl(f))
					f = i;
			if (f < 0)
				return el('p', null, 'The profile has no functions.');
		}
		const cyc = fnCycle(f);
		const same = other => cyc !== null && fnCycle(other) === cyc || other === f;
		const box = el('div', { id: 'function' });
		const facts = el('p', null,
			'self ', el('b', null, fmt(fnSelf(f))), ' (' + pct(fnSelf(f), total()) + ')',
			', inclusive ', el('b', null, fmt(fnIncl(f))),
			' (' + pct(fnIncl(f), total()) + ')',
			', called ' + fmt(FN.calls[f]) + ' times',
			FN.self_calls[f] ? ' and ' + fmt(FN.self_calls[f]) + ' times by itself' : '');
		const where = el('p', { class: 'muted' });
		const file = fnFile(f), line = fnLine(f);
		const K = code();

		if (file) {
			const k = K.sourceByPath[file];
			const at = file + (line ? ':' + line : '');

			where.append(k !== undefined
				? el('a', { href: '#source/' + k + '/' + (line || 1) }, at) : at);
		}
		if (fnObject(f))
			where.append(' in ' + fnObject(f));
		if (K.disasmOf[f] !== undefined)
			where.append(' \u00b7 ', el('a', { href: '#disasm/' + K.disasmOf[f] }, 'disassembly'));
		box.append(el('h2', { id: 'fn-name' }, name(f)), where, facts);
		if (cyc !== null)
			box.append(el('p', null, 'Part of ', cycleLink(cyc),
				': calls inside the cycle are counted, their cost is the cycle\'s.'));
		box.append(entryTable({ calls: FN.calls[f], selfCalls: FN.self_calls[f],
					label: name(f), self: fnSelf(f), inclusive: fnIncl(f) },
			byCost(calls().callersOf[f]), byCost(calls().calleesOf[f]), same));
		return box;
	}

	function viewCycle(n) {
		const C = calls();
		const c = C.cycleByNumber[n];

		if (!c)
			return el('p', null, 'No cycle ' + n + '.');
		const members = new Set(c.members);
		const arcsIn = [], arcsOut = [];

		for (const m of c.members) {
			for (const a of C.callersOf[m])
				if (!members.has(C.caller[a]))
					arcsIn.push(a);
			for (const a of C.calleesOf[m])
				if (!members.has(C.callee[a]))
					arcsOut.push(a);
		}
		const box = el('div', { id: 'function' });
		const list = el('ul');

		for (const m of c.members)
			list.append(el('li', null, fnLink(m), ' self ' + fmt(fnSelf(m))));
		box.append(el('h2', null, cycleName(n)),
			el('p', null, 'self ', el('b', null, fmt(c.self[ev])), ', inclusive ',
				el('b', null, fmt(c.inclusive[ev])), ', called ' + fmt(c.calls) +
				' times from outside, ' + fmt(c.internal_calls) + ' times inside'),
			el('p', null, 'Members:'), list,
			entryTable({ calls: c.calls, selfCalls: c.internal_calls,
				     label: cycleName(n), self: c.self[ev],
				     inclusive: c.inclusive[ev] },
				byCost(arcsIn), byCost(arcsOut), () => false));
		return box;
	}

	/* ---- flame graph and icicle ---- */

	/* The tree of the event shown ("cga-flame" has one per event, as
	 * columns by node), with each node's children and the roots; for
	 * an event without one (an estimate is of --sort's alone), that. */
	function flameTree() {
		const trees = doc('flame').trees;
		const T = trees[ev] || trees.find(t => t);

		if (!T.kids) {
			T.kids = T.unit.map(() => []);
			T.roots = [];
			T.parent.forEach((p, i) => (p < 0 ? T.roots : T.kids[p]).push(i));
		}
		return T;
	}
	function flameName(T, i) {
		const u = T.unit[i];

		return u < 0 ? cycleName(-u) : name(u);
	}
	function flameColor(s) {
		let h = 0;

		for (let i = 0; i < s.length; i++)
			h = (h * 31 + s.charCodeAt(i)) >>> 0;
		return 'hsl(' + (10 + h % 45) + ', 85%, ' + (60 + (h >> 8) % 15) + '%)';
	}
	let flameSearch = '';
	/* levels drawn below the zoomed frame, and callers shown above it:
	 * a stack can be 100,000 frames deep */
	const FLAME_DEPTH = 300, FLAME_CALLERS = 40;

	function viewFlame(icicle, zoom) {
		const box = el('div');
		const FL = flameTree();
		const search = el('input', { type: 'search', id: 'flame-search',
			placeholder: 'search: part of a name', value: flameSearch });
		const matched = el('span', { class: 'muted', id: 'flame-matched' });
		const info = el('div', { id: 'flame-info', class: 'muted' });
		const deepNote = el('div', { class: 'muted' });
		const area = el('div', { class: 'flame', id: 'flame' });
		const H = 17;

		box.append(el('div', { class: 'controls' },
			el('span', null, (icicle ? 'Icicle' : 'Flame graph') + ' of ' + FL.event +
				(FL.event !== EV[ev] ? ' (estimated for the event --sort chose only)' : '')),
			FL.estimated ? el('span', { class: 'note', id: 'flame-estimated' },
				'estimated from call arcs: the profile has no stacks') : null,
			zoom !== undefined ? el('a', { href: icicle ? '#icicle' : '#flame' }, 'reset zoom') : null,
			search, matched), info, deepNote, area);
		function draw() {
			const W = area.clientWidth || 1000;
			const frames = [];	/* [node or -1, x, w, depth, up] */
			const z = zoom >= 0 && zoom < FL.unit.length ? zoom : -1;
			const ztotal = z < 0 ? FL.total : FL.value[z];
			const scale = ztotal > 0 ? W / ztotal : 0;
			let depth = 0;

			/* the root, then the zoomed node's callers, full width
			 * (the nearest FLAME_CALLERS of them) */
			frames.push([-1, 0, W, depth++, z >= 0]);
			if (z >= 0) {
				const chain = [];

				for (let p = FL.parent[z]; p >= 0 && chain.length < FLAME_CALLERS;
				     p = FL.parent[p])
					chain.unshift(p);
				for (const p of chain)
					frames.push([p, 0, W, depth++, true]);
			}
			const deepest = depth + FLAME_DEPTH;
			let cut = false;
			/* depth first, children left to right, those a pixel wide */
			const stack = [];
			const start = z < 0 ? FL.roots : [z];
			let x = 0;

			for (const r of start) {
				stack.push([r, x, depth]);
				x += FL.value[r] * scale;
			}
			let maxDepth = depth;

			while (stack.length) {
				const [i, x0, d] = stack.pop();
				const w = FL.value[i] * scale;

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

				for (const k of FL.kids[i]) {
					stack.push([k, cx, d + 1]);
					cx += FL.value[k] * scale;
				}
			}
			area.textContent = '';
			area.style.height = (maxDepth + 1) * H + 'px';
			const needle = flameSearch.toLowerCase();
			const frag = document.createDocumentFragment();

			for (const [i, fx, w, d, up] of frames) {
				const label = i < 0 ? 'all' : flameName(FL, i);
				const value = i < 0 ? FL.total : FL.value[i];
				const div = el('div', {
					class: 'fr' + (i < 0 ? ' root' : '') + (up ? ' up' : '') +
						(i >= 0 && needle && label.toLowerCase().includes(needle) ? ' hit' : ''),
					'data-node': i, 'data-value': value,
					title: label + ': ' + fmt(value) + ' (' + pct(value, FL.total) + ')' });

				div.style.left = fx.toFixed(2) + 'px';
				div.style.width = w.toFixed(2) + 'px';
				div.style.top = (icicle ? d : maxDepth - d) * H + 'px';
				if (i >= 0)
					div.style.background = flameColor(label);
				if (w > 24)
					div.textContent = label;
				frag.append(div);
			}
			area.append(frag);
			deepNote.textContent = cut ? 'Stacks deeper than ' + FLAME_DEPTH +
				' frames are not drawn: click a frame to zoom in.' : '';
			/* what the search matches, not counting a match inside one */
			if (needle) {
				let sum = 0;
				const walk = [...FL.roots];

				while (walk.length) {
					const i = walk.pop();

					if (flameName(FL, i).toLowerCase().includes(needle))
						sum += FL.value[i];
					else
						walk.push(...FL.kids[i]);
				}
				matched.textContent = 'matched ' + fmt(sum) + ' (' + pct(sum, FL.total) + ')';
			} else {
				matched.textContent = '';
			}
		}
		area.addEventListener('click', e => {
			const t = e.target.closest('.fr');

			if (!t)
				return;
			const i = Number(t.dataset.node);

			location.hash = (icicle ? '#icicle' : '#flame') + (i >= 0 ? '/' + i : '');
		});
		area.addEventListener('mouseover', e => {
			const t = e.target.closest('.fr');
			const i = t ? Number(t.dataset.node) : -1;

			info.textContent = '';
			if (!t)
				return;
			info.append(t.title);
			if (i >= 0 && FL.unit[i] >= 0)
				info.append(' \u00b7 ', fnLink(FL.unit[i]));
		});
		search.addEventListener('input', () => {
			flameSearch = search.value;
			draw();
		});
		requestAnimationFrame(draw);
		box.redraw = draw;
		return box;
	}

	/* ---- annotated source ---- */

	function viewSource(k, line) {
		const K = code();
		const sources = K.sources;

		if (!sources.length)
			return el('p', { id: 'source-none' }, K.annotated
				? 'No source file of the profile was found above the threshold ' +
				  'to embed (-I DIR or --source-map OLD=NEW say where they are).'
				: 'The profile has no source lines.');
		k = k >= 0 && k < sources.length ? k : 0;
		const src = sources[k];
		const costs = K.linesByFile[src.path] || {};
		const rows = [];
		let max = 0;

		src.lines.forEach((text, i) => {
			const l = costs[i + 1];

			rows.push({ line: i + 1, text: text, cost: l ? l.cost[ev] : null });
			if (l && l.cost[ev] > max)
				max = l.cost[ev];
			for (const c of l ? l.calls : [])
				rows.push({ call: c });
		});
		const pick = el('select', { id: 'source-file', onchange: () => {
			location.hash = '#source/' + pick.value;
		} });
		sources.forEach((s, i) => pick.append(el('option', { value: i }, s.path)));
		pick.value = k;
		const tot = total();
		const table = vtable(rows, 'src-grid', r => {
			if (r.call)
				return cells('', numCell(r.call.inclusive[ev]),
					el('span', { class: 'num' }, pct(r.call.inclusive[ev], tot)),
					el('span', { class: 'callrow' }, '\u2192 ', fnLink(r.call.callee),
						' \u00d7' + fmt(r.call.count)));
			const row = cells(el('span', { class: 'num muted' }, r.line),
				numCell(r.cost, r.cost ? heat(r.cost, max) : ''),
				el('span', { class: 'num' }, r.cost ? pct(r.cost, tot) : ''),
				el('span', { class: 'code' }, r.text));

			row.dataset.line = r.line;
			if (r.line === line)
				row.classList.add('here');
			return row;
		});
		table.id = 'source-table';
		const box = el('div', null, el('div', { class: 'controls' }, pick,
			el('span', { class: 'muted' }, 'cost per line of ' + EV[ev] +
				'; calls below their line with their inclusive cost')),
			el('div', { class: 'hdr src-grid' }, el('span', null, 'line'),
				el('span', { class: 'num' }, EV[ev]), el('span', { class: 'num' }, '%'),
				el('span', null, 'source')), table);
		if (line)
			requestAnimationFrame(() => table.scrollToRow(
				rows.findIndex(r => r.line === line)));
		return box;
	}

	/* ---- disassembly ---- */

	function viewDisasm(k) {
		const K = code();
		const list = K.disasm;

		if (!list.length)
			return el('p', { id: 'disasm-none' }, 'No disassembly: it needs -b BINARY ' +
				'and a profile with instruction addresses (valgrind --dump-instr=yes, ' +
				'gmon.out, IgProf).');
		k = k >= 0 && k < list.length ? k : 0;
		const d = list[k];
		let max = 0;
		const rows = [];

		const lines = K.disasmSource[k] || [];
		let next = 0;

		/* the source line before the instructions made from it */
		d.instructions.forEach((ins, i) => {
			for (; next < lines.length && lines[next][0] === i; next++)
				rows.push({ source: lines[next] });
			if (ins.cost[ev] > max)
				max = ins.cost[ev];
			rows.push(ins);
		});
		const pick = el('select', { id: 'disasm-function', onchange: () => {
			location.hash = '#disasm/' + pick.value;
		} });
		list.forEach((x, i) => pick.append(el('option', { value: i }, x.name)));
		pick.value = k;
		const table = vtable(rows, 'asm-grid', ins => {
			if (ins.source) {
				const [, file, line, text] = ins.source;
				const where = file.split('/').pop() + ':' + line;
				const k = K.sourceByPath[file];

				return cells(el('span', { class: 'srcline' }, k !== undefined
					? el('a', { href: '#source/' + k + '/' + line }, where) : where),
				'', '', el('span', { class: 'code srcline' }, text === null ? '' : text.trim()), '');
			}
			const notes = el('span');

			for (const j of ins.jumps || [])
				notes.append((j.conditional ? 'jump ' + fmt(j.taken) + '/' +
					fmt(j.executed) : 'jump ' + fmt(j.executed)) +
					(j.target !== null ? ' \u2192 ' + hex(j.target) : '') + ' ');
			for (const c of ins.calls || [])
				notes.append('call ', fnLink(c.callee), ' \u00d7' + fmt(c.count) +
					' (' + fmt(c.inclusive[ev]) + ') ');
			return cells(el('span', { class: 'code muted' }, hex(ins.address)),
				numCell(ins.cost[ev] || null, heat(ins.cost[ev], max)),
				el('span', { class: 'num' }, ins.cost[ev] ? pct(ins.cost[ev], total()) : ''),
				el('span', { class: 'code' }, ins.text), notes);
		});
		table.id = 'disasm-table';
		return el('div', null, el('div', { class: 'controls' }, pick,
			el('span', { class: 'muted' }, d.binary + ', load offset ' + hex(d.load_offset) +
				', self ' + fmt(d.self[ev]))),
			el('div', { class: 'hdr asm-grid' }, el('span', null, 'address'),
				el('span', { class: 'num' }, EV[ev]), el('span', { class: 'num' }, '%'),
				el('span', null, 'instruction'), el('span', null, 'jumps (taken/executed), calls')),
			table);
	}

	/* ---- the views by location.hash ---- */

	let lastFunction, waiting = false, drawn = false;

	function route() {
		const parts = (location.hash.slice(1) || 'top').split('/');
		const arg = parts.length > 1 && parts[1] !== '' ? Number(parts[1]) : undefined;
		let tab = parts[0], node;

		/* the views but Top read the documents after this script: they
		 * wait until the browser has read the page */
		if (['fn', 'cycle', 'flame', 'icicle', 'source', 'disasm'].includes(tab) &&
		    document.readyState === 'loading') {
			if (!waiting)
				document.addEventListener('DOMContentLoaded', route);
			waiting = true;
			return;
		}

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
		case 'source':
			node = viewSource(arg, parts[2] ? Number(parts[2]) : undefined);
			break;
		case 'disasm':
			node = viewDisasm(arg);
			break;
		default:
			tab = 'top';
			node = viewTop();
		}
		view.textContent = '';
		view.append(node);
		for (const a of document.querySelectorAll('#tabs a'))
			a.classList.toggle('on', a.id === 'tab-' + tab);
		if (node.redraw)
			node.redraw();
		if (!drawn)
			firstDrawn();
		drawn = true;
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
})();
