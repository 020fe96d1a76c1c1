/* The indexes the views share, made when first needed */

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
	/* a profile of whole stacks: each call's exact self part, per
	 * event, from html_data.c's pairs [gap, self] (the others 0) */
	const selfOf = c.self_sparse && c.self_sparse.map(pairs => {
		const v = new Float64Array(c.n);

		for (let k = 0, i = -1; k < pairs.length; k += 2) {
			i += pairs[k];
			v[i] = pairs[k + 1];
		}
		return v;
	});
	callsIndex = { caller: c.caller, callee: c.callee, count: c.count,
		incl: c.inclusive, estimated: c.estimated,
		selfShare: c.self_share, childShare: c.child_share, selfOf,
		cycleChildren: d.cycle_children,
		/* by function, calls from and to those the report leaves
		 * out (cut.js) */
		cutCallers: d.cut_callers || {}, cutCallees: d.cut_callees || {},
		callersOf, calleesOf, cycleByNumber };
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

	cutCodeIds(d);
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
		hasInstr: d.has_instr, columns: d.columns, disasmMore: d.disasm_more,
		disasmLeast: d.disasm_least, sourceByPath, linesByFile, disasmOf };
	return codeIndex;
}
