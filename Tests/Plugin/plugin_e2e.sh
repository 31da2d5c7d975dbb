#!/usr/bin/env bash
# The StoryTests plugin as a user meets it: a fresh package whose test target
# uses the plugin, with two story files (one a .feature with an outline) and a
# third with a bad line. Checks that `swift test list` lists every story,
# `--filter` runs exactly one, an outline's rows are the arguments of one test,
# and the broken file fails at its line. Builds in .build/plugin-e2e (kept, so a
# second run is incremental); the package itself lives in a temporary folder
# removed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/storyrun-plugin-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT
scratch="$root/.build/plugin-e2e"
mkdir -p "$work/Tests/BankTests" "$work/Stories"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "Bank",
    dependencies: [.package(name: "storyrun", path: "$root")],
    targets: [
        .testTarget(
            name: "BankTests",
            dependencies: [.product(name: "StoryKitTesting", package: "storyrun"), .product(name: "StoryKit", package: "storyrun")],
            plugins: [.plugin(name: "StoryTests", package: "storyrun")]),
    ])
SWIFT
cat > "$work/Tests/BankTests/Steps.swift" <<'SWIFT'
import StoryKit
import StoryKitTesting

final class AccountSteps: StepDefinitions {
    var balance = 0
    required init() {}
    static func define(_ step: StepMap<AccountSteps>) {
        step(#"^an account with (\d+)$"#) { (steps: AccountSteps, amount: Int) in steps.balance = amount }
        step(#"^I withdraw (\d+)$"#) { (steps: AccountSteps, amount: Int) in
            try expect(amount <= steps.balance, "refused: overdraft")
            steps.balance -= amount
        }
        step(#"^the balance is (\d+)$"#) { (steps: AccountSteps, amount: Int) in
            try expect(steps.balance == amount, "balance \(steps.balance)")
        }
    }
}

enum StorySteps: StoryTestSteps {
    static var steps: [any StepDefinitions.Type] { [AccountSteps.self] }
    static var strict: Bool { true }
}
SWIFT
cat > "$work/Stories/withdraw.stories" <<'STORY'
Story: Withdrawing within the balance
  Given an account with 100
  When I withdraw 30
  Then the balance is 70

Story: Overdraft is refused
  Given an account with 10
  When I withdraw 30
  Then the balance is 10
STORY
cat > "$work/Stories/rows.feature" <<'STORY'
Feature: Rows
  Scenario Outline: Withdrawing leaves the rest
    Given an account with <start>
    When I withdraw <amount>
    Then the balance is <rest>

    Examples:
      | start | amount | rest |
      | 10    | 3      | 7    |
      | 20    | 5      | 15   |
STORY
printf 'Story: Broken\n  Given an account with 1\nThis line is no step\n' > "$work/Stories/broken.stories"

cd "$work"
swift build --build-tests --scratch-path "$scratch" 2>&1 | tail -3
list=$(swift test list --skip-build --scratch-path "$scratch" 2>/dev/null)
echo "$list"
fail() { echo "plugin end-to-end: $*" >&2; exit 1; }
for test in "WithdrawStories/withdrawingWithinTheBalance()" "WithdrawStories/overdraftIsRefused()" \
    "RowsFeature/withdrawingLeavesTheRest(line:)" "BrokenStories/problemAtLine3()"; do
    grep -qF "BankTests.$test" <<<"$list" || fail "swift test list does not show $test"
done
[ "$(grep -c . <<<"$list")" = 4 ] || fail "expected 4 tests listed"

one=$(swift test --skip-build --scratch-path "$scratch" --filter withdrawingWithinTheBalance 2>&1 || true)
grep -q "Test run with 1 test in 1 suite passed" <<<"$one" || fail "--filter did not run exactly one passing test: $one"

rows=$(swift test --skip-build --scratch-path "$scratch" --filter withdrawingLeavesTheRest 2>&1 || true)
[ "$(grep -c 'argument line → ' <<<"$rows")" -ge 2 ] || fail "the outline's rows are not the test's arguments: $rows"
grep -q "Test run with 1 test in 1 suite passed" <<<"$rows" || fail "the outline's test did not pass: $rows"

all=$(swift test --skip-build --scratch-path "$scratch" 2>&1) && fail "a broken story file and a failing story passed"
grep -q "broken.stories:3" <<<"$all" || fail "the broken file does not fail at its line: $all"
grep -q "overdraftIsRefused\|Overdraft is refused" <<<"$all" || fail "the failing story is not named"
grep -q "refused: overdraft" <<<"$all" || fail "the failing step's message is missing"
printf 'Story: Depositing\n  Given an account with 5\n  Then the balance is 5\n' > Stories/deposit.stories
swift build --build-tests --scratch-path "$scratch" 2>&1 | tail -1
swift test list --skip-build --scratch-path "$scratch" 2>/dev/null | grep -qF "BankTests.DepositStories/depositing()" \
    || fail "a new story file is not a test after the next build"
echo "plugin end-to-end: 4 tests listed, a new story file listed after a build with no Swift edit, --filter runs one, an outline's rows are arguments, a broken file fails at its line"
