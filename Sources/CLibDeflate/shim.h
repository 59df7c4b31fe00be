// libdeflate, the system library: DEFLATE/zlib compression of whole buffers, faster than zlib
// at the same ratio (measured for APNG frames: APNG.swift). Used by KiraImage only.
#include <libdeflate.h>
