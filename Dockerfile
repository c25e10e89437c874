# syncpod on a base image of your choice: the same layout as `npm run image` builds offline
# (dist/syncpod-image.tar): Node at /usr/local/bin/node, the bundle under /opt/syncpod,
# /usr/local/bin/syncpod as the entrypoint, nsenter and ip for net-check, /host as the mount point
# for the node's root (deploy/). Build after `npm run build`:
#   docker build -t REGISTRY/syncpod:$(node -p 'require("./package.json").version') .
# The base must have Node 20+ at /usr/local/bin/node (the official node images do).
ARG BASE=node:20-bookworm-slim
FROM ${BASE}
RUN apt-get update && apt-get install -y --no-install-recommends iproute2 util-linux \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /host
COPY dist/*.cjs dist/*.cjs.cache /opt/syncpod/dist/
COPY package.json /opt/syncpod/package.json
RUN printf "#!/usr/local/bin/node --\n'use strict';\nrequire('/opt/syncpod/dist/boot.cjs');\n" > /usr/local/bin/syncpod \
 && chmod 755 /usr/local/bin/syncpod
ENV PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ENTRYPOINT ["syncpod"]
