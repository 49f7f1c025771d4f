// SPDX-License-Identifier: GPL-2.0-only
/*
 * digest.c - the cryptographic digests of verify= (md5, sha1, sha2,
 * sha3) from the system's libcrypto
 *
 * Each algorithm is fetched once (an implicit fetch per call would look
 * the provider up again for every block) and kept for the life of the
 * process.  A libcrypto whose providers lack an algorithm (md5 under a
 * FIPS-only configuration) makes that method unavailable, not the rest.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <openssl/evp.h>

#include "config-host.h"
#include "verify_int.h"

#ifndef HAVE_EVP_MD_FETCH
/* OpenSSL 1.1: the names are the old ones, and a lookup is all there is. */
#define EVP_MD_fetch(ctx, name, props) ((EVP_MD *)EVP_get_digestbyname(name))
#define EVP_MD_get_size EVP_MD_size
#endif

static const char *const md_names[BQ_VERIFY_NR] = {
	[BQ_VERIFY_MD5] = "MD5",
	[BQ_VERIFY_SHA1] = "SHA1",
	[BQ_VERIFY_SHA224] = "SHA224",
	[BQ_VERIFY_SHA256] = "SHA256",
	[BQ_VERIFY_SHA384] = "SHA384",
	[BQ_VERIFY_SHA512] = "SHA512",
	[BQ_VERIFY_SHA3_224] = "SHA3-224",
	[BQ_VERIFY_SHA3_256] = "SHA3-256",
	[BQ_VERIFY_SHA3_384] = "SHA3-384",
	[BQ_VERIFY_SHA3_512] = "SHA3-512",
};

static EVP_MD *mds[BQ_VERIFY_NR];
static pthread_once_t mds_once = PTHREAD_ONCE_INIT;

static void mds_fetch(void)
{
	for (int m = 0; m < BQ_VERIFY_NR; m++)
		if (md_names[m])
			mds[m] = EVP_MD_fetch(NULL, md_names[m], NULL);
}

static const EVP_MD *md_of(enum bq_verify_method m)
{
	if ((unsigned int)m >= BQ_VERIFY_NR || !md_names[m])
		return NULL;
	pthread_once(&mds_once, mds_fetch);
	return mds[m];
}

uint32_t bq_digest_len(enum bq_verify_method m)
{
	const EVP_MD *md = md_of(m);

	return md ? (uint32_t)EVP_MD_get_size(md) : 0;
}

bool bq_digest_method(enum bq_verify_method m)
{
	return (unsigned int)m < BQ_VERIFY_NR && md_names[m];
}

int bq_digest(enum bq_verify_method m, const void *a, size_t alen, const void *b, size_t blen,
	      uint8_t *out)
{
	const EVP_MD *md = md_of(m);
	unsigned int n = 0;
	EVP_MD_CTX *ctx;
	int ret = -EIO;

	if (!md)
		return -EOPNOTSUPP;
	ctx = EVP_MD_CTX_new();
	if (!ctx)
		return -ENOMEM;
	if (EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
	    EVP_DigestUpdate(ctx, a, alen) == 1 &&
	    (!blen || EVP_DigestUpdate(ctx, b, blen) == 1) &&
	    EVP_DigestFinal_ex(ctx, out, &n) == 1)
		ret = 0;
	EVP_MD_CTX_free(ctx);
	return ret;
}
