#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# What an HTML report holds, for report_test: parse it as XML (the report
# is written XHTML-compatible, so a parse error is a malformed page) and
# print
#   wellformed
#   svg N                      inline SVG charts
#   title TEXT                 the <title> of each chart, in order
#   external N                 references that would leave the file:
#                              src/href other than "#...", url(...) other
#                              than "#...", @import, <script>, <link>,
#                              and "http:" / "https:" anywhere
#   before-first-svg TEXT      whether TEXT occurs before the first chart
#                              (one line per --before TEXT asked for)
# On a parse error: "malformed LINE:COL message" and exit status 1.
# With --wellformed, only parse each file: "wellformed FILE" or
# "malformed FILE LINE:COL message" per file.
#
# usage: html_check.py FILE.html [--before TEXT]...
#        html_check.py --wellformed FILE.html...

import re
import sys
import xml.etree.ElementTree as ET


def wellformed(paths):
    bad = 0
    for path in paths:
        try:
            ET.parse(path)
            print(f"wellformed {path}")
        except ET.ParseError as e:
            line, col = e.position
            print(f"malformed {path} {line}:{col} {e}")
            bad += 1
    sys.exit(1 if bad else 0)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--wellformed":
        wellformed(sys.argv[2:])
    if len(sys.argv) < 2:
        print("usage: html_check.py FILE.html [--before TEXT]...", file=sys.stderr)
        sys.exit(2)
    path = sys.argv[1]
    befores = [sys.argv[i + 1] for i in range(2, len(sys.argv) - 1) if sys.argv[i] == "--before"]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        line, col = e.position
        print(f"malformed {line}:{col} {e}")
        sys.exit(1)
    print("wellformed")
    svgs = list(root.iter("svg"))
    print(f"svg {len(svgs)}")
    for s in svgs:
        t = s.find("title")
        print(f"title {t.text if t is not None else ''}")

    external = 0
    for el in root.iter():
        if el.tag in ("script", "link", "iframe", "object", "embed", "img"):
            external += 1
        for attr in ("src", "href", "xlink:href"):
            v = el.get(attr)
            if v is not None and not v.startswith("#"):
                external += 1
    external += len(re.findall(r"url\(\s*['\"]?[^#'\"\s)]", text))
    external += len(re.findall(r"@import|https?:", text, re.IGNORECASE))
    print(f"external {external}")

    first_svg = text.find("<svg")
    for b in befores:
        at = text.find(b)
        print(f"before-first-svg {'yes' if 0 <= at < first_svg else 'no'} {b}")


if __name__ == "__main__":
    main()
