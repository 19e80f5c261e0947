/* sha256: the FIPS 180-4 test vectors, block boundaries, files. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256.h"

static void hex_of(const void *data, size_t n, char hex[65])
{
    base_sha256 s;
    base_sha256_init(&s);
    base_sha256_update(&s, data, n);
    uint8_t d[32];
    base_sha256_final(&s, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void test_vectors(void **state)
{
    (void)state;
    char h[65];
    hex_of("", 0, h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes */
    hex_of(two, strlen(two), h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_pieces(void **state)
{
    (void)state;
    /* a million 'a's fed in uneven pieces crosses every block boundary */
    static char a[1001];
    memset(a, 'a', sizeof a);
    base_sha256 s;
    base_sha256_init(&s);
    for (int i = 0; i < 1000; i++)
        base_sha256_update(&s, a, i % 2 ? 999 : 1001);
    uint8_t d[32];
    base_sha256_final(&s, d);
    char h[65];
    for (int i = 0; i < 32; i++)
        snprintf(h + 2 * i, 3, "%02x", d[i]);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_file(void **state)
{
    (void)state;
    char path[] = "/tmp/ravel_sha256_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("abc", f);
    fclose(f);
    char h[65];
    assert_true(base_sha256_file(path, h));
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    remove(path);
    assert_false(base_sha256_file(path, h));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
