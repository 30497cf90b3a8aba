# syntax=docker/dockerfile:1
# Career Bot Platform: build with dev dependencies, run with production ones only.
# CI builds and runs this image with scripts/ops/container-check.sh (as root: its own dockerd,
# a local node:20-bookworm-slim made from Debian's packages, the classic builder, which reads
# the syntax line above as a comment): migrate, start as uid 1000, healthy, docker stop exits 0.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund --ignore-scripts
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces the service imports by name (@careerbot/*): each manifest and its built dist.
COPY --from=build /app/packages/prompt/package.json ./packages/prompt/
COPY --from=build /app/packages/prompt/dist ./packages/prompt/dist
COPY --from=build /app/packages/guardrails/package.json ./packages/guardrails/
COPY --from=build /app/packages/guardrails/dist ./packages/guardrails/dist
COPY --from=build /app/packages/llm/package.json ./packages/llm/
COPY --from=build /app/packages/llm/dist ./packages/llm/dist
COPY --from=build /app/packages/chat-protocol/package.json ./packages/chat-protocol/
COPY --from=build /app/packages/chat-protocol/dist ./packages/chat-protocol/dist
COPY --from=build /app/packages/widget/package.json ./packages/widget/
COPY --from=build /app/packages/widget/dist ./packages/widget/dist
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY sql ./sql
# The image's unprivileged user; the service needs no write access to /app.
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node is PID 1 and handles SIGTERM itself: it stops accepting, drains requests and
# pending lead e-mails, closes the pool, and exits 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
