// `vicinity_prefetch` is inline in the header; a C target needs one source file.
#include "prefetch.h"
