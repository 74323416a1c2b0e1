# The web, worker and beat image: one build, three commands (see docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# WeasyPrint renders the printable sheet with Pango.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 zener
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# The interface's translations, compiled from locale/*/LC_MESSAGES/*.po (pure Python, no gettext).
RUN python -m zenergate_site.catalogues --force
# Hashed, compressed static files, which WhiteNoise serves (DEBUG is off here).
RUN DATABASE_URL=postgres://build@localhost/build REDIS_URL=redis://localhost:6379/0 \
    SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput
USER zener
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["gunicorn", "--config", "zenergate_site/gunicorn.conf.py", "zenergate_site.wsgi"]
