#ifndef PHOTOSCROLL_CSHIMS_H
#define PHOTOSCROLL_CSHIMS_H

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; Glibc's Swift overlay does not always export it.
int cshims_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len);

#endif
