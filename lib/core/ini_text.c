// SPDX-License-Identifier: GPL-2.0-only
/*
 * ini_text.c - line handling shared by the INI-style parsers
 *
 * fio job files and qualify profiles are read line by line with the same
 * rules for white space and comments, so a profile written by someone who
 * knows fio's job files behaves the way they expect.
 */
#include <ctype.h>
#include <string.h>

#include "internal.h"

/**
 * bq_ini_trim() - drop leading and trailing white space
 * @s: line, changed in place
 *
 * Return: @s advanced past its leading white space.
 */
char *bq_ini_trim(char *s)
{
	size_t len;

	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

/**
 * bq_ini_strip_comment() - cut a line at its comment
 * @s: line, changed in place
 *
 * A comment is fio's: ';' or '#' starting the line or following white
 * space, so "rate=1m#x" keeps its '#' but "rate=1m #x" does not.
 */
void bq_ini_strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if ((*p == ';' || *p == '#') && (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
	}
}
