# storyrun: `make stories` runs storyrun's own stories, `make test` runs everything CI runs.
SWIFT ?= swift
STORYRUN = .build/debug/storyrun
# The official test data (Gherkin, Cucumber Expressions, tag expressions, the
# Compatibility Kit, the JUnit and Messages schemas), read where it lives and
# never copied in; the Swift tests and the scripts read the same variable.
# A suite whose folder is absent is skipped with a line that says so, or fails
# under CONFORMANCE_REQUIRED=1 (as .ci/run sets it).
CONFORMANCE_DIR ?= $(abspath ../shared/conformance)
export CONFORMANCE_DIR
OFFICIAL = sh Tests/Conformance/official.sh

.PHONY: bench-html docs docs-test plugin-test bench-tools consistency build test unit lsp-test stories example example-todo example-web conformance goldens bench fuzz fuzz-cli report-screenshot bench-browser bench-browser-tools clean test-tools messages-schema cucumber-json

build:
	$(SWIFT) build

# Three test processes: the browser and step-library suites block threads on
# pipes and sockets, which starved the 2-core pool of the other suites.
# Every suite's time limit is 10 minutes: Swift Testing starts a test's clock
# when it starts the test's task, and on 2 cores a quick test can wait minutes
# for a thread behind end-to-end tests that block theirs (a 3-minute limit
# failed 326 tests of a 296 s run on a loaded machine). A hang still fails the
# test that hung, by name; Tests/time-limit.sh bounds the whole step.
unit: test-tools
	$(SWIFT) test --skip BrowserTests --skip StepLibraryTests
	$(SWIFT) test --skip-build --filter StepLibraryTests
	$(SWIFT) test --skip-build --filter BrowserTests

# The tools the tests use: curl (the stub server's load test and stories), xmllint (every JUnit report against
# the JUnit 4 schema), Python's jsonschema (the Messages schema test) and Debian's cucumber (the Cucumber JSON differential test, which
# says it skipped when cucumber cannot be installed), allure-python-commons and allure-behave (the Allure results test).
test-tools:
	@python3 -c "import jsonschema" 2>/dev/null || pip install jsonschema 2>/dev/null || pip install --break-system-packages jsonschema
	@command -v curl >/dev/null || (apt-get update -qq && apt-get install -y -qq curl)
	@command -v xmllint >/dev/null || (apt-get update -qq && apt-get install -y -qq libxml2-utils) || echo "xmllint cannot be installed here: the JUnit schema tests will be skipped"
	@command -v cucumber >/dev/null || (apt-get update -qq && apt-get install -y -qq cucumber) || echo "cucumber cannot be installed here: the Cucumber JSON differential test will be skipped"
	@command -v chromium >/dev/null || (apt-get update -qq && timeout 600 apt-get install -y -qq chromium) >/dev/null 2>&1 || echo "chromium cannot be installed here: the browser tests and the web example will be skipped"
	@command -v chromium-headless-shell >/dev/null || (apt-get update -qq && timeout 600 apt-get install -y -qq chromium-headless-shell) >/dev/null 2>&1 || echo "chromium-headless-shell cannot be installed here: the browser steps use the desktop chromium"
	@python3 -c "import allure_commons, allure_behave, behave" 2>/dev/null || pip install allure-python-commons==2.16.2 allure-behave==2.16.2 behave==1.3.3 2>/dev/null || pip install --break-system-packages allure-python-commons==2.16.2 allure-behave==2.16.2 behave==1.3.3 || echo "allure-python-commons cannot be installed here: the Allure tests will be skipped"

# The peers `make bench` compares with: behave 1.3.3 (PyPI) and cucumber-ruby (Debian).
bench-tools: test-tools
	@python3 -c "import behave" 2>/dev/null || pip install behave==1.3.3 2>/dev/null || pip install --break-system-packages behave==1.3.3 || echo "behave cannot be installed here: the bench runs without it"

# Every Messages golden against the official schema (Draft 2020-12): N envelopes valid, N invalid.
messages-schema: test-tools
	$(OFFICIAL) $(CONFORMANCE_DIR)/messages "Messages schema" python3 Fixtures/messages/validate.py $(CONFORMANCE_DIR)/messages/messages.schema.json Fixtures/reporting/*.ndjson

# Cucumber JSON against Debian's cucumber on Fixtures/cucumber-json: N fields compared, N differ.
cucumber-json: test-tools
	$(SWIFT) test --filter CucumberJSONDifferentialTests

# Random suites through the built storyrun, every report and a merge of two
# shards: every story's status and first failure agree (CONSISTENCY_SUITES, default 40).
CONSISTENCY_SUITES ?= 40
consistency: build
	python3 Tests/Consistency/consistency.py $(STORYRUN) --suites $(CONSISTENCY_SUITES)

# The language server driven over stdio by real clients: pytest-lsp (PyPI)
# through every feature, and a headless Neovim smoke test (Debian neovim),
# each skipped with a message where it cannot be installed.
lsp-test: build
	@python3 -c "import pytest_lsp" 2>/dev/null || pip install -q pytest-lsp 2>/dev/null || pip install -q --break-system-packages pytest-lsp || true
	@command -v nvim >/dev/null || (apt-get update -qq && timeout 300 apt-get install -y -qq neovim) >/dev/null 2>&1 || echo "neovim cannot be installed here: the Neovim smoke test will be skipped"
	@if python3 -c "import pytest_lsp" 2>/dev/null; then cd Tests/LanguageServer && timeout 600 python3 -m pytest -p no:cacheprovider -rs; \
	else echo "pytest-lsp cannot be installed here: the language server tests are skipped"; fi

stories: build test-tools
	$(STORYRUN) --strict Stories/

example:
	cd Examples/TicTacToe && $(SWIFT) build && .build/debug/tictactoe --strict Stories/ && $(SWIFT) test

# The StoryTests plugin in a fresh package: one test per story, --filter, a broken file.
plugin-test:
	bash Tests/Plugin/plugin_e2e.sh

# StoryKit's documentation (Sources/StoryKit/StoryKit.docc and every public
# symbol) built with the toolchain's docc into a static site in .build/docs;
# a warning fails it. docs-test opens it in headless Chromium and follows its links.
docs: build
	bash Tests/Docs/build_docs.sh

docs-test: docs
	python3 Tests/Docs/check_links.py .build/docs

# The to-do example: a command-line tool and the sync server it calls, stubbed in its stories.
example-todo: test-tools
	cd Examples/TodoList && $(SWIFT) build && .build/debug/todo-stories --strict Stories/

# The web example: pages served by the stub server, driven in headless Chromium,
# their API answered by the stories (StoryKitBrowser); skipped, saying so, without Chromium.
example-web: test-tools
	@if command -v chromium-headless-shell >/dev/null || command -v chromium >/dev/null; then cd Examples/WebApp && $(SWIFT) build && .build/debug/webapp-stories --strict Stories/; \
	else echo "neither chromium-headless-shell nor chromium is installed: the web example is skipped"; fi

# The tests, storyrun's own stories and the example packages: what CI runs.
# Each step under a time limit in seconds: Tests/time-limit.sh names a step that overran.
LIMITED = Tests/time-limit.sh
test:
	$(LIMITED) example 1200 $(MAKE) --no-print-directory example
	$(LIMITED) example-todo 900 $(MAKE) --no-print-directory example-todo
	$(LIMITED) example-web 900 $(MAKE) --no-print-directory example-web
	$(LIMITED) plugin-test 900 $(MAKE) --no-print-directory plugin-test
	$(LIMITED) docs-test 900 $(MAKE) --no-print-directory docs-test
	$(LIMITED) stories 900 $(MAKE) --no-print-directory stories
	$(LIMITED) conformance 900 $(MAKE) --no-print-directory conformance
	$(LIMITED) unit 2400 $(MAKE) --no-print-directory unit
	$(LIMITED) lsp-test 600 $(MAKE) --no-print-directory lsp-test

# Rewrites the golden files in Fixtures/; review the change with git diff.
goldens:
	STORYRUN_RECORD=1 $(SWIFT) test || true

clean:
	rm -rf .build .build-static Examples/TicTacToe/.build Examples/TodoList/.build Examples/WebApp/.build

# Benchmarks (not tests): storyrun side by side with behave and cucumber-ruby
# on three corpora (Benchmarks/corpus.py), supervision, start-up, the floor,
# memory, then a profile by phase (Benchmarks/profile.py);
# then the language server's latency from didChange to publishDiagnostics;
# then watch mode's latency from saving a story file to its result.
bench: bench-tools
	$(SWIFT) build -c release --product storyrun-bench
	$(SWIFT) build -c release --product storyrun-bench-neutral
	$(SWIFT) build -c release --static-swift-stdlib --product storyrun-bench-neutral --scratch-path .build-static
	python3 Benchmarks/bench.py
	python3 Benchmarks/profile.py Benchmarks/out/neutral-$${BENCH_N:-10000}
	python3 Benchmarks/lsp_latency.py
	python3 Benchmarks/watch_latency.py
	$(MAKE) --no-print-directory bench-browser

# The browser bench's peer: Selenium (PyPI) driving Debian's chromium through chromium-driver.
bench-browser-tools: bench-tools
	@python3 -c "import selenium" 2>/dev/null || pip install selenium 2>/dev/null || pip install --break-system-packages selenium
	@command -v chromedriver >/dev/null || (apt-get update -qq && timeout 600 apt-get install -y -qq chromium-driver) >/dev/null 2>&1 || echo "chromium-driver cannot be installed here: the browser bench cannot run"

# The same 50 UI stories run by storyrun (StoryKitBrowser, release build) and by
# behave with Selenium against one running web example, in alternating runs.
bench-browser: bench-browser-tools
	cd Examples/WebApp && $(SWIFT) build -c release
	timeout 1500 python3 Benchmarks/browser_bench.py

# The HTML report at 1,000 / 10,000 / 100,000 stories: page size, time to
# write it, and headless Chromium's time to show it (scripts on and off).
bench-html: test-tools
	$(SWIFT) build -c release --product storyrun
	python3 Benchmarks/html_scale.py --storyrun .build/release/storyrun

# Fuzz the parsers with libFuzzer for FUZZ_SECONDS (default 600), seeded from Fixtures.
FUZZ_SECONDS ?= 600
fuzz:
	mkdir -p .fuzz/corpus .fuzz/artifacts
	cp Fixtures/stories/*/*.stories .fuzz/corpus/ 2>/dev/null || true
	cp $(CONFORMANCE_DIR)/gherkin/good/*.feature $(CONFORMANCE_DIR)/gherkin/bad/*.feature .fuzz/corpus/ 2>/dev/null || true
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name StoryKitFuzz \
		$$(ls Sources/StoryKit/Parsing/*.swift Sources/StoryKit/Parsing/Gherkin/*.swift 2>/dev/null) \
		Sources/StoryKit/Diagnostics/*.swift Sources/StoryKit/Support/*.swift Sources/StoryKit/Reporting/TextStyle.swift Sources/StoryKit/Running/Status.swift \
		$$(test -d Sources/StoryKit/Parsing/Gherkin && echo -DFUZZ_FEATURES) \
		Tests/Fuzz/ParserFuzzer.swift -o .fuzz/parser-fuzzer
	.fuzz/parser-fuzzer -max_total_time=$(FUZZ_SECONDS) -timeout=5 -rss_limit_mb=2048 \
		-artifact_prefix=.fuzz/artifacts/ .fuzz/corpus

# Fuzz the whole command line through the built executable: mutated story
# files, features and options; fails on a crash, a hang, an exit status
# other than 0/1/2 or a file written outside the case's folder.
# FUZZ_CLI_FLAGS=--no-workers leaves out --isolate/--jobs.
FUZZ_CLI_CASES ?= 5000
fuzz-cli: build
	python3 Tests/Fuzz/cli_fuzz.py --cases $(FUZZ_CLI_CASES) --seconds $(FUZZ_SECONDS) $(FUZZ_CLI_FLAGS)

# The official Gherkin test data through the command line: N passed, N failed;
# then the Cucumber Compatibility Kit's samples (Fixtures/cck/cck.py; the
# samples it does not pass yet are listed with their reason in known-gaps.txt).
CCK ?= $(CONFORMANCE_DIR)/compatibility-kit
conformance: build test-tools
	$(OFFICIAL) $(CONFORMANCE_DIR)/gherkin Gherkin python3 Fixtures/gherkin/conformance.py $(STORYRUN) $(CONFORMANCE_DIR)/gherkin
	$(OFFICIAL) $(CCK) "Compatibility Kit" python3 Fixtures/cck/cck.py $(STORYRUN) $(CCK) --allow Fixtures/cck/known-gaps.txt
	$(MAKE) messages-schema

# Renders the HTML report of the fixture runs in headless Chromium to Sources/StoryKit/StoryKit.docc/Resources/report.png.
report-screenshot:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	STORYRUN_SCREENSHOT_HTML=/tmp/storyrun-report.html $(SWIFT) test --filter HTMLReporterTests
	chromium --headless --no-sandbox --disable-gpu --screenshot=Sources/StoryKit/StoryKit.docc/Resources/report.png --window-size=1280,1600 file:///tmp/storyrun-report.html
