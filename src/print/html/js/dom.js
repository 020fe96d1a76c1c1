/* Small helpers */

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
/* a function's name: name(), fullName() and fitName() in names.js */
function cycleName(n) {
	return '<cycle ' + n + ' as a whole>';
}
function fnLink(f) {
	return fnLinkFit(f, LINK_CHARS);
}
function cycleLink(n) {
	return el('a', { href: '#cycle/' + n }, cycleName(n));
}
/* a path's last component: "/usr/lib/libc.so.6" -> "libc.so.6" */
function baseName(path) {
	return path.slice(path.lastIndexOf('/') + 1);
}
function hex(v) {
	return '0x' + Number(v).toString(16);
}
/* Heat: white to red by share of the largest. */
function heat(v, max) {
	const s = max > 0 ? Math.min(1, v / max) : 0;

	return s > 0 ? 'hsl(0, 90%, ' + (100 - 45 * s).toFixed(1) + '%)' : '';
}
