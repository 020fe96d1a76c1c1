"""pprof's profile.proto against go tool pprof, for tests/sh/pprof.sh.

go tool pprof's answers (-top, per sample type) are committed beside the
files (tests/pprof/make-answers.sh makes them), so this needs no Go.
Each case is KIND|ANSWER|EVENT|ARGS, or KIND|ANSWER|EVENT|ARGS|ALIASES
where ALIASES (OURS=PPROFS,...) are the names pprof gives functions we
name otherwise:

  read    ARGS read a profile.proto (Go's runtime/pprof wrote it): our
          --json self and inclusive cost of EVENT per function equal
          pprof's flat and cum.
  stacks  ARGS read a profile with whole stacks (IgProf, perf.data);
          ANSWER is go's -top of our --output=pprof of it: pprof's flat
          and cum equal our --json self and inclusive, exactly. Our
          --output=pprof written now, read back by us, gives the same
          (so the committed answer is of what we write today), and, when
          `go` is installed and PPROF_LIVE is not 0, go's -top of it is
          the committed answer.
  arcs    As stacks for a profile without stacks (Callgrind, gmon.out):
          flat is our self rounded to whole units (gmon.out's ticks in
          nanoseconds, as we write its seconds: 1e7 a tick); cum is the flame
          graph's estimate, which --output=folded writes too: each
          function's folded lines (every path through it) add up to it
          within TOLERANCE of the total (folded rounds each line and
          cuts paths under 1e-5 of the total; pprof's samples round per
          function and cut nothing).

Prints what differs; exits 1 if anything does.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOLERANCE = 1e-4


def run(binary, args):
    return subprocess.run([binary] + args, capture_output=True, text=True,
                          check=True).stdout


def parse_top(text):
    """{name: (flat, cum)} of go tool pprof -top; names summed."""
    rows = {}
    body = False
    for line in text.splitlines():
        if re.match(r'^\s*flat\s+flat%', line):
            body = True
            continue
        if not body or not line.strip():
            continue
        parts = line.split(None, 5)
        name = re.sub(r' \(inline\)$', '', parts[5])
        flat, cum = (unit_value(parts[0]), unit_value(parts[3]))
        old = rows.get(name, (0, 0))
        rows[name] = (old[0] + flat, old[1] + cum)
    return rows


def unit_value(s):
    m = re.match(r'^(\d+)(ns|B)?$', s)
    if not m:
        raise ValueError('not a whole value: %r' % s)
    return int(m.group(1))


def ours(binary, args, event):
    """{name: (self, inclusive)} of EVENT from --json, names summed; and
    the names of several functions (objects, files), whose inclusive
    costs cannot be summed (both may be in one stack), and the total."""
    doc = json.loads(run(binary, ['--json'] + args))
    ev = doc['events'].index(event)
    scale = ns_scale(doc['event_info'][ev])
    rows = {}
    shared = set()
    for f in doc['functions']:
        if f['name'] in rows:
            shared.add(f['name'])
        old = rows.get(f['name'], (0, 0))
        rows[f['name']] = (old[0] + f['self'][ev] * scale,
                           old[1] + f['inclusive'][ev] * scale)
    return rows, shared, doc['totals'][ev] * scale, scale


def ns_scale(info):
    """gmon.out's ticks, listed as seconds, are written in nanoseconds:
    pprof's values are the ticks times the tick (1e7 ns for 0.01 s)."""
    if info.get('listed_as') == 'seconds':
        return round(info['unit_seconds'] * 1e9)
    return 1


def compare(what, want, got, bad, flat_only=False, rounding=False,
            shared=()):
    for name in sorted(set(want) | set(got)):
        w = want.get(name, (0, 0))
        g = got.get(name, (0, 0))
        gflat = round(g[0]) if rounding else g[0]
        cum_too = not flat_only and name not in shared
        if w[0] != gflat or (cum_too and w[1] != g[1]):
            bad.append('%s: %s: pprof flat %s cum %s, ours %s %s' %
                       (what, name, w[0], w[1], g[0], g[1]))


def folded_cum(binary, args, event):
    """{frame: (the values of the folded lines through it, their
    number)}: each line is rounded to a whole unit."""
    through = {}
    for line in run(binary, ['--output=folded', '--sort=' + event]
                    + args).splitlines():
        if line.startswith('#'):
            continue
        path, value = line.rsplit(' ', 1)
        for frame in set(path.split(';')):
            old = through.get(frame, (0, 0))
            through[frame] = (old[0] + int(value), old[1] + 1)
    return through


def check(binary, kind, answer, event, args, aliases, tmp):
    bad = []
    with open(answer) as f:
        want = parse_top(f.read())
    for ours_name, theirs in aliases.items():
        if theirs in want:
            want[ours_name] = want.pop(theirs)
    if kind == 'read':
        got, shared, _, _ = ours(binary, args, event)
        compare(answer, want, got, bad, shared=shared)
        return bad
    orig, shared, total, scale = ours(binary, args, event)
    if kind == 'stacks':
        compare(answer + ' vs --json', want, orig, bad, shared=shared)
    else:
        compare(answer + ' vs --json', want, orig, bad, flat_only=True,
                rounding=True)
        # --output=folded writes whole ticks of gmon.out's time, each
        # line rounded; pprof has its nanoseconds (scale): the lines'
        # rounding, half a tick each, is within the tolerance too
        est = folded_cum(binary, args, event)
        for name, (_, cum) in want.items():
            if name in shared:
                continue
            value, lines = est.get(name, (0, 0))
            slack = TOLERANCE * total + 1 + (scale / 2 * lines
                                              if scale != 1 else 0)
            if abs(cum - value * scale) > slack:
                bad.append('%s: %s: pprof cum %d, the flame graph %d' %
                           (answer, name, cum, value * scale))
    out = os.path.join(tmp, 'out.pb.gz')
    run(binary, ['--output=pprof', '-o', out] + args)
    back, shared, _, _ = ours(binary, [out], event)
    compare(answer + ' vs ours read back', want, back, bad, shared=shared)
    go = shutil.which('go')
    if go and os.environ.get('PPROF_LIVE', '1') != '0':
        unit = {'nanoseconds': ['-unit=ns'], 'bytes': ['-unit=B']}
        info = json.loads(run(binary, ['--json', out]))['event_info']
        u = [i.get('unit') for i in info if i['name'] == event][0]
        top = subprocess.run(
            [go, 'tool', 'pprof', '-top', '-nodecount=0', '-nodefraction=0',
             '-edgefraction=0', '-sample_index=' + event] + unit.get(u, [])
            + [out], capture_output=True, text=True)
        if top.returncode:
            bad.append('%s: go tool pprof cannot read what we write: %s' %
                       (answer, top.stderr.strip()))
        else:
            compare(answer + ' vs go tool pprof now', want,
                    parse_top(top.stdout), bad)
    return bad


def main():
    binary = sys.argv[1]
    ok = True
    tmp = tempfile.mkdtemp()
    try:
        for spec in sys.argv[2:]:
            kind, answer, event, args, *rest = spec.split('|')
            aliases = dict(a.split('=', 1) for a in rest[0].split(',')) \
                if rest else {}
            for b in check(binary, kind, answer, event, args.split(),
                           aliases, tmp):
                print('pprof %s: %s' % (kind, b))
                ok = False
    finally:
        shutil.rmtree(tmp)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
