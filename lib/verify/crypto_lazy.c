// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypto_lazy.c - the libcrypto functions verify's digests call, loaded
 * on first use (core/lazylib.h); the prototypes are OpenSSL 3's own.
 * With OpenSSL 1.1 (no EVP_MD_fetch) blkqual links libcrypto instead.
 */
#include "config-host.h"

#ifdef HAVE_EVP_MD_FETCH
#include <openssl/evp.h>

#include "core/lazylib.h"

static struct bq_lazylib crypto_lib = BQ_LAZYLIB_INIT(BQ_LIBCRYPTO_SONAME);

BQ_LAZY_FN(crypto_lib, EVP_MD *, NULL, EVP_MD_fetch,
	   (OSSL_LIB_CTX *ctx, const char *algorithm, const char *properties),
	   (ctx, algorithm, properties))
BQ_LAZY_FN(crypto_lib, int, -1, EVP_MD_get_size, (const EVP_MD *md), (md))
BQ_LAZY_FN(crypto_lib, EVP_MD_CTX *, NULL, EVP_MD_CTX_new, (void), ())
BQ_LAZY_VOID_FN(crypto_lib, EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))
BQ_LAZY_FN(crypto_lib, int, 0, EVP_DigestInit_ex,
	   (EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl), (ctx, type, impl))
BQ_LAZY_FN(crypto_lib, int, 0, EVP_DigestUpdate, (EVP_MD_CTX *ctx, const void *d, size_t cnt),
	   (ctx, d, cnt))
BQ_LAZY_FN(crypto_lib, int, 0, EVP_DigestFinal_ex,
	   (EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s), (ctx, md, s))
#endif
