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
