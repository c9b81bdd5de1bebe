# syntax=docker/dockerfile:1
# hvx image: scheduler extender + admission webhook, one Node.js 24 process.
#   docker build -t hvx:0.1.0 .
# Without access to a container registry: scripts/build-image.sh (buildah, with a stand-in for
# the base image passed as NODE_IMAGE); README "The container image".
# Three stages: build (compiles TypeScript with dev dependencies), deps (production
# dependencies only), runtime (compiled dist/src + production node_modules, non-root).

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: npm ci + tsc -------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so this layer is reused while only sources change. --ignore-scripts
# skips the "prepare" build here: the sources are not copied yet.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY mocks ./mocks
RUN npm run build

# ---- deps: production dependencies only ----------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: "prepare" would run tsc, which is a dev dependency and not installed.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime ----------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# The package managers are not needed at run time: less to patch, less to abuse.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /opt/yarn-* \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg
ENV NODE_ENV=production
WORKDIR /app
# package.json carries "type": "module", which Node.js needs to load dist/ as ESM.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
# Only the compiled product: no tests, no benchmarks, no mock scenarios, no TypeScript.
COPY --from=build /app/dist/src ./dist/src
# The mock vCenter (demo mode, no vcenter.url) is imported lazily by src/ and is not in the
# image; test/manifests/dockerfile.test.ts checks that no static import leaves dist/src.
# Files stay root-owned and read-only to the process (readOnlyRootFilesystem in the pod).
# Numeric uid:gid so that Kubernetes can verify runAsNonRoot.
USER 65532:65532
EXPOSE 8888 8443 9090
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["serve", "--config", "/etc/hvx/config.yaml"]
