# Build stage: install dependencies and compile the single svc binary.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime stage: only the binary, as a non-root user, with the database on a volume.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data svc \
 && mkdir -p /data && chown svc /data
COPY --from=build /src/dist/svc /usr/local/bin/svc
USER svc
WORKDIR /data
ENV PORT=8080 DATABASE_URL=file:/data/svc.db
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
ENTRYPOINT ["svc"]
CMD ["serve"]
