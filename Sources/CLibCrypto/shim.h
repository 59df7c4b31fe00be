// OpenSSL's libcrypto, the system library: its one-shot SHA-256, for the content hashes of
// `kira batch`'s up-to-date records (KiraCatalogue/ContentHash.swift), and HMAC-SHA256 with a
// constant-time comparison, for `kira serve`'s signed URLs (KiraServer/URLSignature.swift).
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
