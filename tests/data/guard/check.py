#!/usr/bin/env python3
"""Checks guardrail corpus TSV files against FORMAT.md and prints counts.

Usage: python3 check.py FILE.tsv [FILE.tsv ...]
Exits 1 on any format error (each printed with its line number).
"""
import collections
import sys

HEADER = "label\tlang\tdomain\tregister\tkind\ttext\tactor\tdue"
DOMAINS = set("""telecom internet_provider clinic dental insurance real_estate restaurant food_delivery school
university government auto_repair travel_agency airline hotel saas utilities banking ecommerce logistics gym
legal veterinary pharmacy moving car_rental events beauty_salon home_repair recruiting""".split())
REGISTERS = {"formal", "neutral", "chat"}
CLEAR_KINDS = {"in_message", "offer", "automated", "customer_can", "past", "negation", "asks_info", "general"}
PROMISE_KINDS = {"named_person", "role", "department", "team", "someone", "we_company", "assistant_later",
                 "passive", "conditional", "handover"}


def check(path):
    errors = 0
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != HEADER:
        print(f"{path}:1: header must be exactly: {HEADER!r}")
        return 1, []
    seen = {}
    for n, line in enumerate(lines[1:], start=2):
        cols = line.split("\t")
        def bad(msg):
            nonlocal errors
            errors += 1
            print(f"{path}:{n}: {msg}: {line[:120]!r}")
        if len(cols) != 8:
            bad(f"expected 8 columns, got {len(cols)}")
            continue
        label, lang, domain, register, kind, text, actor, due = cols
        if label not in ("promise", "clear"):
            bad(f"bad label {label!r}")
        if lang not in ("en", "pt-BR"):
            bad(f"bad lang {lang!r}")
        if domain not in DOMAINS:
            bad(f"unknown domain {domain!r}")
        if register not in REGISTERS:
            bad(f"bad register {register!r}")
        kinds = PROMISE_KINDS if label == "promise" else CLEAR_KINDS
        if kind not in kinds:
            bad(f"kind {kind!r} is not a {label} kind")
        if not text.strip():
            bad("empty text")
        if label == "clear" and (actor or due):
            bad("clear rows have no actor or due")
        if actor and actor not in text:
            bad(f"actor {actor!r} is not a substring of the text")
        if due and due not in text:
            bad(f"due {due!r} is not a substring of the text")
        key = text.strip().lower()
        if key in seen:
            bad(f"duplicate of line {seen[key]}")
        seen[key] = n
        rows.append(cols)
    return errors, rows


def main():
    total_errors = 0
    all_rows = []
    for path in sys.argv[1:]:
        errors, rows = check(path)
        total_errors += errors
        all_rows += rows
    by = collections.Counter
    print(f"rows: {len(all_rows)}")
    print("labels:", dict(by(r[0] for r in all_rows)))
    print("registers:", dict(by(r[3] for r in all_rows)))
    print("domains:", len(set(r[2] for r in all_rows)), dict(sorted(by(r[2] for r in all_rows).items())))
    print("kinds:", dict(sorted(by((r[0], r[4]) for r in all_rows).items())))
    promises = [r for r in all_rows if r[0] == "promise"]
    if promises:
        print(f"promises with due: {sum(1 for r in promises if r[7])}/{len(promises)}")
    lengths = by("long" if r[5].count(". ") + r[5].count("\\n") >= 3 else "short" for r in all_rows)
    print("lengths (rough):", dict(lengths))
    print(f"errors: {total_errors}")
    sys.exit(1 if total_errors else 0)


if __name__ == "__main__":
    main()
