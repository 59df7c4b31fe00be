// libpng, the system library. Only CKiraPNG includes it; Swift code goes through CKiraPNG,
// so that every libpng call (and its setjmp/longjmp error handling) stays in C.
#include <png.h>
