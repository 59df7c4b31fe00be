// OpenSSL's libcrypto, the system library: only its one-shot SHA-256, for the content hashes of
// `kira batch`'s up-to-date records (KiraCatalogue/ContentHash.swift).
#include <openssl/sha.h>
