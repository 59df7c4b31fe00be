// Intel's ISA-L, the system library: its igzip deflater compresses APNG frames several times
// faster than libdeflate's fastest level (measurements: PNGImageData.swift). Only CKiraPNG
// includes it; Swift code calls kira_igzip.h, because Swift cannot import igzip's 82 KB stream
// structure (fixed-size arrays of thousands of elements).
#include <isa-l/igzip_lib.h>
