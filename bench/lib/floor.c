// The floor of a benchmark: the least an HTTP/1.1 server can do per keep-alive request on this
// machine. Every request head (everything up to its blank line) is answered with the same bytes,
// a short head and the body read from BODY_FILE, in one sendmsg; nothing is parsed, looked up,
// counted or logged. One thread per core, each with its own listening socket (SO_REUSEPORT) and
// an edge-triggered epoll, as our event loops and nginx's workers have.
//
// What is left is the kernel's TCP path and the load generator sharing the cores, which every
// server pays alike; a server's figure against this one says how much of the machine's limit it
// reaches, and so how far its ratio against another server could still go.
//
// Usage: floor PORT BODY_FILE CONTENT_TYPE [THREADS]    (built by bench/lib/common.sh)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

enum { MAX_FDS = 1 << 16 };

static int port;
static char head[256];
static size_t head_length;
static char *body;
static size_t body_length;

// Per connection (indexed by descriptor; each belongs to one thread): how many bytes of
// "\r\n\r\n" the input last ended with, answers owed, and how far into the current one the
// socket has taken.
static struct connection {
    int matched;
    long owed;
    size_t sent;
} connections[MAX_FDS];

static void fail(const char *what) {
    perror(what);
    exit(1);
}

// Writes what is owed until done or the socket is full. Returns -1 when the connection broke.
static int send_owed(int fd, struct connection *c) {
    while (c->owed > 0) {
        size_t total = head_length + body_length;
        struct iovec parts[2];
        int n = 0;
        if (c->sent < head_length) {
            parts[n++] = (struct iovec){ head + c->sent, head_length - c->sent };
            parts[n++] = (struct iovec){ body, body_length };
        } else {
            parts[n++] = (struct iovec){ body + (c->sent - head_length), total - c->sent };
        }
        struct msghdr message = { .msg_iov = parts, .msg_iovlen = n };
        ssize_t written = sendmsg(fd, &message, MSG_NOSIGNAL);
        if (written < 0) return errno == EAGAIN ? 0 : -1;
        c->sent += (size_t)written;
        if (c->sent == total) {
            c->sent = 0;
            c->owed -= 1;
        }
    }
    return 0;
}

static void drop(int fd) {
    connections[fd] = (struct connection){ 0 };
    close(fd);
}

static void *serve(void *unused) {
    (void)unused;
    int one = 1;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (listener < 0) fail("socket");
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(listener, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0) fail("bind");
    if (listen(listener, 4096) != 0) fail("listen");
    int poll = epoll_create1(0);
    struct epoll_event event = { .events = EPOLLIN, .data.fd = listener };
    epoll_ctl(poll, EPOLL_CTL_ADD, listener, &event);

    struct epoll_event ready[256];
    static __thread char input[16384];
    for (;;) {
        int count = epoll_wait(poll, ready, 256, -1);
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (client >= MAX_FDS) { close(client); continue; }
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct epoll_event e = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.fd = client };
                    epoll_ctl(poll, EPOLL_CTL_ADD, client, &e);
                }
                continue;
            }
            struct connection *c = &connections[fd];
            int broken = 0;
            if (ready[i].events & EPOLLIN) {
                for (;;) {
                    ssize_t got = recv(fd, input, sizeof input, 0);
                    if (got == 0 || (got < 0 && errno != EAGAIN)) { broken = 1; break; }
                    if (got < 0) break;
                    // Each blank line ends one request head; bodies are not expected.
                    static const char end[4] = { '\r', '\n', '\r', '\n' };
                    for (ssize_t k = 0; k < got; k++) {
                        char b = input[k];
                        if (b == end[c->matched]) {
                            if (++c->matched == 4) { c->matched = 0; c->owed += 1; }
                        } else {
                            c->matched = b == '\r' ? 1 : 0;
                        }
                    }
                    if (send_owed(fd, c) < 0) { broken = 1; break; }
                    if ((size_t)got < sizeof input) break;
                }
            }
            if (!broken && (ready[i].events & EPOLLOUT) && send_owed(fd, c) < 0) broken = 1;
            if (broken || (ready[i].events & (EPOLLHUP | EPOLLERR))) drop(fd);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s PORT BODY_FILE CONTENT_TYPE [THREADS]\n", argv[0]);
        return 2;
    }
    port = atoi(argv[1]);
    int file = open(argv[2], O_RDONLY);
    struct stat info;
    if (file < 0 || fstat(file, &info) != 0) fail(argv[2]);
    body_length = (size_t)info.st_size;
    body = malloc(body_length + 1);
    if (read(file, body, body_length) != (ssize_t)body_length) fail("read");
    close(file);
    head_length = (size_t)snprintf(head, sizeof head,
                                   "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %zu\r\n\r\n",
                                   argv[3], body_length);
    long threads = argc > 4 ? atol(argv[4]) : sysconf(_SC_NPROCESSORS_ONLN);
    for (long t = 1; t < threads; t++) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, serve, NULL) != 0) fail("pthread_create");
    }
    serve(NULL);
    return 0;
}
