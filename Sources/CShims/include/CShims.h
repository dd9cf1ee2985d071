#ifndef PHOTOSCROLL_CSHIMS_H
#define PHOTOSCROLL_CSHIMS_H

#include <sys/types.h>
#include <sys/socket.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; Glibc's Swift overlay does not always export it.
int cshims_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len);

#endif
