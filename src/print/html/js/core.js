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
 *   #sandwich/F       function F's callers and callees as flame graphs
 *                     (-N: cycle N as a whole)
 *   #calltree         the call tree, top-down    #bottomup   ... inverted
 * then parameters "&key=value": the flame graphs' "&order=weight" or
 * "&order=name", the transforms in force (transform.js: "&focus=main"). */

/* The page's script is the files of src/print/html/js/ joined in the
 * Makefile's order (REPORT_JS) inside one function, so they share its
 * scope as one file would and leave nothing in the page's globals. This
 * one holds the data and the accessors every view uses. */

const t0 = performance.now();
const D = JSON.parse(document.getElementById('cga-data').textContent);
const FN = D.functions;	/* columns, by function id */
const NF = FN.name.length;
const EV = D.events;
let ev = Math.max(0, EV.indexOf(D.sort_event));	/* the event shown */
const view = document.getElementById('view');
const ROW = 20;	/* px: the height of a row of the big tables */

performance.mark('cga-parsed');

/* A function's fields, from the columns; its costs under transforms
 * from the transformed tree (transform.js) */
const fnSelf = f => xforms.length && xformFunctions()
	? xformFunctions().self[f] : FN.self[ev][f];
const fnIncl = f => xforms.length && xformFunctions()
	? xformFunctions().incl[f] : FN.inclusive[ev][f];
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
