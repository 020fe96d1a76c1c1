"""--threads and --time against perf report, on tests/perf/procs.data (two
processes of two threads each) and two.data (one process, two threads, two
events); the answers are perf report --sort pid -n's (perf 6.1's pid key
is the thread), made by tests/perf/make-threads.sh.

Checks, each printed with its figures when it fails:
- --json's "threads" equal perf's rows (tid, command, period, samples)
  for every event, on the whole recording and on the slices 0%-50%,
  50%-100%, 10%/3 and an absolute START,END; the text --threads lists
  the same figures, and perf's overhead as its share;
- the relative form +S,+E of the absolute range keeps the same samples;
- the halves 0%-50% and 50%-100% add up to the whole, thread by thread
  and function by function, and no sample is in both ("kept" of the two
  add up to "samples", the recording's);
- with perf installed, perf report run now gives the committed answers
  (so the check does not rest on old files alone), and ours equal its
  on a timestamp range of pipe.data and z.data.
Usage: perf_threads_check.py CGANALYZE
"""
import json
import re
import shutil
import subprocess
import sys

BIN = sys.argv[1]
PERF = "tests/perf"
fails = []


def fail(msg):
    fails.append(msg)
    print("perf-threads: " + msg)


def perf_rows(text):
    """{event: {(tid, comm): (period, samples, overhead)}} and the time
    spec of the answer's first line, if any."""
    rows, ev, spec = {}, None, None
    for line in text.splitlines():
        m = re.match(r"# --time (\S+)", line)
        if m:
            spec = m.group(1)
        m = re.match(r"# Samples: \d+\S*\s+of event '([^']*)'", line)
        if m:
            ev = m.group(1)
            rows[ev] = {}
            continue
        m = re.match(r"\s*([\d.]+)%\s+(\d+)\s+(\d+)\s+(\d+):(\S+)", line)
        if m and ev is not None:
            rows[ev][(int(m.group(4)), m.group(5))] = (
                int(m.group(2)), int(m.group(3)), float(m.group(1)))
    return rows, spec


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, text=True)
    if p.returncode:
        fail("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
        return None
    return p.stdout


def ours(data, time=None):
    args = ["--json", "%s/%s.data" % (PERF, data)]
    if time:
        args.insert(0, "--time=" + time)
    out = run(args)
    return json.loads(out) if out else None


def our_rows(d):
    rows = {}
    for e, name in enumerate(d["events"]):
        rows[name] = {(t["tid"], t["comm"]): (t["cost"][e], t["samples"][e])
                      for t in d["threads"] if t["samples"][e]}
    return rows


def compare(what, mine, perf):
    # perf names an event with its modifiers (cpu-clock:ppp); we too
    strip = {k: {t: v[:2] for t, v in r.items()} for k, r in perf.items()}
    if mine != strip:
        fail("%s: threads differ from perf report's:\n  ours %s\n  perf %s"
             % (what, mine, strip))


def text_rows(data, time=None):
    """the text --threads' thread rows: {(tid, comm): (cost, samples,
    share)}"""
    args = ["--threads", "--no-digit-groups", "%s/%s.data" % (PERF, data)]
    if time:
        args.insert(0, "--time=" + time)
    out = run(args) or ""
    rows = {}
    for line in out.split("\nProcesses")[0].splitlines():
        m = re.match(r"\s*(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)%$",
                     line)
        if m:
            rows[(int(m.group(2)), m.group(3))] = (
                int(m.group(5)), int(m.group(4)), float(m.group(6)))
    return rows


slices = [("procs.threads", None), ("procs.time-0-50", "0%-50%"),
          ("procs.time-50-100", "50%-100%"), ("procs.time-10-3", "10%/3"),
          ("procs.time-abs", "ABS"), ("two.threads", None)]
for answer, time in slices:
    text = open("%s/%s" % (PERF, answer)).read()
    perf, spec = perf_rows(text)
    if time == "ABS":
        time = spec
    data = answer.split(".")[0]
    d = ours(data, time)
    if d is None:
        continue
    compare("%s (--time=%s)" % (data, time), our_rows(d), perf)
    if len(perf) == 1:
        tr = text_rows(data, time)
        (prow,) = perf.values()
        want = {t: (v[0], v[1], v[2]) for t, v in prow.items()}
        if {t: v[:2] for t, v in tr.items()} != {t: v[:2] for t, v in want.items()} \
                or any(abs(tr[t][2] - want[t][2]) > 0.005 for t in tr):
            fail("%s --threads (--time=%s): the text table %s, perf %s"
                 % (data, time, tr, want))
    if answer == "procs.time-abs":
        # the same stretch as seconds after the first sample
        first = d["inputs"][0]["time"]["first_ns"]
        a, b = d["inputs"][0]["time"]["ranges_ns"][0]
        rel = "+%d.%09d,+%d.%09d" % ((a - first) // 10**9, (a - first) % 10**9,
                                     (b - first) // 10**9, (b - first) % 10**9)
        r = ours(data, rel)
        if r and (r["threads"] != d["threads"] or
                  r["inputs"][0]["time"]["kept"] !=
                  d["inputs"][0]["time"]["kept"]):
            fail("--time=%s and --time=%s keep different samples" % (time, rel))

# the halves add up to the whole
whole, h1, h2 = ours("procs"), ours("procs", "0%-50%"), ours("procs", "50%-100%")
if whole and h1 and h2:
    t1, t2 = h1["inputs"][0]["time"], h2["inputs"][0]["time"]
    if t1["kept"] + t2["kept"] != t1["samples"] or \
            t1["samples"] != whole["event_info"][0]["samples"]:
        fail("the halves keep %d and %d samples of %d" %
             (t1["kept"], t2["kept"], t1["samples"]))

    def by(d, key, field):
        out = {}
        for x in d[key]:
            k = (x["tid"], x["comm"]) if key == "threads" else (x["name"], x["object"])
            v = x[field][0]
            out[k] = out.get(k, 0) + v
        return out
    for key, fields in (("threads", ("samples", "cost")),
                        ("functions", ("samples", "self", "inclusive"))):
        for field in fields:
            a, b, w = by(h1, key, field), by(h2, key, field), by(whole, key, field)
            summed = {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}
            summed = {k: v for k, v in summed.items() if v}
            w = {k: v for k, v in w.items() if v}
            if summed != w:
                fail("%s' %s: the halves add up to %s, the whole is %s"
                     % (key, field, summed, w))

# perf itself, now
if shutil.which("perf"):
    for answer, time in slices:
        text = open("%s/%s" % (PERF, answer)).read()
        committed, spec = perf_rows(text)
        data = answer.split(".")[0]
        args = ["perf", "report", "-i", "%s/%s.data" % (PERF, data),
                "--sort", "pid", "-n", "--no-children", "-g", "none",
                "--stdio", "-F", "overhead,period,sample,pid"]
        t = spec if time == "ABS" else time
        if t:
            args += ["--time", t]
        p = subprocess.run(args, capture_output=True, text=True)
        now, _ = perf_rows(p.stdout)
        if p.returncode == 0 and now != committed:
            fail("perf report %s now gives %s, the committed answer %s"
                 % (" ".join(args[2:]), now, committed))
    # perf report slices pipe mode and -z recordings by timestamps only:
    # it takes the first and last samples' times from the SAMPLE_TIME
    # feature, which neither writes, and refuses percentages there
    # ("no first/last sample time found"); we find them in the samples
    for data, t in (("pipe", "1623.9,1624.1"), ("z", "9928.9,9929.0")):
        path = "%s/%s.data" % (PERF, data)
        # perf report reads a pipe-mode recording from standard input
        args = ["perf", "report", "-i", "-" if data == "pipe" else path,
                "--sort", "pid", "-n", "--no-children", "-g", "none",
                "--stdio", "-F", "overhead,period,sample,pid", "--time", t]
        with open(path, "rb") as f:
            p = subprocess.run(args, stdin=f, capture_output=True)
        now, _ = perf_rows(p.stdout.decode())
        d = ours(data, t)
        if p.returncode:
            fail("perf report %s: exit %d" % (" ".join(args[2:]), p.returncode))
        elif d:
            compare("%s (--time=%s), perf report now" % (data, t),
                    our_rows(d), now)
sys.exit(1 if fails else 0)
