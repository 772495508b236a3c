# Kantera in a container: node build, a non-root user, the data dir as a volume, a health check.
# Untested here: the machines this was written on have no Docker engine (see README, "Deploy").
#   docker build -t kantera .
#   docker run -p 3000:3000 -v kantera-data:/data kantera   (add -e ORIGIN=https://… behind a proxy)
#   docker exec <container> npx kantera doctor

# 1. Dependencies (dev ones included: the build needs vite and SvelteKit).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts

# 2. Build, then drop the dev dependencies.
FROM deps AS build
COPY . .
RUN npx svelte-kit sync && npm run build && npm prune --omit=dev --no-audit --no-fund

# 3. Runtime: the built server, production dependencies, and the server sources the `kantera` CLI runs.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    KANTERA_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/build ./build
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/src ./src
# The app runs as the image's unprivileged `node` user; only the data dir is writable by it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start`'s launcher, not `node build`: it sets the body limit and serves http://localhost without ORIGIN
# (bin/start.js), exactly as the README starts the app.
CMD ["node", "bin/start.js"]
