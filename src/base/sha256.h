/* sha256: SHA-256 (FIPS 180-4), for the program hashes SV-COMP witnesses
 * carry and for content keys. */
#ifndef RAVEL_BASE_SHA256_H
#define RAVEL_BASE_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct base_sha256 {
    uint32_t h[8];
    uint64_t len;        /* bytes hashed so far */
    uint8_t buf[64];     /* a partial block: len % 64 bytes */
} base_sha256;

void base_sha256_init(base_sha256 *s);
void base_sha256_update(base_sha256 *s, const void *data, size_t n);
void base_sha256_final(base_sha256 *s, uint8_t out[32]);
/* A digest as 64 lowercase hex digits and a NUL. */
void base_sha256_hex(const uint8_t d[32], char hex[65]);
/* The hash of a whole file as 64 lowercase hex digits and a NUL; false when
 * the file cannot be read. */
bool base_sha256_file(const char *path, char hex[65]);

#endif
