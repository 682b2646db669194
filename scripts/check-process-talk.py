#!/usr/bin/env python3
"""Fails when a tracked file speaks of how the product was developed rather than of the product.

Comments, strings and documents should say what the code does and why, in the present tense. This
check flags the usual ways development history leaks into them: numbered work sessions or rounds,
issue and stop numbers, borrowed machines and how long they were held, dated measurement logs, and
paths outside the repository. The product's own words pass: a BackendSession is a "session", values
"round", code "issues a warning", a GPU phase has its own time, and JSON result files carry dates.

Usage: scripts/check-process-talk.py [--list-patterns]   (exit 0: clean, 1: hits, printed as
path:line: matched text)
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()

_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
            r"|\d+(?:st|nd|rd|th))")
_COUNT = r"(?:(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|several|\d+)\s+)?"

# (category, pattern); all are matched case-insensitively, one line at a time.
PATTERNS = [
    # Work sessions or rounds counted in order ("ninth round").
    ("numbered session", rf"\b{_ORDINAL}\s+(?:work\s+)?(?:sessions?|rounds?)\b"),
    ("numbered session",
     r"\b(?:session|round)\s+#?\d+\b(?!\s*(?:[–-]\s*\d|ms|us|µs|s\b|of\s+the\s+palette))"),
    # Work sessions before or after another (a palette's "next round" of colours passes).
    ("earlier work", rf"\b(?:earlier|previous|prior|next|last|later)\s+{_COUNT}(?:work\s+)?sessions?\b"),
    # The work session as "this" one: what it tried, measured or changed (a product session's own
    # descriptors or plan pass).
    ("current work", r"\b(?:in|during|by|tried|l[e]nt|measured|runs|since)\s+this\s+(?:work\s+)?session\b"),
    ("current work", r"\b(?:changes?|work|code|grid)\s+(?:of|in|by)\s+this\s+session\b"),
    ("current work", r"\bthis\s+session's\s+(?:code|changes?|grid|development|numbers|measurements?)\b"),
    ("the sessions", r"\bin\s+the\s+sessions\b"),
    ("issue number", r"\bissue\s+#?\d+(?:\.\d+)*\b"),
    ("issue number", r"\bissues\s+#?\d+(?:\.\d+)*\s*(?:,|and|to|-|–)\s*#?\d"),
    ("issue", r"\bthe\s+issue's\s+(?:list|grid|goals?|columns|shapes|work)\b"),
    ("stop number", r"\bstops?\s+(?:#|no\.\s*)?\d+(?:\.\d+)*\b(?!\s*(?:ms|s|us|µs|%|runs?|steps?|points?))"),
    # A machine handed over for a while ("silent", "equivalent" and buffers handed to a library pass).
    ("borrowed machine", r"\b(?:was|were|been|be|is|machines?|gpus?|hosts?|h[12]00)\s+(?:l[e]nt|borrowed)\b"),
    ("borrowed machine", r"\b(?:l[e]nt|borrowed)\b[^.;]{0,40}\b(?:sessions?|rounds?|machines?|tasks?)\b"),
    ("accelerator hours", r"\b(?:minutes?|seconds?|hours?|no|spent)\s+(?:of\s+)?device[- ]time\b"),
    ("accelerator hours", r"\bdevice[- ]time\s+(?:left|budget|remain\w*|was\s+spent|ran\s+out)\b"),
    # A date alone is a log entry; a timestamp ("2026-11-23 07:50 UTC", "...T07:50Z") or a data
    # file named by its date ("bench/results/<host>/2026-11-28.json") is data.
    ("dated log", r"(?<![/\w-])20\d\d-[01]\d-[0-3]\d\b(?!\s*\d\d?:\d\d|\.json)"),
    ("outside path",
     r"(?<![\w./-])(?:\.\./)+shared\b|/work/shared\b|(?<![\w./-])shared/(?:design|tools|fixtures)/"),
]
COMPILED = [(name, re.compile(p, re.IGNORECASE)) for name, p in PATTERNS]


def skipped(path):
    """Measured data (tests/data/, every *.json but CMakePresets.json), which carries its own dates."""
    if path == SELF or path.startswith("tests/data/"):
        return True
    return path.endswith(".json") and path != "CMakePresets.json"


def text_of(path):
    try:
        data = (ROOT / path).read_bytes()
    except OSError:
        return None  # deleted in the work tree, or not a plain file
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def main(argv):
    if "--list-patterns" in argv[1:]:
        for name, pattern in PATTERNS:
            print(f"{name}: {pattern}")
        return 0
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode("utf-8").split("\0")
    checked, hits = 0, 0
    for path in sorted(f for f in files if f and not skipped(f)):
        text = text_of(path)
        if text is None:
            continue
        checked += 1
        for number, line in enumerate(text.splitlines(), 1):
            spans = []  # one report for text that several patterns match
            for _, regex in COMPILED:
                for m in regex.finditer(line):
                    if all(m.end() <= a or m.start() >= b for a, b in spans):
                        spans.append(m.span())
            for a, b in sorted(spans):
                hits += 1
                print(f"{path}:{number}: {line[a:b]}")
    if hits:
        print(f"check-process-talk: {hits} hit(s) in {checked} files: say what the product does, "
              "not how or when it was developed", file=sys.stderr)
        return 1
    print(f"check-process-talk: OK, {checked} files checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
