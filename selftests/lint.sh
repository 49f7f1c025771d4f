#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Lint checks as TAP tests: license lines, shell scripts, whitespace, and
# the library's two rules kept true by machine: it neither prints, exits
# nor builds JSON (checked on the built objects with nm, so a macro or an
# inline function cannot hide a call), and it includes no header of the
# command's.  Compiler warnings are the build's job (CI=true: -Werror).

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
echo "1..6"

missing=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	case "$f" in
	*.c | *.h | *.sh | *.bash | *.rst | Makefile | Kbuild | .ci/run | *.8 | scripts/* | \
		selftests/vm/*) ;;
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
	*.sh | *.bash | .ci/run | selftests/vm/init) scripts+=("$f") ;;
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

# What the library's objects call: none of these may be among them.  fprintf
# to a FILE the library opened is fine; stdout and stderr are not.
lib_a=${BLKQUAL_OBJTREE:-.}/lib/libblkqual.a
if [ ! -f "$lib_a" ] || ! command -v nm >/dev/null 2>&1; then
	skip "library: $lib_a not built, or no nm"
else
	bad=$(nm -A -u "$lib_a" 2>/dev/null | awk '{ print $1, $NF }' |
		grep -E ' (printf|vprintf|puts|putchar|perror|exit|_exit|abort|stdout|stderr|json_[a-z0-9_]+)$' |
		sed 's/^[^:]*://')
	if [ -z "$bad" ]; then
		ok "library: no printing to stdout or stderr, no exit, no json-c (nm)"
	else
		printf '# %s\n' "$bad"
		not_ok "library: no printing to stdout or stderr, no exit, no json-c (nm)"
	fi
fi

# The library is below the command: it never includes one of tools/'s headers.
mapfile -t tool_headers < <(find tools -name '*.h' -printf '%f\n' | sort -u)
bad=()
for h in "${tool_headers[@]}"; do
	while IFS= read -r hit; do
		bad+=("$hit")
	done < <(grep -rn --include='*.[ch]' "#include \"\(.*/\)\?$h\"" lib raid 2>/dev/null)
done
if [ "${#bad[@]}" -eq 0 ]; then
	ok "library: includes no header of tools/"
else
	printf '# %s\n' "${bad[@]}"
	not_ok "library: includes no header of tools/"
fi

# Each public header stands alone: a user includes only what they need.
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
	skip "headers: no C compiler"
else
	bad=()
	for h in lib/include/*.h; do
		printf '#include "%s"\n' "${h##*/}" |
			"${CC:-cc}" -std=gnu11 -D_GNU_SOURCE -Wall -Werror -Ilib/include \
				-fsyntax-only -x c - 2>/dev/null || bad+=("$h")
	done
	if [ "${#bad[@]}" -eq 0 ]; then
		ok "headers: each public header compiles on its own"
	else
		printf '# does not compile alone: %s\n' "${bad[@]}"
		not_ok "headers: each public header compiles on its own"
	fi
fi

exit "$failed"
