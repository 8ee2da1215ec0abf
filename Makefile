# From a fresh clone, `make demo` and `make test` set up everything they need:
# the Debian packages the reports rely on, then a virtualenv in .venv with the
# project installed in editable mode together with its test tools.

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python

# libcairo2 for cairosvg, DejaVu for the fonts the SVG reports name,
# poppler-utils (pdftoppm) for the report tests that look at PDF pages.
# dovecot-imapd (pulls in dovecot-core) for the mail tests: tests/mail/conftest.py
# runs a private Dovecot IMAPS server on 127.0.0.1 from a throw-away config, so
# the packaged system service is never started (see system-packages below).
# dovecot-lmtpd and dovecot-sieve (its extprograms plugin) for tests/mail/test_mail_instant.py:
# a private Dovecot takes mail by LMTP and hands it to `antike-ref mail receive` through a
# Sieve pipe, as a mail server of a GM's would.
# chromium for tests/test_site.py: a real headless browser takes screenshots of the
# website `antike-ref site` writes (desktop and phone width) and proves through a
# recording proxy that its pages ask for nothing but their own files.
# openssh-client (ssh-keygen) for tests/test_trust.py: OpenSSH itself checks the signatures
# and keys antike-ref writes, and makes the ones it must read.
SYSTEM_PACKAGES := libcairo2 fonts-dejavu-core poppler-utils dovecot-imapd dovecot-lmtpd dovecot-sieve chromium openssh-client

.PHONY: venv system-packages test test-all test-fast demo bench clean

venv: $(VENV)/.installed
	@:

# Installs only what is missing; `apt-get update` runs once, and only then.
# Services that packages bring along (dovecot) must not start: the tests run
# their own instances. A policy-rc.d that answers 101 ("action forbidden")
# makes invoke-rc.d / deb-systemd-invoke skip the start in the postinst, which
# also keeps the install working in containers without systemd or init; a
# temporary one is put in place unless the machine already has one. On a host
# booted with systemd the units that the install enabled are disabled again.
system-packages:
	@missing=""; \
	for p in $(SYSTEM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed" \
	    || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "note: apt-get not found; install these yourself:$$missing" >&2; exit 0; \
	fi; \
	sudo=""; \
	if [ "$$(id -u)" -ne 0 ]; then sudo="sudo"; fi; \
	echo "Installing system packages:$$missing"; \
	policy=/usr/sbin/policy-rc.d; own_policy=""; \
	if [ ! -e "$$policy" ]; then \
	  own_policy=1; \
	  printf '#!/bin/sh\n# temporary, from antike-ref make system-packages\nexit 101\n' \
	    | $$sudo tee "$$policy" >/dev/null && $$sudo chmod 755 "$$policy"; \
	fi; \
	$$sudo apt-get update -qq \
	  && $$sudo env DEBIAN_FRONTEND=noninteractive \
	     apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	status=$$?; \
	if [ -n "$$own_policy" ]; then $$sudo rm -f "$$policy"; fi; \
	case " $$missing " in *" dovecot-"*) \
	  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then \
	    $$sudo systemctl disable --now dovecot.service dovecot.socket >/dev/null 2>&1 || true; \
	  fi;; \
	esac; \
	exit $$status

$(VENV)/.installed: pyproject.toml
	@$(MAKE) --no-print-directory system-packages
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	@$(VPY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@echo "Installing antike-ref (editable) and its test tools into $(VENV)"
	@$(VPY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@

# The tests run in parallel (pytest-xdist), one worker per core. `make test` leaves out
# the tests marked slow (whole games, the wheel build, the browser screenshots);
# `make test-all` runs every test, as CI does (.ci/run); `make test-fast`, the inner loop,
# also leaves out tests/mail, which starts real SMTP and IMAP (Dovecot) servers.
PYTEST := $(VPY) -m pytest -q -n auto

test: venv
	$(PYTEST) -m "not slow"

test-all: venv
	$(PYTEST)

test-fast: venv
	$(PYTEST) -m "not slow" --ignore=tests/mail

demo: venv
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" bash demo/run.sh out/demo
	@echo "Demo output is in out/demo/"

# The timed benchmarks; the long soaks (bench/soak_*.py: fuzzing, crashes, property
# self-play) run by hand, each with its own --help.
bench: venv
	@set -e; for f in bench/bench_*.py; do \
	  [ -e "$$f" ] || continue; \
	  echo "== $$f"; $(VPY) "$$f"; \
	done

clean:
	rm -rf $(VENV) out build dist .pytest_cache *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
