#!/usr/bin/env python3
"""Evaluate every opening_hours value in values.tsv at every instant in instants.txt with the
reference parser from PyPI: opening-hours-py (Python binding of the Rust crate `opening-hours`,
https://github.com/remi-dupre/opening-hours-rs).

Instants are naive local wall-clock times: no time zone is given to the reference
(timezone=None, no coords), so DST only matters in which wall-clock times exist; the
reference evaluates e.g. 2026-03-29T02:30 as an ordinary time.

Public holidays: the reference cannot take a holiday list, only a country code
(country="IT" loads its built-in Italian public-holiday calendar). --country none gives no
calendar: then `PH` selectors never match. --dump-holidays writes the dates the reference
treats as PH in a year range, so an implementation under test can load the same list.

Output: JSON lines {"value", "instant", "state", "comment", "next_change"} with state
open|closed|unknown, next_change "YYYY-MM-DDTHH:MM" or null (no change before the
horizon: no change within --max-days days, default 1000); unparseable values give one line per value and instant with
"state": "unparseable" and "error".

Usage: python3 reference.py [--values values.tsv] [--instants instants.txt]
                            [--country IT|none] [--out results-IT.jsonl]
       python3 reference.py --dump-holidays IT 2026 2027 > holidays-IT-2026-2027.txt
"""
import argparse, datetime as dt, json, sys
import opening_hours
from opening_hours import OpeningHours, State

STATE = {State.OPEN: 'open', State.CLOSED: 'closed', State.UNKNOWN: 'unknown'}

def unesc(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            out.append({'t': '\t', 'n': '\n', 'r': '\r', '\\': '\\'}.get(s[i + 1], s[i + 1])); i += 2
        else:
            out.append(s[i]); i += 1
    return ''.join(out)

def fmt(t):
    return None if t is None else t.strftime('%Y-%m-%dT%H:%M')

def dump_holidays(country, y0, y1):
    o = OpeningHours('PH', country=country)
    for start, end, st, _ in o.intervals(dt.datetime(y0, 1, 1), dt.datetime(y1 + 1, 1, 1)):
        if st == State.OPEN:
            d = start.date()
            while dt.datetime.combine(d, dt.time()) < end:
                print(d.isoformat()); d += dt.timedelta(days=1)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--values', default='values.tsv')
    ap.add_argument('--instants', default='instants.txt')
    ap.add_argument('--country', default='IT')
    ap.add_argument('--out', default=None)
    ap.add_argument('--max-days', type=int, default=1000,
                    help='max_interval_days given to the reference: a state lasting longer than this '
                         'counts as never changing (next_change null); 0 = no limit (very slow for 24/7-like values)')
    ap.add_argument('--dump-holidays', nargs=3, metavar=('COUNTRY', 'FROM', 'TO'))
    a = ap.parse_args()
    if a.dump_holidays:
        c, y0, y1 = a.dump_holidays
        return dump_holidays(c, int(y0), int(y1))
    country = None if a.country.lower() == 'none' else a.country
    instants = [l.strip() for l in open(a.instants, encoding='utf-8') if l.strip() and not l.startswith('#')]
    times = [dt.datetime.strptime(s, '%Y-%m-%dT%H:%M') for s in instants]
    out = open(a.out or f'results-{country or "none"}.jsonl', 'w', encoding='utf-8')
    for line in open(a.values, encoding='utf-8'):
        if not line.strip():
            continue
        value = unesc(line.rstrip('\n').split('\t')[0])
        try:
            o = OpeningHours(value, country=country, max_interval_days=a.max_days or None)
        except Exception as e:  # ParserError (or anything else the binding raises)
            for s in instants:
                out.write(json.dumps({'value': value, 'instant': s, 'state': 'unparseable',
                                      'error': f'{type(e).__name__}: {e}'}, ensure_ascii=False) + '\n')
            continue
        for s, t in zip(instants, times):
            st, comment = o.state(t)
            rec = {'value': value, 'instant': s, 'state': STATE[st], 'comment': comment,
                   'next_change': fmt(o.next_change(t))}
            out.write(json.dumps(rec, ensure_ascii=False) + '\n')
    out.close()

if __name__ == '__main__':
    main()
