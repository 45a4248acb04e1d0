# The svc image: Debian's slim base, the compiled binary and nothing else. Build the binaries first, on the host:
#
#   npm run release                  # dist/release/svc-linux-x64 and svc-linux-arm64 (among others)
#   docker build -t svc .
#   docker run -d -v svc-data:/data -p 8080:8080 svc
#
# Nothing is installed or downloaded while the image builds (no npm, no apt): it builds offline, and the image
# holds no compiler, package manager cache or source. svc embeds its own root certificates (Bun's), so the base
# needs no ca-certificates package for HTTPS webhooks, Stripe or Postgres over TLS.

# Picks the binary for the architecture being built (amd64 → linux-x64, arm64 → linux-arm64).
FROM debian:bookworm-slim AS binary
LABEL svc.stage=binary
COPY dist/release/svc-linux-* /release/
RUN set -e; \
    arch="$(dpkg --print-architecture)"; \
    case "$arch" in amd64) file=svc-linux-x64 ;; arm64) file=svc-linux-arm64 ;; *) echo "no svc binary for $arch" >&2; exit 1 ;; esac; \
    if [ ! -f "/release/$file" ]; then echo "dist/release/$file is missing: run npm run release first" >&2; exit 1; fi; \
    install -m 0755 "/release/$file" /svc

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin svc \
 && mkdir -p /data && chown svc:svc /data && chmod 0700 /data
COPY --from=binary /svc /usr/local/bin/svc
# Non-root; the database (and the generated secret beside it) live on the /data volume.
USER svc
WORKDIR /data
ENV PORT=8080 HOST=0.0.0.0 DATABASE_URL=file:/data/svc.db
VOLUME ["/data"]
EXPOSE 8080
# bash's /dev/tcp speaks enough HTTP for a health check: no curl in the image.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# svc is PID 1 and handles SIGTERM itself (docker stop): it finishes the requests it has, stops its jobs, closes
# the database and exits 0 within 5 s, well inside docker stop's 10 s.
STOPSIGNAL SIGTERM
ENTRYPOINT ["svc"]
CMD ["serve"]
