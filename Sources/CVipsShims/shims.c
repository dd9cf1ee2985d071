#include "CVipsShims.h"

int cvips_init(const char *argv0) {
    return VIPS_INIT(argv0);
}
