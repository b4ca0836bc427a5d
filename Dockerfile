# qwixx-bot on SQLite, the database on the volume /data (README: "With Docker"):
#   docker build -t qwixx-bot .
#   docker run -d --name qwixx-bot --restart unless-stopped --env-file .env -v qwixx-data:/data qwixx-bot
# Beside PostgreSQL: compose.yaml.
# The base image by exact version and digest (docker-library's repo-info records both):
# every build starts from the same Python and Debian. To update, take the tag and digest
# of a newer python:3.11.X-slim-bookworm.
FROM python:3.11.16-slim-bookworm@sha256:c425d915a89a6dcd3183b1797ad9bd8878caff5a417f6371c8df93c8ea8b727f

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    QWIXX_DATABASE=/data/qwixx.db \
    QWIXX_HEARTBEAT=/tmp/qwixx-bot.alive

# Fonts ship in assets/fonts (DejaVu, Droid Sans Fallback for CJK, Noto Color Emoji);
# Pillow's text layout needs FriBiDi to shape emoji flags, families and skin tones.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The dependencies at the versions the tests ran with (requirements.lock), in a layer
# of their own; then the bot itself, without resolving its ranges again.
COPY requirements.lock /tmp/qwixx-bot/
RUN pip install -r /tmp/qwixx-bot/requirements.lock
COPY pyproject.toml README.md /tmp/qwixx-bot/
COPY bot /tmp/qwixx-bot/bot
COPY assets /tmp/qwixx-bot/assets
# A normal install: the package carries assets/ (as bot/assets) and its languages,
# so the source is not needed once it is installed.
RUN pip install --no-deps /tmp/qwixx-bot \
    && pip check \
    && rm -rf /tmp/qwixx-bot \
    && useradd --create-home --uid 10001 qwixx \
    && mkdir /data \
    && chown qwixx:qwixx /data

USER qwixx
VOLUME ["/data"]
# Healthy while the bot's timers pass (every 15 s, touching QWIXX_HEARTBEAT): unhealthy
# if it never got set up (a start that hangs) or its loop is stuck. Docker shows it in
# `docker ps`; it restarts nothing by itself.
HEALTHCHECK --interval=60s --timeout=20s --start-period=120s --retries=3 CMD ["qwixx-bot", "health"]
ENTRYPOINT ["qwixx-bot"]
