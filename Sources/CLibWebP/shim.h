// libwebp and its muxer, the system libraries. Only CKiraFormats includes them.
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
