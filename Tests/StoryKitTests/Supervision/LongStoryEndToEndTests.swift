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
                    return "\(step["line"] ?? "") \(result["status"] ?? "") \(match["location"] ?? "") \(texts) "
                        + "\(result["error_message"] ?? "") \((step["embeddings"] as? [Any])?.count ?? 0)"
                }
            }
        }
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
        var reports: [[String]] = []
        for mode in [[], ["--in-process"]] {
            let outcome = try await Binary.run(
                mode + ["--json", "report.json", "long.stories"], in: folder, timeout: 300,
                environment: ["STORYRUN_FIXTURE_STEPS": "consistency"])
            #expect(outcome.status == 1, "\(mode) \(outcome.output.suffix(2_000)) \(outcome.errorOutput.suffix(2_000))")
            #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(mode) \(outcome.output.suffix(2_000))")
            #expect(outcome.output.contains("Steps: 35000 passed, 1 failed, 4999 skipped"), "\(mode) \(outcome.output.suffix(2_000))")
            #expect(!outcome.output.contains("did not fit") && !outcome.output.contains("channel"), "\(outcome.output.suffix(2_000))")
            reports.append(try Self.steps(folder + "/report.json"))
        }
        #expect(reports[0].count == 40_000)
        #expect(reports[0] == reports[1], "\(zip(reports[0], reports[1]).first { $0 != $1 }.map { "\($0)\n\($1)" } ?? "")")
    }
}
