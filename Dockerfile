# The production image of web-context-service: one image, two roles. docker-compose.yml runs
# it as the API (the default command) and as workers (dist/src/worker/main.js, with
# WORKER_QUEUES choosing the http and/or browser task queue). Node 24 LTS, the version
# package.json's engines names and `npm run cluster` runs on.

# Build: the TypeScript compiled to dist/ and the workflow bundles built ahead of time
# (`npm run build`, src/dev/build.ts), then the dev dependencies dropped.
FROM node:24-bookworm-slim AS build
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY drizzle ./drizzle
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN node --import tsx src/dev/build.ts && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim

# Debian's Chromium for the browser worker, with fonts so rendered pages (and screenshots)
# show Latin, CJK and emoji text rather than boxes.
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-cjk fonts-noto-color-emoji ca-certificates \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3002 \
    DATA_DIR=/app/data \
    CHROMIUM_PATH=/usr/bin/chromium \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
# Compiled JavaScript, the migrations and the prebuilt workflow bundles; no TypeScript at run time.
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3002
CMD ["node", "dist/src/api/main.js"]
