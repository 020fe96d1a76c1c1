"""--output=folded against --json, for tests/sh/folded.sh.

For each profile given (its arguments as one string): the folded lines
add up to the profile's total of the sort event; for a profile of
stacks (IgProf), each function's lines (every path that goes through it,
once however often it recurs there) add up to its inclusive cost, which
the stacks give exactly. Prints what differs; exits 1 if anything does.
"""
import json
import subprocess
import sys


def run(binary, args):
    out = subprocess.run([binary] + args, capture_output=True, text=True,
                         check=True)
    return out.stdout


def check(binary, args, exact):
    folded = run(binary, ['--output=folded'] + args)
    doc = json.loads(run(binary, ['--json'] + args))
    ev = doc['events'].index(doc['sort_event'])
    lines = folded.splitlines()
    bad = []
    if exact == (bool(lines) and lines[0].startswith('#')):
        bad.append('the comment line is %s' %
                   ('there for stacks' if exact else 'missing'))
    total = 0
    through = {}
    for line in lines:
        if line.startswith('#'):
            continue
        path, value = line.rsplit(' ', 1)
        total += int(value)
        for frame in set(path.split(';')):
            through[frame] = through.get(frame, 0) + int(value)
    if total != doc['totals'][ev]:
        bad.append('lines add up to %d, the total is %d' %
                   (total, doc['totals'][ev]))
    if exact:
        names = [f['name'] for f in doc['functions']]
        for f in doc['functions']:
            if names.count(f['name']) > 1:
                continue
            want = f['inclusive'][ev]
            if through.get(f['name'], 0) != want:
                bad.append('%s: lines through it add up to %d, its '
                           'inclusive cost is %d' %
                           (f['name'], through.get(f['name'], 0), want))
    for b in bad:
        print('folded %s: %s' % (' '.join(args), b))
    return not bad


def main():
    binary = sys.argv[1]
    ok = True
    for spec in sys.argv[2:]:
        kind, args = spec.split(':', 1)
        ok &= check(binary, args.split(), kind == 'stacks')
    sys.exit(0 if ok else 1)


main()
