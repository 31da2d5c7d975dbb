# storyrun: `make stories` runs storyrun's own stories, `make test` runs everything CI runs.
SWIFT ?= swift
STORYRUN = .build/debug/storyrun

.PHONY: build test unit stories example conformance goldens bench clean

build:
	$(SWIFT) build

unit:
	$(SWIFT) test

stories: build
	$(STORYRUN) --strict Stories/

example:
	cd Examples/TicTacToe && $(SWIFT) build && .build/debug/tictactoe --strict Stories/

# The tests, storyrun's own stories and the example package: what CI runs.
test: unit stories example

# Rewrites the golden files in Fixtures/; review the change with git diff.
goldens:
	STORYRUN_RECORD=1 $(SWIFT) test || true

clean:
	rm -rf .build Examples/TicTacToe/.build

# Benchmarks (not tests): storyrun side by side with behave and cucumber-ruby.
bench:
	$(SWIFT) build -c release --product storyrun-bench
	python3 Benchmarks/bench.py
