/* The glob of -p, as src/select/symspec.c matches names */

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
/* The one rule of src/select/name_match.c, line for line: change
 * both (tests/name-match.cases tests both). The parts of a C++ name:
 *
 *   void std::vector<int>::push_back<int>(int const&) const
 *   ^    ^                 ^        ^    ^
 *   0    ret               last     targs params
 */
/* the '(' matching the last ')'; len when none or nothing before it */
function paramsStart(s) {
	const close = s.lastIndexOf(')');
	let depth = 0;

	if (close < 0)
		return s.length;
	for (let i = close; i >= 0; i--) {
		if (s[i] === ')')
			depth++;
		else if (s[i] === '(' && --depth === 0)
			return i > 0 ? i : s.length;
	}
	return s.length;
}
const identChar = c => c !== undefined && /[A-Za-z0-9_]/.test(c);
/* "operator" as a word at s[i], in s[0..end) */
function operatorAt(s, i, end) {
	return end - i >= 8 && s.startsWith('operator', i) &&
		(i === 0 || !identChar(s[i - 1])) &&
		(i + 8 === end || !identChar(s[i + 8]));
}
function nameParts(s) {
	const len = s.length, params = paramsStart(s);
	let ret = 0, last = 0, depth = 0;

	for (let i = 0; i < params; i++) {
		const c = s[i];

		if ('(<[{'.includes(c)) {
			depth++;
		} else if (')>]}'.includes(c)) {
			if (depth > 0)
				depth--;
		} else if (depth) {
			continue;
		} else if (c === ' ') {
			ret = last = i + 1;
		} else if (c === ':' && i + 1 < params && s[i + 1] === ':') {
			last = i + 2;
			i++;
		} else if (operatorAt(s, i, params)) {
			break;
		}
	}
	let targs = params;

	if (params > last && s[params - 1] === '>' &&
	    !operatorAt(s, last, params)) {
		const lt = s.indexOf('<', last);

		if (lt > last && lt < params)
			targs = lt;
	}
	return { ret, last, targs, params, len };
}
/* the forms a pattern may match, as name_match.h's table */
function partsMatch(p, re, s) {
	if (textMatches(p, re, s))
		return true;
	const n = nameParts(s);
	const form = [[0, n.len], [n.ret, n.len], [0, n.params],
		[n.ret, n.params], [n.ret, n.targs], [n.last, n.params],
		[n.last, n.targs]];

	for (let k = 1; k < 7; k++) {
		const [from, to] = form[k];
		let seen = from >= to;

		for (let j = 0; j < k && !seen; j++)
			seen = form[j][0] === from && form[j][1] === to;
		if (!seen && textMatches(p, re, s.slice(from, to)))
			return true;
	}
	return false;
}
/* "fib'2" is fib: the first "'" + digits ending at "'" or the end */
function foldRecursion(s) {
	return s.replace(/'[0-9]+(?='|$)/, '');
}
function nameMatches(p, re, s) {
	if (partsMatch(p, re, s))
		return true;
	if (!s.includes("'"))
		return false;
	const folded = foldRecursion(s);

	return folded !== s && partsMatch(p, re, folded);
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
/* a function by its names: the profile's and, for a mangled one, its
 * demangled form (--no-demangle), as -p (symspec.c's func_matches) */
function fnNameMatches(p, re, f) {
	return nameMatches(p, re, FN.name[f] || '') ||
		(f in D.demangled && nameMatches(p, re, D.demangled[f]));
}
/* What -p SPEC selects, as symspec_select(): a function name, a file or
 * an object; FILE:FUNC, a function of a file; FILE:LINE, per file
 * matched, the function starting last at or before LINE (all of those
 * starting there: fib and valgrind's fib'2 share their code). A
 * Uint8Array by function id, or a string saying why text is no SPEC
 * (symspec_parse's words). */
function specSelect(p) {
	const colon = singleColon(p);
	const sel = new Uint8Array(NF);

	if (!p)
		return 'an empty name';
	if (colon === -2)
		return "more than one ':' (FILE:FUNC or FILE:LINE has one; '::' is part of a name)";
	if (colon === 0)
		return "no file before ':'";
	if (colon === p.length - 1)
		return "nothing after ':' (FILE:FUNC or FILE:LINE)";
	if (colon < 0) {
		const re = globRegExp(p);
		/* each file and object once, not once per function */
		const pathHit = D.paths.map(s => pathMatches(p, re, s));

		for (let f = 0; f < NF; f++)
			sel[f] = fnNameMatches(p, re, f) ||
				(FN.file[f] >= 0 && pathHit[FN.file[f]]) ||
				(FN.object[f] >= 0 && pathHit[FN.object[f]]);
		return sel;
	}
	const file = p.slice(0, colon), rest = p.slice(colon + 1);
	const fre = globRegExp(file);
	const fileHit = D.paths.map(s => pathMatches(file, fre, s));
	const inFile = f => FN.file[f] >= 0 && fileHit[FN.file[f]];

	if (/^[0-9]+$/.test(rest)) {
		const line = Number(rest);
		const best = new Map();	/* file -> the line starting last */

		if (!line || line > 4294967295)
			return 'a line number from 1 to 4294967295 after \':\'';
		const m = f => inFile(f) && fnLine(f) && fnLine(f) <= line;

		for (let f = 0; f < NF; f++)
			if (m(f) && !(best.get(FN.file[f]) >= fnLine(f)))
				best.set(FN.file[f], fnLine(f));
		for (let f = 0; f < NF; f++)
			sel[f] = m(f) && best.get(FN.file[f]) === fnLine(f);
		return sel;
	}
	const re = globRegExp(rest);

	for (let f = 0; f < NF; f++)
		sel[f] = inFile(f) && fnNameMatches(rest, re, f);
	return sel;
}

/*
 * The Top filter: the text as -p SPEC; when that selects nothing and
 * the text is a plain word (no glob character * ? [ and no FILE: part),
 * the functions whose name contains it, in any case, as the flame
 * graph's search. { rows, how }: how says which it did, for the page
 * to tell.
 */
function filterRows(text) {
	const all = Array.from({ length: NF }, (x, f) => f);

	if (!text)
		return { rows: all, how: '' };
	const sel = specSelect(text);
	const plain = !/[*?[]/.test(text) && singleColon(text) === -1;

	if (typeof sel !== 'string') {
		const rows = all.filter(f => sel[f]);

		if (rows.length || !plain)
			return { rows, how: 'matching as -p ' + text +
				(plain ? ' (type *' + text + '* for names containing it)' : '') };
	} else if (!plain) {
		return { rows: [], how: 'not a -p SPEC: ' + sel };
	}
	const needle = text.toLowerCase();
	const has = s => s !== undefined && s !== null &&
		s.toLowerCase().includes(needle);

	return { rows: all.filter(f => has(FN.name[f]) || has(name(f)) ||
			has(D.demangled[f])),
		how: 'no function is -p ' + text + ': names containing "' +
			text + '" (any case)' };
}
