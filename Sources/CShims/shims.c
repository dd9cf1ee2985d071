#define _GNU_SOURCE
#include "CShims.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

int cshims_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len) {
    return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int cshims_openat2_beneath(int dirfd, const char *path, int flags) {
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
    struct open_how how = {.flags = (unsigned long long) flags, .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
    return (int) syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int cshims_o_path(void) {
    return O_PATH;
}

int cshims_start_writeback(int fd, long long offset, long long length) {
    return sync_file_range(fd, (off64_t) offset, (off64_t) length, SYNC_FILE_RANGE_WRITE);
}
