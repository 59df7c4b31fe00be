// FFmpeg's libswscale (and libavutil's pixel formats), the system libraries. Only CKiraFormats
// includes them.
#include <libswscale/swscale.h>
#include <libavutil/pixfmt.h>
