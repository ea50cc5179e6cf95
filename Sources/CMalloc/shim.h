// glibc's allocator settings (mallopt); other C libraries have no <malloc.h> to tune.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
