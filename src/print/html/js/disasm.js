/* Disassembly */

/* Why there is no listing: what the profile lacks, as --disasm says. */
function disasmNone(K) {
	/* the binary given, but no function with a cost (a total of 0)
	 * to list: the report lists those only */
	return el('p', { id: 'disasm-none' }, K.hasInstr && D.binaries.length &&
		  !total()
		? 'No disassembly here: no function has a cost of ' + EV[ev] +
		  ' (the total is 0); cganalyze --disasm=NAME lists any function.'
		: K.hasInstr
		? 'No disassembly: the binary of the profile\'s code is not here. ' +
		  'Give it with -b BINARY.'
		: 'No disassembly: the profile has no instruction addresses ' +
		  '(record it with valgrind --tool=callgrind --dump-instr=yes; ' +
		  'gmon.out, IgProf and perf.data have them, with the binary).');
}

/*
 * The function picker: an input that narrows a list of every listing
 * (by its symbol's name or a profile function's listed there, any part
 * of it, any case) as one types; Enter or a click opens one. A name
 * that matches no listing may be one of those left out of the page:
 * the list says how to get it.
 */
function disasmPicker(K, k) {
	const list = K.disasm;
	/* a C++ name is longer than the box: whole on hover */
	const input = el('input', { type: 'search', id: 'disasm-find', value: list[k].name,
		title: list[k].name,
		placeholder: 'Find a function (' + list.length + ' listed)',
		'aria-label': 'function' });
	/* not a Tab stop (tabindex -1): the browser makes a box that
	 * scrolls one, and Tab from the box to the list hid the list, the
	 * focus dropped to the page's top; the arrows choose in it */
	const menu = el('ul', { id: 'disasm-list', hidden: '', tabindex: -1 });
	const box = el('label', { class: 'picker' }, 'Function ', input, menu);
	const names = list.map(x => [x.name, ...(x.functions || []).map(name)]
		.join('\n').toLowerCase());
	let shown = [], on = 0;

	function open(i) {
		location.hash = withXforms('#disasm/' + i);
	}
	function mark(n) {
		on = n;
		[...menu.children].forEach((li, j) => li.classList.toggle('on', j === n));
		if (menu.children[n])
			menu.children[n].scrollIntoView({ block: 'nearest' });
	}
	function fill() {
		const q = input.value === list[k].name ? '' : input.value.toLowerCase();

		shown = [];
		list.forEach((x, i) => {
			if (!q || names[i].includes(q))
				shown.push(i);
		});
		menu.textContent = '';
		for (const i of shown) {
			const x = list[i];

			menu.append(el('li', { 'data-k': i, onmousedown: e => {
				e.preventDefault();
				open(i);
			} }, el('span', { title: x.name }, x.name),
			el('span', { class: 'num muted' }, pct(x.self[ev], total()))));
		}
		if (!shown.length)
			menu.append(el('li', { class: 'muted', id: 'disasm-missing' },
				K.disasmMore
					? 'No listing in the page matches "' + input.value + '": ' +
					  fmt(K.disasmMore) + ' more functions, of at most ' +
					  pct(K.disasmLeast, total()) + ' each, are left out; ' +
					  'cganalyze --disasm=NAME (with the options of this ' +
					  'report) lists any of them.'
					: 'No function with a cost at its instructions matches "' +
					  input.value + '".'));
		menu.hidden = false;
		mark(0);
	}
	input.addEventListener('focus', () => { input.select(); fill(); });
	input.addEventListener('input', fill);
	input.addEventListener('blur', () => { menu.hidden = true; });
	input.addEventListener('keydown', e => {
		if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
			e.preventDefault();
			if (shown.length)
				mark((on + (e.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length);
		} else if (e.key === 'Enter') {
			e.preventDefault();
			if (shown.length)
				open(shown[on]);
		} else if (e.key === 'Escape') {
			input.value = list[k].name;
			input.blur();
		}
	});
	return box;
}

/* Listing k: each instruction with its cost and the percent of the
 * function's self cost it is, as --disasm prints them. */
function viewDisasm(k) {
	const K = code();
	const list = K.disasm;

	if (!list.length)
		return disasmNone(K);
	k = k >= 0 && k < list.length ? k : 0;
	const d = list[k];
	const self = d.self[ev];
	let max = 0;
	const rows = [];

	const lines = K.disasmSource[k] || [];
	let next = 0;

	/* the source line before the instructions made from it */
	d.instructions.forEach((ins, i) => {
		for (; next < lines.length && lines[next][0] === i; next++) {
			rows.push({ source: lines[next] });
			/* the functions inlined there, as --disasm says
			 * after file:line: a row of its own, under it */
			if (lines[next][4])
				rows.push({ chain: '(inlined: ' + lines[next][4] + ')' });
		}
		if (ins.cost[ev] > max)
			max = ins.cost[ev];
		rows.push(ins);
	});
	/* cost the listing could not put on an instruction, as --disasm
	 * lists it after the code */
	for (const x of d.elsewhere || [])
		if (x.cost[ev])
			rows.push({ elsewhere: x });
	const table = vtable(rows, 'asm-grid', ins => {
		if (ins.source) {
			const [, file, line, text] = ins.source;
			const where = file.split('/').pop() + ':' + line;
			const k = K.sourceByPath[file];

			/* file:line over the address and cost columns */
			return cells(el('span', { class: 'srcline wide', title: file + ':' + line },
				k !== undefined ? el('a', { href: '#source/' + k + '/' + line }, where)
					: where),
			el('span', { class: 'code srcline' }, text === null ? '' : text.trim()), '');
		}
		if (ins.chain)
			return cells(el('span', { class: 'srcline wide' }),
				el('span', { class: 'code srcline chain' }, ins.chain), '');
		if (ins.elsewhere) {
			const x = ins.elsewhere;

			/* no percent, and --disasm's words */
			return cells(el('span', { class: 'code muted' },
				x.address === null ? '' : hex(x.address)),
				numCell(x.cost[ev]), '',
				el('span', { class: 'muted' }, 'cost ' + (x.where === 'no-address'
					? 'at no address' : x.where === 'outside'
					? 'outside the function\'s symbol'
					: 'inside the function, where no instruction starts')), '');
		}
		return cells(el('span', { class: 'code muted' }, hex(ins.address)),
			numCell(ins.cost[ev] || null, heat(ins.cost[ev], max)),
			el('span', { class: 'num' }, ins.cost[ev] ? pct(ins.cost[ev], self) : ''),
			el('span', { class: 'code' }, ins.text), disasmNotes(ins));
	});
	table.id = 'disasm-table';
	const more = K.disasmMore ? el('p', { class: 'muted', id: 'disasm-more' },
		'The ' + fmt(list.length) + ' functions of most cost are listed here; ' +
		fmt(K.disasmMore) + ' more, of at most ' + pct(K.disasmLeast, total()) +
		' each, are left out: cganalyze --disasm=NAME lists any of them.') : null;
	const view = el('div', null, el('div', { class: 'controls' }, disasmPicker(K, k),
		el('span', { class: 'muted', id: 'disasm-about' }, d.binary +
			', load offset ' + hex(d.load_offset) + ', self ' + fmt(self) +
			' ' + K.columns[ev] + ' (' + pct(self, total()) + ' of the total); ' +
			'% is of the function\'s self cost')),
		more,
		el('div', { class: 'hdr asm-grid' }, el('span', null, 'address'),
			el('span', { class: 'num' }, K.columns[ev]), el('span', { class: 'num' }, '%'),
			el('span', null, 'instruction'),
			/* a sampled profile counts neither jumps nor calls */
			el('span', null, SAMPLED ? '' : 'jumps (taken/executed), calls')),
		table);

	disasmWidths(view, rows, costColumn(rows.map(r =>
		r.elsewhere ? r.elsewhere.cost[ev] : r.cost ? r.cost[ev] : 0),
		K.columns[ev]));
	return view;
}

/* An instruction's jumps and calls, as --disasm notes them */
function disasmNotes(ins) {
	const notes = el('span');

	for (const j of ins.jumps || [])
		notes.append((j.conditional ? 'jump ' + fmt(j.taken) + '/' +
			fmt(j.executed) : 'jump ' + fmt(j.executed)) +
			(j.target !== null ? ' \u2192 ' + hex(j.target) : '') + ' ');
	for (const c of ins.calls || [])
		notes.append('call ', fnLink(c.callee), (SAMPLED ? '' :
			' \u00d7' + fmt(c.count)) + ' (' + fmt(c.inclusive[ev]) + ') ');
	/* whole on hover too: the box may need scrolling to show it */
	notes.title = notes.textContent.trim();
	return notes;
}
/*
 * The columns as wide as their widest text (vtable.js codeScroll()):
 * at 800 px a call's notes, "call fib'2 \u00d74 (18,076) call fib'2
 * \u00d71,390 (129,355)", and the instructions were cut with "\u2026".
 */
function disasmWidths(view, rows, cost) {
	const ch = codeCh();
	let addr = 'address'.length * ch, code = 0, words = 0;
	const notes = [];

	for (const r of rows) {
		if (r.source) {
			code = Math.max(code, codeLength((r.source[3] || '').trim()));
		} else if (r.chain) {
			code = Math.max(code, codeLength(r.chain));
		} else if (r.elsewhere) {
			words = Math.max(words, textWidth('cost inside the function, ' +
				'where no instruction starts', false));
		} else {
			addr = Math.max(addr, hex(r.address).length * ch);
			code = Math.max(code, codeLength(r.text));
			if ((r.jumps || []).length || (r.calls || []).length)
				notes.push(disasmNotes(r).textContent.trim());
		}
	}
	const pad = 9;	/* a cell's padding, and a pixel to spare */
	const widths = [addr, parseFloat(cost) - pad, textWidth('100.00%', true),
		Math.max(code * ch, words, textWidth('instruction', true)),
		SAMPLED && !notes.length ? 0 : Math.max(widestText(notes, false),
			textWidth('jumps (taken/executed), calls', true))]
		.map(w => Math.ceil(w + pad));
	const last = widths.length - 1;

	view.style.setProperty('--asm-columns', widths.slice(0, last)
		.map(w => w + 'px').join(' ').replace(/(\d+px)$/, 'minmax($1, 1fr)') +
		' ' + widths[last] + 'px');
	codeScroll(view.querySelector('#disasm-table'),
		view.querySelector('.hdr.asm-grid'), widths.reduce((a, b) => a + b));
}
