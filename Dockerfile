# PhotoScroll in a container: built with the official Swift image, run on Debian bookworm-slim.
#
#   docker build -t photoscroll .
#   docker run -p 8080:8080 -v photos:/photos -v data:/data photoscroll
#
# The binary carries no debug information (-gnone: 77 MB instead of 88, a crash's backtrace still
# names its functions) and links the Swift runtime and Foundation statically (--static-swift-stdlib), so the
# runtime stage needs only the C libraries: libvips (which pulls in its image codecs), SQLite,
# libpq (the PostgreSQL client), zlib, xxHash, libsodium (passwords, token digests), nettle (upload
# checksums) and libargon2 (to read token digests an older version stored). Tests/Container checks this file against the binary's shared libraries and
# boots its runtime stage in a bookworm root (make test-container).

ARG SWIFT_VERSION=6.3.1

FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends libvips-dev libsqlite3-dev libpq-dev zlib1g-dev libxxhash-dev libsodium-dev nettle-dev libargon2-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib -Xswiftc -gnone --product photoscroll \
    && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/photoscroll" /out/photoscroll

FROM debian:bookworm-slim AS runtime
# Runtime libraries only; the uid is fixed so volume ownership is predictable on the host.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends libvips42 libsqlite3-0 libpq5 zlib1g libxxhash0 libsodium23 libnettle8 libargon2-1 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 photoscroll \
    && useradd --uid 10001 --gid photoscroll --home-dir /app --no-create-home --shell /usr/sbin/nologin photoscroll \
    && mkdir -p /photos /data /app \
    && chown photoscroll:photoscroll /photos /data
# The binary reads config.json from the current folder and serves Public/ relative to it.
WORKDIR /app
COPY --from=build /out/photoscroll /usr/local/bin/photoscroll
COPY config.json ./config.json
COPY Public ./Public
# Every setting is an environment variable (PHOTOSCROLL_<KEY>, and PORT); these are the
# container's defaults. The grace period ends before docker's 10 s stop timeout sends SIGKILL.
ENV PHOTOSCROLL_HOST=0.0.0.0 \
    PHOTOSCROLL_PHOTOS=/photos \
    PHOTOSCROLL_DATA=/data \
    PHOTOSCROLL_LOG_FORMAT=json \
    PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS=8
VOLUME ["/photos", "/data"]
USER photoscroll:photoscroll
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["photoscroll", "health", "--timeout", "4"]
ENTRYPOINT ["photoscroll"]
CMD ["serve"]
