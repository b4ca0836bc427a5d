# qwixx-bot on SQLite, the database on the volume /data (README: "With Docker"):
#   docker build -t qwixx-bot .
#   docker run -d --name qwixx-bot --restart unless-stopped --env-file .env -v qwixx-data:/data qwixx-bot
# Beside PostgreSQL: compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    QWIXX_DATABASE=/data/qwixx.db

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
ENTRYPOINT ["qwixx-bot"]
