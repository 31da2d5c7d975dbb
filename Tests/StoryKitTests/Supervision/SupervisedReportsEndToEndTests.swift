import Foundation
import Testing
@testable import StoryKit

/// A supervised run's reports say what a run in process says: the parent
/// rebuilds each passing story from its worker's compact answer, so what
/// that answer leaves out, the reports lose.
@Suite(.timeLimit(.minutes(10))) struct SupervisedReportsEndToEndTests {
    /// Each step's captured arguments in a Cucumber JSON report, in order:
    /// their values and offsets.
    private static func arguments(inJSON path: String) throws -> [[String]] {
        let features = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
        return features.flatMap { ($0["elements"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["steps"] as? [[String: Any]]) ?? [] }
            .map { step in
                let match = step["match"] as? [String: Any]
                return ((match?["arguments"] as? [[String: Any]]) ?? []).map { "\($0["val"] ?? "nil")@\($0["offset"] ?? "nil")" }
            }
    }

    /// Each step's match arguments in a Messages report (`testCase`
    /// envelopes, in order): their values.
    private static func arguments(inMessages path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> [[String]]? in
            let envelope = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let testCase = envelope?["testCase"] as? [String: Any] else { return nil }
            return ((testCase["testSteps"] as? [[String: Any]]) ?? []).compactMap { step in
                guard let lists = step["stepMatchArgumentsLists"] as? [[String: Any]] else { return nil }
                return lists.flatMap { ($0["stepMatchArguments"] as? [[String: Any]]) ?? [] }
                    .map { (($0["group"] as? [String: Any])?["value"] as? String) ?? "nil" }
            }
        }.flatMap { $0 }
    }

    /// Before, Cucumber JSON searched the step text for each captured text:
    /// an "a" captured at the end of "a step that passes with "a"" was put
    /// at 0, where the text begins, and an empty capture at no offset.
    @Test("Cucumber JSON gives each capture's offset where the definition captured it", arguments: [[String](), ["--in-process"]])
    func captureOffsets(mode: [String]) async throws {
        let folder = try Binary.temporaryFolder("supervised-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Story: offsets\n  Given a step that passes with \"a\"\n  And a step that passes with \"\"\n  And a step that passes with \"é\"\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/o.stories"))
        let outcome = try await Binary.run(["o.stories", "--json", "o.json"] + mode, in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(try Self.arguments(inJSON: folder + "/o.json") == [["a@25"], ["@25"], ["é@25"]])
    }

    /// A worker leaves an undefined step's suggestion and snippet to its
    /// parent, whichever way its answer goes: compact (a plain story) or
    /// as JSON (a story whose other step logged).
    @Test("Undefined steps have the same suggestion and snippet supervised as in process")
    func undefinedStepsToldByTheParent() async throws {
        let folder = try Binary.temporaryFolder("supervised-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(("Story: plain\n  Given a step that passes with \"x\"\n  And a step that pases with \"y\"\n"
            + "Story: logged\n  Given the step logs \"hello\"\n  And a step that pases with \"z\"\n  And nothing like any step\n").utf8)
            .write(to: URL(fileURLWithPath: folder + "/u.stories"))
        var runs: [[String]] = []
        var guesses: [[Substring]] = []
        for mode in [[], ["--in-process"]] {
            let outcome = try await Binary.run(
                ["u.stories", "--json", "u.json"] + mode, in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
            // Undefined steps fail a run only under --strict.
            #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
            guesses.append(outcome.output.split(separator: "\n").filter { $0.contains("did you mean") })
            let features = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/u.json"))) as? [[String: Any]])
            runs.append(features.flatMap { ($0["elements"] as? [[String: Any]]) ?? [] }
                .flatMap { ($0["steps"] as? [[String: Any]]) ?? [] }
                .compactMap { $0["storyrun_snippet"] as? String })
        }
        #expect(runs[0].count == 3)
        #expect(runs[0].allSatisfy { $0.contains("pases") || $0.contains("nothing like") })
        #expect(runs[0] == runs[1])
        #expect(guesses[0].count == 2, "\(guesses[0])")
        #expect(guesses[0] == guesses[1])
    }

    @Test("An empty capture is one argument in a supervised run's reports, as in process")
    func emptyCapture() async throws {
        let folder = try Binary.temporaryFolder("supervised-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Story: captures\n  Given a step that passes with \"\"\n  And a step that passes with \"x\"\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/c.stories"))
        var runs: [(json: [[String]], messages: [[String]])] = []
        for mode in [[], ["--in-process"]] {
            let outcome = try await Binary.run(
                ["c.stories", "--json", "c.json", "--messages", "c.ndjson"] + mode, in: folder, timeout: 60,
                environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
            #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
            runs.append((try Self.arguments(inJSON: folder + "/c.json"), try Self.arguments(inMessages: folder + "/c.ndjson")))
        }
        #expect(runs[0].messages == [[""], ["x"]], "supervised: \(runs[0].messages)")
        #expect(runs[0].messages == runs[1].messages)
        #expect(runs[0].json.map(\.count) == [1, 1], "supervised: \(runs[0].json)")
        #expect(runs[0].json == runs[1].json)
    }

    /// Each step's match arguments in a Messages report, with where each
    /// group starts: `value@start`.
    private static func placedArguments(inMessages path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> [[String]]? in
            let envelope = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let testCase = envelope?["testCase"] as? [String: Any] else { return nil }
            return ((testCase["testSteps"] as? [[String: Any]]) ?? []).compactMap { step in
                guard let lists = step["stepMatchArgumentsLists"] as? [[String: Any]] else { return nil }
                return lists.flatMap { ($0["stepMatchArguments"] as? [[String: Any]]) ?? [] }.map {
                    let group = ($0["group"] as? [String: Any]) ?? [:]
                    return "\(group["value"] ?? "nil")@\(group["start"] ?? "nil")"
                }
            }
        }.flatMap { $0 }
    }

    /// Before, a story that did not pass plainly came back from its worker
    /// as JSON, whose matches carry no definition id: the reports then
    /// searched the step text for each captured text, and put the "a" of
    /// `a step that passes with "a"` at 0 and the "e" of `... repeating
    /// "e"` in "message".
    @Test("A failed story's argument positions: supervised, the same as in process")
    func failedStoryArgumentPositions() throws {
        let folder = try Binary.temporaryFolder("supervised-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(("Story: failing with captures\n  Given a step that passes with \"a\"\n"
            + "  When the step fails with a 0 MB message repeating \"e\"\n  Then a step that passes with \"a\"\n").utf8)
            .write(to: URL(fileURLWithPath: folder + "/f.stories"))
        var runs: [(json: [[String]], messages: [[String]])] = []
        for mode in [[], ["--in-process"]] {
            let outcome = try Binary.run(
                ["f.stories", "--json", "f.json", "--messages", "f.ndjson"] + mode, in: folder, timeout: 60,
                environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
            #expect(outcome.status == 1, "\(mode) \(outcome.output)\(outcome.errorOutput)")
            runs.append((try Self.arguments(inJSON: folder + "/f.json"), try Self.placedArguments(inMessages: folder + "/f.ndjson")))
        }
        let expected = [["a@25"], ["0@22", "e@46"], ["a@25"]]
        #expect(runs[1].json == expected, "in process: \(runs[1].json)")
        #expect(runs[1].messages == expected, "in process: \(runs[1].messages)")
        #expect(runs[0].json == runs[1].json, "supervised: \(runs[0].json)")
        #expect(runs[0].messages == runs[1].messages, "supervised: \(runs[0].messages)")
    }

    /// Each step's whole `stepMatchArgumentsLists` in a Messages report
    /// (`testCase` envelopes, in order), as JSON with sorted keys: groups,
    /// starts, values, children and parameter type names.
    private static func matchArgumentLists(inMessages path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> [String]? in
            let envelope = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let testCase = envelope?["testCase"] as? [String: Any] else { return nil }
            return try ((testCase["testSteps"] as? [[String: Any]]) ?? []).compactMap { step in
                guard let lists = step["stepMatchArgumentsLists"] else { return nil }
                return String(decoding: try JSONSerialization.data(withJSONObject: lists, options: [.sortedKeys]), as: UTF8.self)
            }
        }.flatMap { $0 }
    }

    /// The argument positions every report gives, pinned across modes:
    /// passing, failing, skipped-after-undefined and retried steps, text
    /// that is not ASCII before an argument, nested groups, an optional
    /// group that took no part, and a Cucumber Expression's parameters.
    @Test("Argument positions are the same supervised and in process, in every kind of step")
    func argumentPositionsAcrossModes() throws {
        let folder = try Binary.temporaryFolder("supervised-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stories = """
            Story: passing
              Given a step with nested "ab-12"
              And a step with nested "ünï-3" and optional "x"
              And a step with "naïve" and 3 items
              And a step that passes with "é"

            Story: failing, then undefined
              Given a step with "é" and 7 items
              When the step fails with a 0 MB message repeating "e"
              Then a step with nested "cd-4"
              And a step no definition matches
              And a step with "z" and 1 items

            Story: retried
              Given a step with "r" and 2 items
              When the step fails once with "ç", marking "marked"
              Then a step with nested "éf-5" and optional "y"

            """
        try Data(stories.utf8).write(to: URL(fileURLWithPath: folder + "/p.stories"))
        var runs: [(json: [[String]], messages: [String])] = []
        for mode in [[], ["--in-process"]] {
            try? FileManager.default.removeItem(atPath: folder + "/marked")
            let outcome = try Binary.run(
                ["p.stories", "--retry", "1", "--json", "p.json", "--messages", "p.ndjson"] + mode, in: folder, timeout: 60,
                environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
            #expect(outcome.status == 1, "\(mode) \(outcome.output)\(outcome.errorOutput)")
            runs.append((try Self.arguments(inJSON: folder + "/p.json"), try Self.matchArgumentLists(inMessages: folder + "/p.ndjson")))
        }
        #expect(runs[1].json.count == 12, "in process: \(runs[1].json)")
        // Each group at its own place, nested ones too (cucumber-ruby's
        // `match.offset(n)` for every capture): before carried spans, the
        // nested groups were searched for after the outer group's text and
        // not found (ab@null, 12@null).
        #expect(runs[1].json.first.map { Array($0.prefix(3)) } == ["ab-12@20", "ab@20", "12@23"], "in process: \(runs[1].json)")
        #expect(runs[1].messages.first?.contains(#"{"start":20,"value":"ab"},{"start":23,"value":"12"}"#) == true, "\(runs[1].messages)")
        #expect(runs[1].json.contains(["\"naïve\"@12", "3@24"]), "in process: \(runs[1].json)")
        #expect(runs[0].json == runs[1].json, "supervised: \(runs[0].json)\nin process: \(runs[1].json)")
        #expect(runs[1].messages.count == 12, "in process: \(runs[1].messages)")
        #expect(runs[0].messages == runs[1].messages, "supervised: \(runs[0].messages)\nin process: \(runs[1].messages)")
    }
}
