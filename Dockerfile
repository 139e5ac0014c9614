# The harness image for load from many machines (bench k8s job): bench run --shard in each pod, bench merge after.
#   docker build -t <registry>/db-shootout:<tag> . && docker push <registry>/db-shootout:<tag>
# Native modules (better-sqlite3, DuckDB) are built or fetched in a stage with a compiler; the image keeps only
# Node, the production dependencies and the harness.
FROM node:24-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-slim
ENV NODE_ENV=production \
    BENCH_CACHE_DIR=/tmp/db-shootout
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY . .
# The uid the manifests run as (runAsUser 1000, fsGroup 1000 for the results volume): node:24-slim's `node` user.
USER node
ENTRYPOINT ["node", "/app/bin/bench.js"]
CMD ["--help"]
