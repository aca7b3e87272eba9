#!/usr/bin/env python3
"""Summarise values.tsv and results-*.jsonl (counts by source, parse rate, state distribution)."""
import json, sys, collections
src = {}
for l in open('values.tsv', encoding='utf-8'):
    v, s = l.rstrip('\n').split('\t', 1)
    src[v.replace('\\t', '\t').replace('\\n', '\n').replace('\\\\', '\\')] = s.split(':')[0]
print('values:', len(src), dict(collections.Counter(src.values())))
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f, encoding='utf-8')]
    unp = {r['value'] for r in rows if r['state'] == 'unparseable'}
    by = collections.Counter(src[v] for v in unp)
    tot = collections.Counter(src.values())
    print(f'\n{f}: {len(rows)} rows; instants per value: {len(rows)//len(src)}')
    print('  parsed:', len(src) - len(unp), 'of', len(src), '; unparseable by source:',
          {k: f'{by[k]}/{tot[k]}' for k in tot})
    print('  state distribution:', dict(collections.Counter(r['state'] for r in rows)))
    print('  next_change null (parsed rows):', sum(1 for r in rows if r['state'] != 'unparseable' and r['next_change'] is None))
    print('  rows with a comment:', sum(1 for r in rows if r.get('comment')))
