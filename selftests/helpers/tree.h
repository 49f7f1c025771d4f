/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tree.h - test helper: small sysfs/procfs trees written into a temp dir
 */
#ifndef SELFTESTS_TREE_H
#define SELFTESTS_TREE_H

int tree_put(const char *root, const char *rel, const char *content);
int tree_remove(const char *root);

#endif /* SELFTESTS_TREE_H */
