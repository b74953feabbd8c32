# Installs movies, its offline catalogue, its manual page and its completion scripts.
#   make install                    # into ~/.local (PREFIX), release build
#   make install PREFIX=/usr/local DESTDIR=/tmp/pkg
#   make uninstall                  # removes exactly what install added
# BIN=path/to/movies installs that binary instead of building one (the tests use the debug
# build this way); CONFIGURATION=debug builds in debug mode.

PREFIX ?= $(HOME)/.local
DESTDIR ?=
CONFIGURATION ?= release
SWIFT ?= swift
BIN ?=

root := $(DESTDIR)$(PREFIX)
# Written by install into the catalogue folder: the files and the folders it created, so that
# uninstall removes those and nothing else, even from a later checkout.
manifest := share/movies/install-manifest

.PHONY: all build install uninstall
all: build

build:
ifeq ($(BIN),)
	$(SWIFT) build -c $(CONFIGURATION) --product movies
endif

install: build
	@set -eu; \
	bin='$(BIN)'; \
	if [ -z "$$bin" ]; then bin="$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/movies"; fi; \
	root='$(root)'; files=; dirs=; \
	add_dir() { \
		if [ ! -d "$$root/$$1" ]; then \
			parent=$$(dirname "$$1"); [ "$$parent" = . ] || add_dir "$$parent"; \
			mkdir -p "$$root/$$1"; dirs="$$dirs $$1"; \
		fi; \
	}; \
	put() { add_dir "$$(dirname "$$2")"; install -m "$$3" "$$1" "$$root/$$2"; files="$$files $$2"; }; \
	if [ -f "$$root/$(manifest)" ]; then dirs=$$(sed -n 's/^dir //p' "$$root/$(manifest)" | tr '\n' ' '); fi; \
	mkdir -p "$$root"; \
	put "$$bin" bin/movies 755; echo "installed $$root/bin/movies"; \
	put Fixtures/catalogue.json share/movies/catalogue.json 644; \
	for poster in Fixtures/posters/*; do put "$$poster" "share/movies/posters/$$(basename "$$poster")" 644; done; \
	echo "installed $$root/share/movies (offline catalogue: catalogue.json, $$(ls Fixtures/posters | wc -l) posters)"; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	"$$bin" manpage > "$$tmp/movies.1"; \
	"$$bin" completions bash > "$$tmp/movies.bash"; \
	"$$bin" completions zsh > "$$tmp/_movies"; \
	"$$bin" completions fish > "$$tmp/movies.fish"; \
	for pair in movies.1:share/man/man1/movies.1 movies.bash:share/bash-completion/completions/movies \
		_movies:share/zsh/site-functions/_movies movies.fish:share/fish/vendor_completions.d/movies.fish; do \
		put "$$tmp/$${pair%%:*}" "$${pair#*:}" 644; echo "installed $$root/$${pair#*:}"; \
	done; \
	{ for f in $$files; do echo "file $$f"; done; for d in $$dirs; do echo "dir $$d"; done; } > "$$root/$(manifest)"; \
	echo "movies is installed in $$root/bin; try: movies --offline (man movies for the manual)"

uninstall:
	@set -eu; root='$(root)'; manifest="$$root/$(manifest)"; \
	if [ ! -f "$$manifest" ]; then echo "nothing to uninstall: $$manifest is missing"; exit 0; fi; \
	count=0; \
	for path in $$(sed -n 's/^file //p' "$$manifest"); do rm -f "$$root/$$path"; count=$$((count + 1)); done; \
	dirs=$$(sed -n 's/^dir //p' "$$manifest"); rm -f "$$manifest"; \
	echo "removed $$count files from $$root"; \
	for dir in $$(printf '%s\n' $$dirs | awk '{ lines[NR] = $$0 } END { for (i = NR; i > 0; i--) print lines[i] }'); do \
		if rmdir "$$root/$$dir" 2>/dev/null; then echo "removed $$root/$$dir/"; fi; \
	done
