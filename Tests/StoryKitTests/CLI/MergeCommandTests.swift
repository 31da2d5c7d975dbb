import Foundation
import Testing
@testable import StoryKit

/// `storyrun merge` reads the Cucumber JSON of several runs back and writes
/// the reports one run of all their stories would have written.
@Suite(.timeLimit(.minutes(10))) struct MergeCommandTests {
    static let shards = ["failing.stories", "undefined.stories", "unicode-and-markup.stories", "basket.stories"]

    /// JUnit with each `<failure>`'s `type` attribute left out.
    static func withoutFailureTypes(_ junit: String) -> String {
        junit.replacingOccurrences(of: #"(<failure message="[^"]*") type="[^"]*""#, with: "$1", options: .regularExpression)
    }

    /// Writes text to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String) throws -> String {
        let folder = Scratch.folder("storyrun-merge")
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("Merging the Cucumber JSON of shards gives the reports of one run of every story")
    func mergesShards() async throws {
        let whole = try await ReportGoldenTests.run(Self.shards)
        var inputs: [String] = []
        for shard in Self.shards {
            inputs.append(try Self.temporaryFile(try await ReportGoldenTests.run([shard])["json"], name: shard + ".json"))
        }
        let out = Scratch.folder("storyrun-merged") + "/merged"
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: ["merge"] + inputs + ["--html", out + ".html", "--junit", out + ".xml", "--json", out + ".json"],
            steps: [], output: { lines.append($0) })
        #expect(status == .storyFailed)
        #expect(try String(contentsOfFile: out + ".json", encoding: .utf8) == whole["json"])
        // Cucumber JSON does not carry the kind of error a step threw: a
        // merge's <failure type> is the status where the run's is the kind.
        let merged = try String(contentsOfFile: out + ".xml", encoding: .utf8)
        #expect(Self.withoutFailureTypes(merged) == Self.withoutFailureTypes(whole["junit.xml"]))
        #expect(merged.contains(#"<failure message="number of apples: expected 3, got 2" type="failed">"#))
        #expect(whole["junit.xml"].contains(#"<failure message="number of apples: expected 3, got 2" type="StoryKit.ExpectationFailure">"#))
        #expect(try String(contentsOfFile: out + ".html", encoding: .utf8) == whole["html"])
        #expect(lines.last == "Steps: 26 passed, 6 failed, 3 undefined, 4 skipped")
        #expect(whole.text.contains("\n" + (lines.last ?? "-") + "\n"))
    }

    @Test("A merge of passing runs exits 0")
    func passing() async throws {
        let json = try await ReportGoldenTests.run(["basket.stories"])["json"]
        let input = try Self.temporaryFile(json, name: "basket.json")
        // Two files: one file named twice is rejected (its stories would count twice).
        let copy = try Self.temporaryFile(json, name: "basket-again.json")
        var lines: [String] = []
        #expect(MergeCommand.run(arguments: [input, copy], output: { lines.append($0) }) == .success)
        #expect(lines.contains("Stories: 6 passed, 0 failed"))
    }

    @Test("Bad merge command lines and files exit 2 and say why", arguments: [
        ([String](), "no runs to merge"),
        (["--html"], "--html needs a value"),
        (["--colour", "x.json"], "unknown option --colour for merge"),
        (["/no/such/shard.json"], "cannot read /no/such/shard.json"),
        (["NOT-JSON"], "is not Cucumber JSON or a Cucumber Messages stream"),
        (["UNKNOWN-STATUS"], "has the unknown status \"exploded\""),
        (["NO-STATUS"], "has no result status"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let notJSON = try Self.temporaryFile("{\"not\": \"a list\"}", name: "x.json")
        func withStatus(_ result: String) throws -> String {
            try Self.temporaryFile(#"[{"uri":"a.feature","elements":[{"name":"s","line":3,"steps":[{"keyword":"Given ","name":"x","line":4,"result":{\#(result)}}]}]}]"#, name: "s.json")
        }
        let files = ["NOT-JSON": notJSON, "UNKNOWN-STATUS": try withStatus(#""status":"exploded""#), "NO-STATUS": try withStatus("")]
        var lines: [String] = []
        let status = MergeCommand.run(arguments: arguments.map { files[$0] ?? $0 }, output: { lines.append($0) })
        #expect(status == .inputError)
        #expect(lines.joined(separator: "\n").contains(message))
    }

    @Test("An error message read back keeps its text and its Swift place", arguments: [
        ("boom\nSources/X.swift:12\nFixtures/a.stories:3", "boom", "Sources/X.swift:12"),
        ("two lines:\nof text\nFixtures/a.stories:3", "two lines:\nof text", nil),
        ("just a message", "just a message", nil),
    ])
    func errorRoundTrip(text: String, message: String, place: String?) {
        let error = CucumberJSONDecoder.error(text)
        #expect(error.message == message)
        #expect(error.location?.fileAndLine == place)
    }
}
