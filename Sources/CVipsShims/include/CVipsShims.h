#ifndef PHOTOSCROLL_CVIPSSHIMS_H
#define PHOTOSCROLL_CVIPSSHIMS_H

#include <vips/vips.h>

/// Non-variadic wrappers over libvips' varargs operations, callable from Swift.
/// Each returns 0 on success and -1 on failure (read vips_error_buffer()).
int cvips_init(const char *argv0);

#endif
