# SPDX-License-Identifier: GPL-2.0-only
# bash completion for blkqual(8).
#
# The candidates come from blkqual itself ("blkqual __complete CWORD
# WORD..."), out of the tables its parsers use: commands, each command's
# options, fio's job options and their closed sets of values (--rw=,
# --ioengine=, --verify=, ...).  Anything else completes as a file name.

_blkqual()
{
	local cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]}
	local -a cands

	[[ $bin == \~* ]] && bin=$HOME${bin#\~}
	mapfile -t cands < <("$bin" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null)
	# bash cut "--rw=" at the '=': what is completed is what follows it
	[[ $cur == = ]] && cur=
	if ((${#cands[@]})); then
		COMPREPLY=("${cands[@]}")
		[[ ${cands[0]} == *= ]] && compopt -o nospace 2>/dev/null
	else
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
	return 0
}

complete -F _blkqual blkqual
