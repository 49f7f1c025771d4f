/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_int.h - private: the statistics the verdicts are built from
 */
#ifndef BLKQUAL_STATS_INT_H
#define BLKQUAL_STATS_INT_H

double bq_t_cdf(double t, double df);
double bq_t_quantile(double p, double df);

#endif /* BLKQUAL_STATS_INT_H */
