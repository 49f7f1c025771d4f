#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Lint checks as TAP tests: license lines, shell scripts, whitespace.
# Compiler warnings are the build's job (CI=true builds with -Werror).

set -u
cd "${BLKQUAL_SRCTREE:-$(dirname "$0")/..}" || exit 1

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

# Files the project owns: tracked ones plus new ones git does not ignore.
mapfile -t files < <(git -c safe.directory='*' ls-files --cached --others --exclude-standard 2>/dev/null |
	grep -v '^selftests/fixtures/' | grep -v '^COPYING$')
[ "${#files[@]}" -gt 0 ] || mapfile -t files < <(find . -type f -not -path './.git/*' \
	-not -path './selftests/fixtures/*' -not -name COPYING -printf '%P\n')

echo "TAP version 13"
echo "1..3"

missing=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	case "$f" in
	*.c | *.h | *.sh | *.rst | Makefile | Kbuild | .ci/run | *.8 | scripts/* | selftests/vm/*) ;;
	*) continue ;;
	esac
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' || missing+=("$f")
done
if [ "${#missing[@]}" -eq 0 ]; then
	ok "spdx: every source file starts with its license line"
else
	printf '# no SPDX line: %s\n' "${missing[@]}"
	not_ok "spdx: every source file starts with its license line"
fi

scripts=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	case "$f" in
	*.sh | .ci/run | selftests/vm/init) scripts+=("$f") ;;
	esac
done
if ! command -v shellcheck >/dev/null 2>&1; then
	skip "shellcheck: not installed"
elif shellcheck -x "${scripts[@]}" >/tmp/blkqual-shellcheck.$$ 2>&1; then
	ok "shellcheck: ${#scripts[@]} scripts clean"
else
	sed 's/^/# /' /tmp/blkqual-shellcheck.$$
	not_ok "shellcheck: ${#scripts[@]} scripts clean"
fi
rm -f /tmp/blkqual-shellcheck.$$

trailing=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	case "$f" in
	*.c | *.h | *.sh | *.rst | *.md | Makefile | Kbuild) ;;
	*) continue ;;
	esac
	grep -qn '[[:blank:]]$' "$f" && trailing+=("$f")
done
if [ "${#trailing[@]}" -eq 0 ]; then
	ok "whitespace: no trailing blanks"
else
	printf '# trailing blanks: %s\n' "${trailing[@]}"
	not_ok "whitespace: no trailing blanks"
fi

exit "$failed"
