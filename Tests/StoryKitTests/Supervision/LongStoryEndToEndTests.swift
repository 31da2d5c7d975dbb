import Foundation
import Testing
@testable import StoryKit

/// Stories of 20,000 steps through the built executable, supervised and in
/// process: the same verdicts and the same step results in the report
/// (issue 29, "Long stories": a supervised long story's answer goes in
/// parts; how fast is `make bench`'s "Long stories", not a test's).
@Suite(.timeLimit(.minutes(10))) struct LongStoryEndToEndTests {
    /// Each step of a Cucumber JSON report: its line, status, definition,
    /// captured texts and error.
    static func steps(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let features = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return features.flatMap { feature in
            (feature["elements"] as? [[String: Any]] ?? []).flatMap { element in
                (element["steps"] as? [[String: Any]] ?? []).map { step in
                    let result = step["result"] as? [String: Any] ?? [:]
                    let match = step["match"] as? [String: Any] ?? [:]
                    // The texts, not their offsets: a step sent whole loses
                    // its definition's id, and reports then look for the
                    // text in the step (issue noted in the branch's report).
                    let texts = (match["arguments"] as? [[String: Any]] ?? []).map { "\($0["val"] ?? "")" }
                    // What is written under it, as the report has it.
                    let docString = (step["doc_string"] as? [String: Any])?["value"] ?? ""
                    let rows = (step["rows"] as? [[String: Any]] ?? []).map { "\($0["cells"] ?? "")" }
                    return "\(step["line"] ?? "") \(result["status"] ?? "") \(match["location"] ?? "") \(texts) "
                        + "\(result["error_message"] ?? "") \((step["embeddings"] as? [Any])?.count ?? 0) \(docString) \(rows)"
                }
            }
        }
    }

    /// Runs `file` in `folder` with the fixture's consistency steps,
    /// supervised and then in process, each outcome checked by `check`
    /// (given the mode's arguments); each run's report's steps.
    static func runBothWays(
        _ file: String, in folder: String, check: (Binary.Outcome, [String]) -> Void
    ) async throws -> [[String]] {
        var reports: [[String]] = []
        for mode in [[], ["--in-process"]] {
            let outcome = try await Binary.run(
                mode + ["--json", "report.json", file], in: folder, timeout: 300, environment: ["STORYRUN_FIXTURE_STEPS": "consistency"])
            check(outcome, mode)
            reports.append(try steps(folder + "/report.json"))
        }
        return reports
    }

    @Test("A passing and a failing story of 20,000 steps: supervised, the same results as in process")
    func longStoriesSupervised() async throws {
        let folder = try Binary.temporaryFolder("long-story")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func story(_ name: String, special: [Int: String]) -> String {
            "Story: \(name)\n" + (0..<20_000).map { "\($0 == 0 ? "Given" : "And") step \($0) \(special[$0] ?? "passes")\n" }.joined() + "\n"
        }
        try Data((story("passing", special: [:]) + story("failing", special: [9_000: "attaches", 15_000: "fails"])).utf8)
            .write(to: URL(fileURLWithPath: folder + "/long.stories"))
        let reports = try await Self.runBothWays("long.stories", in: folder) { outcome, mode in
            #expect(outcome.status == 1, "\(mode) \(outcome.output.suffix(2_000)) \(outcome.errorOutput.suffix(2_000))")
            #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(mode) \(outcome.output.suffix(2_000))")
            #expect(outcome.output.contains("Steps: 35000 passed, 1 failed, 4999 skipped"), "\(mode) \(outcome.output.suffix(2_000))")
            #expect(!outcome.output.contains("did not fit") && !outcome.output.contains("channel"), "\(outcome.output.suffix(2_000))")
        }
        #expect(reports[0].count == 40_000)
        #expect(reports[0] == reports[1], "\(zip(reports[0], reports[1]).first { $0 != $1 }.map { "\($0)\n\($1)" } ?? "")")
    }

    /// A long story's request goes in parts (``WorkerWire/partSize`` steps
    /// each), read and matched by the worker as they come: what is under a
    /// step, odd texts, a step no definition matches and one two match,
    /// at and around the parts' edges, arrive as planned.
    @Test("A Gherkin scenario of 3,000 steps with doc strings, tables and odd texts across its request's parts: supervised, the same results as in process")
    func longScenarioInParts() async throws {
        let folder = try Binary.temporaryFolder("long-scenario")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "Feature: long\n  Scenario: 3,000 steps\n"
        for index in 0..<3_000 {
            // An ambiguous step (a warning) and an undefined one (the story
            // stops there) in its second and third parts.
            let what = [700: "is ambiguous", 1_500: "is not defined %41\té 🦊"][index] ?? "passes"
            text += "    \(index == 0 ? "Given" : "And") step \(index) \(what)\n"
            if [511, 512, 1_024, 2_999].contains(index) {
                text += "      ```json\n      {\"step\": \(index), \"text\": \"a\\tb %25\"}\n\n      é\n      ```\n"
            } else if [513, 1_023, 2_000].contains(index) {
                text += "      | step | \(index) |\n      | a \\| b | % |\n"
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/long.feature"))
        let reports = try await Self.runBothWays("long.feature", in: folder) { outcome, mode in
            // Undefined and ambiguous steps do not fail a run without --strict.
            #expect(outcome.status == 0, "\(mode) \(outcome.output.suffix(2_000)) \(outcome.errorOutput.suffix(2_000))")
            #expect(outcome.output.contains("Steps: 1500 passed, 0 failed, 1 undefined, 1499 skipped"), "\(mode) \(outcome.output.suffix(2_000))")
            #expect(outcome.output.contains("undefined: And step 1500 is not defined %41\té 🦊  long.feature:1522"), "\(mode)")
            #expect(outcome.output.contains("long.feature:715:5: warning: 2 step definitions match \"And step 700 is ambiguous\""), "\(mode)")
        }
        #expect(reports[0].count == 3_000)
        #expect(reports[0].filter { $0.contains("\"step\": ") }.count == 4)
        #expect(reports[0].filter { $0.contains("a \\| b") || $0.contains("a | b") }.count == 3)
        #expect(reports[0] == reports[1], "\(zip(reports[0], reports[1]).first { $0 != $1 }.map { "\($0)\n\($1)" } ?? "")")
    }
}
