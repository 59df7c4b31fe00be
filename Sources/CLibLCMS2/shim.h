// LittleCMS 2, the system library. Only CKiraFormats includes it.
#include <lcms2.h>
