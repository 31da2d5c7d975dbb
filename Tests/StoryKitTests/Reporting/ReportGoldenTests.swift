import Foundation
import Testing
import StoryKit
import StoryrunSteps

/// Runs each fixture story file through the command line and compares every
/// report with its golden file in `Fixtures/reporting/`.
@Suite struct ReportGoldenTests {
    static let inputs = Golden.files(in: "stories/good", withExtension: "stories")

    static func run(_ name: String) async throws -> (text: String, html: String, json: String, status: StoryKit.ExitStatus) {
        let folder = NSTemporaryDirectory() + "storyrun-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: ["--html", folder + "/r.html", "--json", folder + "/r.json", Golden.fixture("stories/good/" + name)],
            steps: StoryrunSteps.fixtures, style: .tags, clock: { 0 }, output: { lines.append($0) })
        let html = try String(contentsOfFile: folder + "/r.html", encoding: .utf8)
        let json = try String(contentsOfFile: folder + "/r.json", encoding: .utf8)
        return (Golden.relativize(lines.joined(separator: "\n") + "\n"), Golden.relativize(html), Golden.relativize(json), status)
    }

    @Test("Terminal, HTML and Cucumber JSON reports match their goldens", arguments: inputs)
    func reports(name: String) async throws {
        let run = try await Self.run(name)
        Golden.check(run.text, against: "reporting/\(name).txt")
        Golden.check(run.html, against: "reporting/\(name).html")
        Golden.check(run.json, against: "reporting/\(name).json")
    }

    @Test("Cucumber JSON has the shape Cucumber tools read")
    func cucumberShape() async throws {
        let run = try await Self.run("failing.stories")
        let features = try #require(try JSONSerialization.jsonObject(with: Data(run.json.utf8)) as? [[String: Any]])
        #expect(features.count == 1)
        let elements = features[0]["elements"] as? [[String: Any]] ?? []
        try #require(elements.count == 4)
        let steps = elements[1]["steps"] as? [[String: Any]] ?? []
        try #require(steps.count == 4)
        let statuses = steps.compactMap { ($0["result"] as? [String: Any])?["status"] as? String }
        #expect(statuses == ["passed", "passed", "failed", "skipped"])
        let failed = steps[2]["result"] as? [String: Any] ?? [:]
        #expect((failed["error_message"] as? String)?.contains("expected 3, got 2") == true)
        #expect(failed["duration"] as? Int == 0)
        #expect(steps[2]["keyword"] as? String == "Then ")
        #expect(((steps[2]["match"] as? [String: Any])?["location"] as? String)?.hasPrefix("Sources/StoryrunSteps/BasketSteps.swift:") == true)
        #expect(run.status == .storyFailed)
    }
}
