/* What the shim files share among themselves. */
#ifndef PHOTOSCROLL_INTERNAL_H
#define PHOTOSCROLL_INTERNAL_H

#include "CVipsShims.h"

/* Sets the libvips error and says whether the computation must end (shims.c). */
int render_stopped(CVipsStop *stop);

#endif
