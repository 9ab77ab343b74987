# The production image of web-context-service: one image, two roles. docker-compose.yml runs
# it as the API (the default command) and as workers (src/worker/main.ts, with WORKER_QUEUES
# choosing the http and/or browser task queue).
FROM node:20-bookworm-slim

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
COPY package.json package-lock.json .npmrc ./
# tsx and the Temporal bundler are runtime dependencies: the service runs its TypeScript as is.
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

COPY tsconfig.json ./
COPY drizzle ./drizzle
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3002
CMD ["node", "--import", "tsx", "src/api/main.ts"]
