#ifndef PHOTOSCROLL_CSHIMS_H
#define PHOTOSCROLL_CSHIMS_H

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/random.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; Glibc's Swift overlay does not always export it.
int cshims_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len);

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: `path` is resolved beneath `dirfd`,
/// never through an absolute link, a `..` above it or a /proc magic link. Glibc has no wrapper;
/// -1 with ENOSYS where the headers or the kernel lack the call.
int cshims_openat2_beneath(int dirfd, const char *path, int flags);

/// O_PATH, which Glibc's Swift overlay leaves out (it needs _GNU_SOURCE).
int cshims_o_path(void);

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a range of a file's dirty pages
/// to the disk without waiting for them (a later fdatasync then has little left to wait for).
/// Glibc's Swift overlay leaves it out (it needs _GNU_SOURCE).
int cshims_start_writeback(int fd, long long offset, long long length);

#endif
