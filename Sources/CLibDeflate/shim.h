// libdeflate, the system library: DEFLATE/zlib compression of whole buffers, faster than zlib
// at the same ratio (measured: PNGCodec.swift). Used by KiraImage only.
#include <libdeflate.h>
