// libjpeg-turbo, the system library. Only CKiraFormats includes it: libjpeg reports errors with
// longjmp, which must stay in C.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
