# Two commands: `make run` serves the app on an embedded stack, `make test` runs every test
# (`make test-fast` all but the browser, fuzz and stack tests).
# `make dev` is `make run` for developers: runserver, reloading on changes, DEBUG on.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
REQ_HASH := $(shell cksum requirements.txt | cut -d' ' -f1)
STAMP  := $(VENV)/.installed-$(REQ_HASH)

.PHONY: run dev test test-fast manage shell env backup restore clean-devstack

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed (found %s)" % sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@rm -f $(VENV)/.installed-* && touch $@

run: $(STAMP)  ## serve on http://127.0.0.1:$(PORT) as in production (gunicorn, DEBUG off), with PostgreSQL, Redis and a Celery worker
	PORT=$(PORT) $(PY) -m zenergate_site.devstack run

dev: $(STAMP)  ## the same stack, served by runserver with autoreload and DEBUG on
	PORT=$(PORT) $(PY) -m zenergate_site.devstack dev

test: $(STAMP)  ## the whole suite on a throw-away PostgreSQL and Redis (ARGS="-k foo" to narrow)
	$(PY) -m zenergate_site.devstack test -- $(ARGS)

test-fast: $(STAMP)  ## the same without browser, fuzz and stack tests (markers in pytest.ini), on two workers
	$(PY) -m zenergate_site.devstack test -- -m "not browser and not fuzz and not stack" -n 2 --dist loadfile $(ARGS)

manage: $(STAMP)  ## manage.py against the running `make run` stack: make manage ARGS="createsuperuser"
	$(PY) manage.py $(ARGS)

shell: $(STAMP)
	$(PY) manage.py shell

env:
	@$(PY) -m zenergate_site.devstack env

backup: $(STAMP)  ## pg_dump the database (the running `make run` stack's, or DATABASE_URL's) to backups/ (or FILE=…)
	$(PY) manage.py backup $(if $(FILE),--output "$(FILE)")

restore: $(STAMP)  ## replace the database's contents with a backup, then empty the cache: make restore FILE=backups/….dump
	@test -n "$(FILE)" || { echo 'usage: make restore FILE=backups/zenergate-<time>.dump'; exit 2; }
	$(PY) manage.py restore "$(FILE)"

clean-devstack:  ## forget the embedded database and Redis data (stop `make run` first)
	rm -rf .devstack
