#!/usr/bin/env python3
"""Compare Vicinity's opening_hours evaluation with the reference parser's, value by value.

Both inputs are JSON lines, one per value and instant, in the shape
Tests/OpeningHoursTests/Reference/reference.py writes (`vicinity-bench opening-hours-table`
writes the same): value, instant, state (open|closed|unknown|unparseable), comment, next_change.

A value differs in one of four ways:
  refused-by-us          the reference parses it, we refuse it;
  refused-by-reference   we parse it, the reference refuses it;
  state                  both parse it; the state differs at one instant or more (the next change
                         usually differs then too);
  next_change            both parse it, every state agrees, the next change differs somewhere.

Every difference must be listed in the known-differences file (value, difference, category,
reason; tab-separated, values escaped as in values.tsv), and every listed difference must still
occur. Prints a table; exits 1 on an unlisted difference or a stale entry, 2 on bad input.

Usage: opening_hours_compare.py REFERENCE.jsonl OURS.jsonl KNOWN.tsv
"""
import json
import sys
from collections import Counter, defaultdict

DIFFERENCES = ("refused-by-us", "refused-by-reference", "state", "next_change")
CATEGORIES = ("unsupported", "deliberate")


def unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def load_results(path):
    rows = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                rows[(row["value"], row["instant"])] = row
            except (ValueError, KeyError) as error:
                sys.exit(f"{path}:{number}: not a result line ({error})")
    return rows


def load_known(path):
    known = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 4 or fields[1] not in DIFFERENCES or fields[2] not in CATEGORIES or not fields[3]:
                sys.exit(
                    f"{path}:{number}: expected VALUE<TAB>DIFFERENCE<TAB>CATEGORY<TAB>REASON with DIFFERENCE one of "
                    f"{', '.join(DIFFERENCES)} and CATEGORY one of {', '.join(CATEGORIES)}")
            key = (unescape(fields[0]), fields[1])
            if key in known:
                sys.exit(f"{path}:{number}: listed twice: {fields[0]!r} {fields[1]}")
            known[key] = (fields[2], fields[3])
    return known


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    reference, ours = load_results(sys.argv[1]), load_results(sys.argv[2])
    known = load_known(sys.argv[3])
    if reference.keys() != ours.keys():
        missing = sorted(reference.keys() - ours.keys())[:3] + sorted(ours.keys() - reference.keys())[:3]
        sys.exit(f"the two tables cover different values or instants, e.g. {missing}")

    values = list(dict.fromkeys(value for value, _ in reference))
    instants = list(dict.fromkeys(instant for _, instant in reference))
    found = {}  # (value, difference) -> an example
    pairs = Counter()
    refusals = Counter()
    for value in values:
        rows = [(reference[(value, instant)], ours[(value, instant)]) for instant in instants]
        theirs_refuse = rows[0][0]["state"] == "unparseable"
        we_refuse = rows[0][1]["state"] == "unparseable"
        if theirs_refuse or we_refuse:
            refusals[(theirs_refuse, we_refuse)] += 1
            if theirs_refuse != we_refuse:
                difference = "refused-by-us" if we_refuse else "refused-by-reference"
                found[(value, difference)] = rows[0][1].get("error") or rows[0][0].get("error")
            continue
        state_example = change_example = None
        for theirs, mine in rows:
            pairs["compared"] += 1
            if theirs["state"] != mine["state"]:
                pairs["state"] += 1
                state_example = state_example or (theirs, mine)
            elif theirs["next_change"] != mine["next_change"]:
                pairs["next_change"] += 1
                change_example = change_example or (theirs, mine)
            else:
                pairs["agree"] += 1
        for difference, example in (("state", state_example), ("next_change", change_example)):
            if example and not (difference == "next_change" and state_example):
                theirs, mine = example
                found[(value, difference)] = (
                    f"at {theirs['instant']}: reference {theirs['state']} until {theirs['next_change']}, "
                    f"ours {mine['state']} until {mine['next_change']}")

    unlisted = sorted(key for key in found if key not in known)
    stale = sorted(key for key in known if key not in found)
    by_category = Counter((difference, known[(value, difference)][0]) for value, difference in found if (value, difference) in known)

    both = len(values) - sum(refusals.values())
    print(f"opening_hours against the reference: {len(values)} values x {len(instants)} instants")
    print(f"  {'values parsed by both':<44}{both:>7}")
    print(f"  {'values refused by both':<44}{refusals[(True, True)]:>7}")
    print(f"  {'values only the reference parses':<44}{refusals[(False, True)]:>7}")
    print(f"  {'values only we parse':<44}{refusals[(True, False)]:>7}")
    print(f"  {'pairs compared (value x instant, both parse)':<44}{pairs['compared']:>7}")
    print(f"  {'pairs agreeing (state and next change)':<44}{pairs['agree']:>7}")
    print(f"  {'pairs differing in state':<44}{pairs['state']:>7}")
    print(f"  {'pairs differing in next change only':<44}{pairs['next_change']:>7}")
    print(f"  {'known differences (values)':<44}{len(found) - len(unlisted):>7}")
    for (difference, category), count in sorted(by_category.items()):
        print(f"    {difference + ', ' + category:<42}{count:>7}")
    for value, difference in unlisted:
        print(f"UNLISTED {difference}: {value!r}: {found[(value, difference)]}")
    for value, difference in stale:
        print(f"STALE known difference no longer occurs: {difference}: {value!r}")
    if unlisted or stale:
        print(f"FAILED: {len(unlisted)} unlisted, {len(stale)} stale; fix the module or "
              f"{sys.argv[3]} (value, difference, category, reason)")
        return 1
    print("OK: every difference is a listed known difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
