/* Disassembly */

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
