"""--threads, --parts, --pid and --tid on Callgrind against
callgrind_annotate, on the files valgrind 3.19 wrote of
tests/callgrind-threads/threads.c (make.sh there):

- procs/: two processes (a fork) of three threads each, one file per
  thread (--separate-threads=yes), event Ir;
- dumps/: one process, two client-request dumps and the final one,
  --separate-threads=yes with --cache-sim and --branch-sim (13 events);
- combined.out: every part in one file (--combine-dumps=yes, client
  requests and --dump-every-bb), which callgrind_annotate cannot read (it
  calls the second part's header lines malformed and adds every part up:
  FORMAT-NOTES Q18).

A file of one part is one thread's dump, and callgrind_annotate's PROGRAM
TOTALS of it is that part's total, for every event, where its summary:
and totals: lines agree (file_totals() says where they do not). Checks, each
printed with its figures when it fails:
- every --parts row (text and --json) equals its file's totals;
- every --threads row the sum of its thread's files', every process row
  the sum of its process's (text and --json);
- --pid=P --tid=T and --pid=P read those files' costs alone: the flat
  profile's total, and callgrind_annotate's PROGRAM TOTALS of the
  selection written with --output=callgrind equal its files' added up;
- combined.out: each part's row equals its own totals: line, and
  --part=N --tid=T written alone gives callgrind_annotate the same; each
  thread's row equals callgrind_annotate's total of --tid=T written alone.
Usage: callgrind_threads_check.py CGANALYZE
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
DIR = "tests/callgrind-threads"
fails = []


def fail(msg):
    fails.append(msg)
    print("callgrind-threads: " + msg)


def run(*args):
    return subprocess.run([BIN, *args], check=True, capture_output=True,
                          text=True).stdout


def annotate_totals(path):
    """callgrind_annotate's PROGRAM TOTALS of a file, one number per event"""
    out = subprocess.run(["callgrind_annotate", path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.endswith("PROGRAM TOTALS"):
            return [int(w.replace(",", "")) for w in line.split()
                    if re.fullmatch(r"[\d,]+", w)]
    raise SystemExit("no PROGRAM TOTALS for " + path)


def file_totals(path):
    """The file's part's totals: the sums of its cost lines (our reader
    warns where they differ), which our figures are; and
    callgrind_annotate's, checked equal to its summary: line.

    With --cache-sim=yes callgrind writes a summary: a little off the cost
    lines, either way (378,837 Ir against 378,832 in dumps/'s thread 2,
    122,494 against 122,502 in its last dump of thread 1), and
    callgrind_annotate prints it as PROGRAM TOTALS; its function rows cannot be added up instead,
    as it charges the costs of calls still running at a dump (calls=0,
    FORMAT-NOTES Q27) to the caller's self. Ours are the cost lines', so
    that --tid's flat profile and the threads' rows add up to the whole;
    where summary: and totals: are equal (every file of procs/) they are
    callgrind_annotate's figures exactly."""
    lines = {}
    with open(path) as f:
        for line in f:
            for key in ("summary", "totals"):
                if line.startswith(key + ": "):
                    lines[key] = [int(x) for x in line.split()[1:]]
    ann = annotate_totals(path)
    ne = len(ann)
    summary = (lines["summary"] + [0] * ne)[:ne]
    totals = (lines["totals"] + [0] * ne)[:ne]
    if ann != summary:
        fail(f"{path}: callgrind_annotate's PROGRAM TOTALS {ann} are not "
             f"its summary: line {summary}")
    return totals, ann


def header(path, key):
    with open(path) as f:
        for line in f:
            if line.startswith(key + ": "):
                return int(line.split()[1])
    return None


def text_rows(text, first_cost):
    """{(pid, tid or None): [costs]} of the --threads tables: threads
    (tid in column 2) and processes (no tid), the 'all' rows left out"""
    rows, procs = {}, False
    for line in text.splitlines():
        if line.startswith("Processes"):
            procs = True
        w = line.split()
        if len(w) < 2 or not w[0].isdigit() or w[1] == "all":
            continue
        key = (int(w[0]), None if procs else int(w[1]))
        rows[key] = [int(x) for x in w[first_cost - procs:-1]]
    return rows


def check_files(sub):
    files = sorted(f for f in glob.glob(f"{DIR}/{sub}/callgrind.out.*-*"))
    both = {f: file_totals(f) for f in files}
    want = {f: both[f][0] for f in files}
    if sub == "procs" and any(t != a for t, a in both.values()):
        fail("procs: a summary: line differs from its totals: line")
    j = json.loads(run("--json", *files))
    ne = len(want[files[0]])
    # --parts: each part is a file of one part
    paths = [p["path"] for p in j["inputs"]]
    for part in j["parts"]:
        f = paths[part["input"]]
        if part["cost"][:ne] != want[f] or not part["from_totals"]:
            fail(f"{f}: --json part {part['cost']}, "
                 f"callgrind_annotate {want[f]}")
    text = run("--no-digit-groups", "--parts", *files)
    for line in text.splitlines():
        w = line.split()
        if w and w[-1].startswith("callgrind.out."):
            f = f"{DIR}/{sub}/{w[-1]}"
            got = [int(x) for x in w[5:5 + ne]]
            if got != want[f]:
                fail(f"{f}: --parts {got}, callgrind_annotate {want[f]}")
    # threads and processes: sums of their files (and of
    # callgrind_annotate's PROGRAM TOTALS, for the selections written)
    sums, ann_sums = {}, {}
    for f in files:
        pid, tid = header(f, "pid"), header(f, "thread")
        for key in ((pid, tid), (pid, None)):
            for d, v in ((sums, want[f]), (ann_sums, both[f][1])):
                s = d.setdefault(key, [0] * ne)
                for e in range(ne):
                    s[e] += v[e]
    rows = text_rows(run("--no-digit-groups", "--threads", *files), 4)
    if rows != sums:
        fail(f"{sub}: --threads {rows}, callgrind_annotate's files "
             f"add up to {sums}")
    jt = {(t["pid"], t["tid"]): t["cost"][:ne] for t in j["threads"]}
    if jt != {k: v for k, v in sums.items() if k[1] is not None}:
        fail(f"{sub}: --json threads {jt}, callgrind_annotate {sums}")
    # --pid and --tid keep those files alone
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sel.cg")
        for (pid, tid), s in sums.items():
            sel = [f"--pid={pid}"] + ([f"--tid={tid}"] if tid else [])
            flat = run("--no-digit-groups", "-p", "--brief", *sel, *files)
            total = int(flat.split()[4])
            if total != s[0]:
                fail(f"{sub}: {' '.join(sel)}: flat total {total}, "
                     f"not {s[0]}")
            # written alone: the selected files' summary: lines add
            # up into its own, the cost lines into its functions'
            run("--output=callgrind", "-o", out, *sel, *files)
            got = annotate_totals(out)
            if got != ann_sums[(pid, tid)]:
                fail(f"{sub}: {' '.join(sel)} written alone: "
                     f"callgrind_annotate {got}, its files' "
                     f"{ann_sums[(pid, tid)]}")


def check_combined():
    path = f"{DIR}/combined.out"
    want, part, tid = [], None, None
    with open(path) as f:
        for line in f:
            if line.startswith("part: "):
                part = int(line.split()[1])
            elif line.startswith("thread: "):
                tid = int(line.split()[1])
            elif line.startswith("totals: "):
                want.append((part, tid, int(line.split()[1])))
    nparts = sum(1 for line in open(path) if line.startswith("part: "))
    if len(want) != nparts or nparts < 4:
        fail(f"combined.out: {len(want)} totals: lines of {nparts} parts")
    j = json.loads(run("--json", path))
    got = [(p["part"], p["tid"], p["cost"][0]) for p in j["parts"]]
    if got != want:
        fail(f"combined.out: --json parts {got}, totals: lines {want}")
    rows = []
    for line in run("--no-digit-groups", "--parts", path).splitlines():
        w = line.split()
        if w and w[-1] == "combined.out":
            rows.append((int(w[0]), int(w[2]), int(w[5])))
    if rows != want:
        fail(f"combined.out: --parts {rows}, totals: lines {want}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "part.cg")
        for part, tid, total in want:
            if not total:
                continue
            run("--output=callgrind", "-o", out, f"--part={part}",
                f"--tid={tid}", path)
            got = annotate_totals(out)[0]
            if got != total:
                fail(f"combined.out: part {part} thread {tid} written "
                     f"alone: callgrind_annotate {got}, totals: {total}")
        rows = text_rows(run("--no-digit-groups", "--threads", path), 4)
        for tid in (1, 2, 3):
            run("--output=callgrind", "-o", out, f"--tid={tid}", path)
            got = annotate_totals(out)
            key = (j["parts"][0]["pid"], tid)
            if rows.get(key) != got:
                fail(f"combined.out: thread {tid}: --threads "
                     f"{rows.get(key)}, callgrind_annotate of --tid "
                     f"written alone {got}")


check_files("procs")
check_files("dumps")
check_combined()
sys.exit(1 if fails else 0)
