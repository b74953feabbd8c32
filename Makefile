# Installs movies, its offline catalogue, its manual page and its completion scripts.
#   make install                    # into ~/.local (PREFIX), release build
#   make install PREFIX=/usr/local DESTDIR=/tmp/pkg
#   make uninstall                  # removes exactly what install added
#   make readme                     # rewrites README's table of options from the options table
#   make bench                      # the benchmark, on the movies that install builds
#   make docs                       # OMDbKit's documentation (.build/docs/OMDbKit.doccarchive), with the toolchain's docc
# BIN=path/to/movies installs that binary instead of building one (the tests use the debug
# build this way); CONFIGURATION=debug builds in debug mode.
#
# On Linux the built movies has the Swift runtime and Foundation linked in (--static-swift-stdlib,
# in .build/static): it keeps working when the toolchain moves or goes, starts in about 12 ms
# instead of 16, and peaks 7 MB lower (docs/performance.md). libcurl is not linked: movies loads
# the system's at run time, so no development files are needed. STATIC=no to skip the static link.
# The linker's warning about mktemp comes from Foundation's own archive and is left out.
# --disable-local-rpath: no $ORIGIN in the binary's library search path, so a library put beside
# the installed movies is never loaded in place of the system's (libcurl's constructor would run).

PREFIX ?= $(HOME)/.local
DESTDIR ?=
CONFIGURATION ?= release
SWIFT ?= swift
BIN ?=
STATIC ?= $(if $(filter Linux,$(shell uname -s)),yes,no)

root := $(DESTDIR)$(PREFIX)
# The offline catalogue: a resource of the OMDbCatalogue library, installed as share/movies.
catalogue := Sources/OMDbCatalogue/Catalogue
# Written by install into the catalogue folder: the files and the folders it created, so that
# uninstall removes those and nothing else, even from a later checkout.
manifest := share/movies/install-manifest
# Written by build: the path of the movies it built (static or not), for install and bench.
built := .build/make-built-movies
# The movies that install and bench use, in shell: BIN when given, else the one build made.
movies_bin = "$(if $(BIN),$(BIN),$$(cat $(built)))"

.PHONY: all build install uninstall readme bench docs
all: build

build:
ifeq ($(BIN),)
	@set -eu; mkdir -p .build; \
	if [ '$(STATIC)' = yes ]; then \
		log=$$(mktemp); trap 'rm -f "$$log"' EXIT INT TERM; \
		if $(SWIFT) build -c $(CONFIGURATION) --product movies --static-swift-stdlib --disable-local-rpath --scratch-path .build/static > "$$log" 2>&1; then \
			grep -v -e "the use of .mktemp. is dangerous" -e "_ThreadLocal.swift.o:function" "$$log" || true; \
			echo "$$($(SWIFT) build -c $(CONFIGURATION) --static-swift-stdlib --scratch-path .build/static --show-bin-path)/movies" > $(built); exit 0; \
		fi; \
		cat "$$log" >&2; exit 1; \
	fi; \
	$(SWIFT) build -c $(CONFIGURATION) --product movies --disable-local-rpath; \
	echo "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/movies" > $(built)
endif

bench: build
	@set -eu; bin=$(movies_bin); $(SWIFT) run -c release --package-path Benchmarks movies-bench --movies "$$bin" $(ARGS)

install: build
	@set -eu; \
	bin=$(movies_bin); \
	root='$(root)'; list=$$(mktemp); trap 'rm -f "$$list"' EXIT; \
	if [ -f "$$root/$(manifest)" ]; then grep -v '^file ' "$$root/$(manifest)" > "$$list" || true; fi; \
	up=$$root; while [ ! -e "$$up" ]; do echo "root $$up"; up=$$(dirname "$$up"); done \
		| awk '{ lines[NR] = $$0 } END { for (i = NR; i > 0; i--) print lines[i] }' >> "$$list"; \
	mkdir -p "$$root"; \
	add_dir() { \
		[ -d "$$root/$$1" ] && return 0; \
		case $$1 in */*) add_dir "$${1%/*}";; esac; \
		mkdir "$$root/$$1"; echo "dir $$1" >> "$$list"; \
	}; \
	put() { add_dir "$${2%/*}"; install -m "$$3" "$$1" "$$root/$$2"; echo "file $$2" >> "$$list"; }; \
	put "$$bin" bin/movies 755; \
	echo "installed $$root/bin/movies"; \
	put $(catalogue)/catalogue.json share/movies/catalogue.json 644; \
	put $(catalogue)/episodes.json share/movies/episodes.json 644; \
	count=0; for poster in $(catalogue)/posters/*; do put "$$poster" "share/movies/posters/$${poster##*/}" 644; count=$$((count + 1)); done; \
	echo "installed $$root/share/movies (the offline catalogue: catalogue.json, episodes.json and $$count posters)"; \
	page=$$(mktemp); "$$bin" manpage > "$$page"; put "$$page" share/man/man1/movies.1 644; rm -f "$$page"; \
	echo "installed $$root/share/man/man1/movies.1"; \
	for pair in bash:share/bash-completion/completions/movies zsh:share/zsh/site-functions/_movies \
		fish:share/fish/vendor_completions.d/movies.fish; do \
		script=$$(mktemp); "$$bin" completions "$${pair%%:*}" > "$$script"; put "$$script" "$${pair#*:}" 644; rm -f "$$script"; \
		echo "installed $$root/$${pair#*:}"; \
	done; \
	install -m 644 "$$list" "$$root/$(manifest)"; \
	echo "movies $$("$$bin" --version | cut -d' ' -f2) is installed: $$root/bin/movies (man movies; movies --offline to try it)"

uninstall:
	@set -eu; root='$(root)'; manifest="$$root/$(manifest)"; \
	if [ ! -f "$$manifest" ]; then echo "nothing to uninstall: $$manifest is missing"; exit 0; fi; \
	list=$$(mktemp); trap 'rm -f "$$list"' EXIT; cp "$$manifest" "$$list"; \
	files=0; dirs=0; \
	while IFS= read -r line; do \
		case $$line in "file "*) rm -f "$$root/$${line#file }"; files=$$((files + 1));; esac; \
	done < "$$list"; \
	rm -f "$$manifest"; \
	awk '{ lines[NR] = $$0 } END { for (i = NR; i > 0; i--) print lines[i] }' "$$list" > "$$list.reversed"; \
	while IFS= read -r line; do \
		case $$line in \
			"dir "*) rmdir "$$root/$${line#dir }" 2>/dev/null && dirs=$$((dirs + 1)) || true;; \
			"root "*) rmdir "$${line#root }" 2>/dev/null && dirs=$$((dirs + 1)) || true;; \
		esac; \
	done < "$$list.reversed"; \
	rm -f "$$list.reversed"; \
	echo "removed $$files files and $$dirs folders that make install had created under $$root"

readme:
	@TABLE="$$($(SWIFT) run -c debug movies --help-markdown)" awk ' \
		/^<!-- options: / { print; print ENVIRON["TABLE"]; skip = 1; next } \
		/^<!-- end of options -->/ { skip = 0 } \
		!skip { print }' README.md > README.md.new && mv README.md.new README.md
	@echo "README.md: table of options rewritten"

# The library's documentation, with the toolchain's own docc and no package plugin (the package
# takes no dependencies): OMDbKit's symbol graphs extracted from its built module (the
# .swiftmodule and .swiftdoc a debug build leaves in its Modules folder) with the toolchain's
# swift-symbolgraph-extract, then docc convert with the overview in OMDbKit.docc. A warning (a link to
# a symbol that is not public, an undocumented parameter) fails it.
# MODULES=DIR takes the module from a build already made (CI's: its bin path's Modules), with no
# build at all; without it, `swift build --target OMDbKit` makes one (nothing to do after a plain
# swift build). Extracting takes about a second; emitting the graphs while compiling (-emit-symbol-graph)
# cost every module of CI's build, and a build of its own compiled the library a second time.
docs_dir := .build/docs
MODULES ?=
docs:
	@set -eu; rm -rf '$(docs_dir)/symbol-graphs'; mkdir -p '$(docs_dir)/symbol-graphs'; \
	modules='$(MODULES)'; \
	if [ -z "$$modules" ]; then $(SWIFT) build --target OMDbKit; modules="$$($(SWIFT) build --show-bin-path)/Modules"; fi; \
	[ -f "$$modules/OMDbKit.swiftmodule" ] || [ -d "$$modules/OMDbKit.swiftmodule" ] || { echo "no OMDbKit.swiftmodule in $$modules: build the library first (swift build --target OMDbKit)" >&2; exit 1; }; \
	triple=$$($(SWIFT) -print-target-info | sed -nE 's/^ *"triple": "([^"]+)".*/\1/p' | head -n 1); \
	sdk=$$(xcrun --show-sdk-path 2>/dev/null || true); \
	$(SWIFT) symbolgraph-extract -module-name OMDbKit -I "$$modules" -target "$$triple" \
		$${sdk:+-sdk "$$sdk"} -output-dir '$(docs_dir)/symbol-graphs'; \
	docc=$$(command -v docc || echo "$$(dirname "$$(command -v $(SWIFT))")/docc"); \
	"$$docc" convert Sources/OMDbKit/OMDbKit.docc --additional-symbol-graph-dir '$(docs_dir)/symbol-graphs' \
		--output-path '$(docs_dir)/OMDbKit.doccarchive' --fallback-display-name OMDbKit --fallback-bundle-identifier movies.OMDbKit \
		--warnings-as-errors; \
	echo "OMDbKit's documentation: $(docs_dir)/OMDbKit.doccarchive"

# make fuzz SECONDS=N: builds every fuzz target in Fuzz/Targets (one per parser of outside bytes)
# with libFuzzer and AddressSanitizer into .build/fuzz/, runs each for N seconds, prints
# `fuzz TARGET: N runs, C crashes` and fails on any crash, keeping its input in
# .build/fuzz/crashes/TARGET/. TARGETS="jpeg keys" for some only; SECONDS=0 builds them and runs none. $(SECONDS), not $$SECONDS:
# bash reads SECONDS as its own clock.
SECONDS ?= 10
TARGETS ?=
.PHONY: fuzz
fuzz:
	@bash Fuzz/fuzz.sh $(SECONDS) $(TARGETS)
