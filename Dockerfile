# sprawlscan web service: the mobile page and the JSON API on port 8000.
#   docker build -t sprawlscan .
#   docker run --rm -p 8000:8000 sprawlscan
# Limits are set with SPRAWLSCAN_* environment variables (docs/deployment.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# OpenCV's headless wheel and onnxruntime need libgomp/libglib at run time; Tesseract reads the Circle the
# Wagons goal cards' names (vision/towns/goals); nothing else is installed.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 libglib2.0-0 tesseract-ocr \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies first, so that editing the code does not invalidate this (slow) layer.
COPY pyproject.toml README.md constraints.txt ./
# (An empty skeleton of the packages lets pip resolve and install the dependencies alone.)
RUN mkdir -p scoring vision api models \
    && touch scoring/__init__.py vision/__init__.py api/__init__.py models/__init__.py \
    && pip install -c constraints.txt . \
    && pip uninstall -y sprawlscan \
    && rm -rf scoring vision api models build *.egg-info

COPY scoring/ scoring/
COPY vision/ vision/
COPY api/ api/
COPY models/ models/
RUN pip install --no-deps . && rm -rf build *.egg-info

RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin sprawlscan \
    && mkdir /data && chown sprawlscan /data
USER sprawlscan
# Scans and saved games: a SQLite file on this volume, unless SPRAWLSCAN_DATABASE_URL names PostgreSQL.
ENV SPRAWLSCAN_DATABASE_PATH=/data/sprawlscan.db
VOLUME /data

# One uvicorn process per container: scale with replicas. Threads for the ONNX model and for concurrent
# scans are set from the container's CPU share.
ENV SPRAWLSCAN_THREADS=2 \
    SPRAWLSCAN_SCAN_WORKERS=2
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"]

CMD ["sprawlscan", "serve", "--host", "0.0.0.0", "--port", "8000"]
