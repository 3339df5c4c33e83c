# Ironhost's image: the wheel built from this checkout, installed with its dependencies pinned by
# constraints.txt into a slim Python, run as a non-root user with the SQLite database on a volume.
# .ci/wheel-check runs the same steps without Docker (build the wheel, install it with the pins, run it
# from an empty folder). Build and run:
#   docker build -t ironhost .
#   docker run -d --env-file .env -v ironhost-data:/data ironhost
# docker-compose.yml runs it with PostgreSQL instead (DATABASE_URL set there).

FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --no-deps -w /dist .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
COPY constraints.txt /tmp/constraints.txt
COPY --from=build /dist/ /tmp/dist/
# The postgres extra too, so one image serves both DATABASE_URL kinds.
RUN wheel="$(ls /tmp/dist/ironhost-*.whl)" \
    && pip install --no-cache-dir -c /tmp/constraints.txt "${wheel}[postgres]" \
    && pip check \
    && rm -rf /tmp/dist /tmp/constraints.txt \
    && useradd --system --uid 10001 --user-group --create-home --home-dir /home/ironhost ironhost \
    && mkdir /data \
    && chown ironhost:ironhost /data

# The SQLite file (and its -wal/-shm companions) lives on the volume, so games outlive the container;
# scheduled backups go beside it (BACKUP_DIR), the newest 7 kept.
ENV DATABASE_URL=sqlite:////data/ironhost.db \
    BACKUP_DIR=/data/backups \
    HEALTH_PORT=8080
VOLUME ["/data"]
WORKDIR /data
USER ironhost
EXPOSE 8080
# /healthz answers 503 with the reason when the gateway is down, the database does not answer or the
# outbox is stuck (bot/interface/health.py). `docker stop` sends SIGTERM: the bot drains and exits 0
# within STOP_TIMEOUT (10 s), inside docker's default grace period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
STOPSIGNAL SIGTERM
CMD ["ironhost"]
