import Foundation
import Testing
@testable import StoryKit

/// A run that fails outside its stories' statuses (a failed before-run or
/// after-run hook, a rejected story file, an undefined story under
/// `--strict`) says so in every report but Cucumber JSON (which has no
/// place for it, as Cucumber's own has none), and `storyrun merge` of its
/// Messages stream fails as it did.
///
/// Before, such a run's Cucumber JSON read as green: `merge` of it exited 0
/// (a crashed before-run hook wrote `[]`; a strict run's undefined story
/// became `<skipped>`; `merge --strict` was a usage error), and a rejected
/// file was missing from JUnit (`failures="0"`), Cucumber JSON and Messages
/// (no `parseError`, `success: true`).
@Suite(.timeLimit(.minutes(10))) struct MergeOfFailedRunsEndToEndTests {
    static let faults = ["STORYRUN_FIXTURE_STEPS": "faults"]

    /// The story files of each case's folder.
    static let files = [
        "good.stories": "Story: a\n  Given a step that passes\n",
        "undefined.feature": "Feature: U\n  Scenario: u\n    Given a step nobody defined\n",
        // A Background after a Scenario.
        "broken.feature": "Feature: B\n  Scenario: s\n    Given a step that passes\n  Background:\n    Given a step that passes\n",
        // A Then before a Given.
        "order.stories": "Story: x\n  Then a step that passes\n  Given a step that passes\n",
    ]

    @Test("A failed run's reports fail, and merging its Messages stream exits as it did", arguments: [
        ("a before-run hook crashes", ["STORYRUN_FAULT_BEFORE_RUN": "crash"], ["good.stories"], Int32(1)),
        ("a before-run hook throws", ["STORYRUN_FAULT_BEFORE_RUN": "throw"], ["good.stories"], 1),
        ("an after-run hook throws", ["STORYRUN_FAULT_AFTER_RUN": "throw"], ["good.stories"], 1),
        ("an undefined story under --strict", [:], ["--strict", "undefined.feature", "good.stories"], 1),
        ("a rejected .feature file", [:], ["good.stories", "broken.feature"], 2),
        ("a rejected .stories file", [:], ["order.stories", "good.stories"], 2),
        ("a path that names no file", [:], ["good.stories", "nope.stories"], 2),
    ])
    func mergeOfFailedRun(name: String, environment: [String: String], arguments: [String], expected: Int32) async throws {
        let folder = try Binary.temporaryFolder("merge-failed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (file, text) in Self.files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file)) }
        let environment = Self.faults.merging(environment) { $1 }
        let run = try await Binary.run(
            arguments + ["--json", "run.json", "--junit", "run.xml", "--messages", "run.ndjson"], in: folder, timeout: 60,
            environment: environment)
        #expect(run.status == expected, "\(name): \(run.output)\(run.errorOutput)")
        try Self.checkReports(folder + "/run", name: name, isRejected: expected == 2)

        let merge = try await Binary.run(
            ["merge", "run.ndjson", "--json", "merged.json", "--junit", "merged.xml", "--messages", "merged.ndjson"], in: folder,
            timeout: 60, environment: environment)
        #expect(merge.status == expected, "\(name): merge: \(merge.output)\(merge.errorOutput)")
        try Self.checkReports(folder + "/merged", name: name, isRejected: expected == 2)
        // The merged Messages stream says it all again.
        let again = try await Binary.run(["merge", "merged.ndjson"], in: folder, timeout: 60, environment: environment)
        #expect(again.status == expected, "\(name): merge of the merge: \(again.output)")
        // And --strict is accepted.
        let strict = try await Binary.run(["merge", "--strict", "run.ndjson"], in: folder, timeout: 60, environment: environment)
        #expect(strict.status == expected, "\(name): merge --strict: \(strict.output)")
    }

    @Test("merge --strict fails a non-strict run's undefined story; without it, the run's own strictness counts")
    func mergeStrict() async throws {
        let folder = try Binary.temporaryFolder("merge-strict")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (file, text) in Self.files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file)) }
        let run = try await Binary.run(["undefined.feature", "--json", "run.json"], in: folder, timeout: 60, environment: Self.faults)
        #expect(run.status == 0, "\(run.output)")
        #expect(try await Binary.run(["merge", "run.json"], in: folder, environment: Self.faults).status == 0)
        let strict = try await Binary.run(["merge", "--strict", "run.json", "--junit", "m.xml"], in: folder, environment: Self.faults)
        #expect(strict.status == 1, "\(strict.output)")
        let junit = try String(contentsOfFile: folder + "/m.xml", encoding: .utf8)
        #expect(junit.contains(#"type="undefined""#) && !junit.contains("<skipped>"), "\(junit)")
    }

    @Test("Shards that each rejected the same story file merge into one rejected file")
    func shardsRejectingOneFile() async throws {
        let folder = try Binary.temporaryFolder("merge-rejected")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (file, text) in Self.files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file)) }
        for shard in 1...2 {
            let run = try await Binary.run(
                ["--shard", "\(shard)/2", "good.stories", "broken.feature", "--messages", "s\(shard).ndjson"], in: folder, environment: Self.faults)
            #expect(run.status == 2, "\(run.output)")
        }
        let merge = try await Binary.run(["merge", "s1.ndjson", "s2.ndjson", "--junit", "m.xml"], in: folder, environment: Self.faults)
        #expect(merge.status == 2, "\(merge.output)")
        #expect(merge.output.contains("broken.feature:4:3: error: "), "\(merge.output)")
        #expect(merge.output.contains("storyrun: 1 problem in the input (above)"), "\(merge.output)")
        let junit = try String(contentsOfFile: folder + "/m.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: #"type="rejected""#).count == 2, "\(junit)")
    }

    /// The JUnit has a failure or an error (and validates against the
    /// JUnit 4 schema), and Messages says the run did not succeed (every
    /// envelope valid against the Messages schema), with a `parseError`
    /// for a rejected file.
    static func checkReports(_ base: String, name: String, isRejected: Bool) throws {
        let junit = try String(contentsOfFile: base + ".xml", encoding: .utf8)
        #expect(junit.contains("<failure ") || junit.contains("<error "), "\(name): \(junit)")
        #expect(!junit.contains(#"<testsuites name="storyrun" tests="1" failures="0" errors="0""#), "\(name): \(junit)")
        if isRejected {
            #expect(junit.contains(#"type="rejected""#), "\(name): \(junit)")
        }
        if JUnitReporterTests.xmllint != nil, Conformance.isAvailable("junit") {
            let (status, message) = try JUnitReporterTests.validate(base + ".xml")
            #expect(status == 0, "\(name): \(message)")
        }
        let messages = try String(contentsOfFile: base + ".ndjson", encoding: .utf8)
        #expect(messages.contains(#""success":false"#), "\(name): \(messages.suffix(300))")
        #expect(messages.contains(#""parseError""#) == isRejected, "\(name)")
        guard Conformance.isAvailable("messages") else { return }
        let checker = try SchemaChecker(path: Conformance.path("messages/messages.schema.json"))
        for (number, line) in messages.split(separator: "\n").enumerated() {
            let problems = checker.problems(in: try JSONSerialization.jsonObject(with: Data(line.utf8)))
            #expect(problems.isEmpty, "\(name): line \(number + 1): \(problems.joined(separator: "; "))")
        }
        // Cucumber JSON stays an array of features, each with a uri and
        // elements, and only the stories' (no feature of storyrun's own).
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + ".json"))) as? [[String: Any]]
        #expect(json?.allSatisfy { $0["uri"] is String && $0["elements"] is [Any] } == true, "\(name)")
        #expect(json?.allSatisfy { $0.keys.allSatisfy { !["storyrun_run_failed", "storyrun_rejected", "storyrun_run_hooks"].contains($0) } } == true, "\(name)")
        #expect(json?.allSatisfy { !($0["elements"] as? [Any] ?? []).isEmpty } == true, "\(name): a feature without stories")
    }
}

extension MergeOfFailedRunsEndToEndTests {
    /// Before, a run that failed only for what it gave as a note, or that
    /// left stories not run, wrote a record that merged green: a shard
    /// stopped between two stories merged to exit 0.
    @Test("Stories a run did not run are in its Messages stream, and a merge of it does not exit 0")
    func notRunStoriesMerge() async throws {
        let folder = try Binary.temporaryFolder("merge-failed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Story: first\n  Given a step that passes\n\nStory: slow\n  Given the step waits 3000 ms\n\nStory: third\n  Given a step that passes\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/a.stories"))
        let binary = try #require(Binary.path)
        let script = "'\(binary)' a.stories --messages a.ndjson > out.txt 2>&1 & pid=$!; sleep 1; kill -TERM $pid; wait $pid"
        _ = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        let lines = try String(contentsOfFile: folder + "/a.ndjson", encoding: .utf8).split(separator: "\n").map(String.init)
        let finished = try #require(lines.last { $0.contains(#""testRunFinished""#) })
        #expect(finished.contains(#""success":false"#) && finished.contains("not run: 1"), "\(finished)")
        // The same run stopped between its first two stories: its passed
        // story, and the run's note of the rest (the interrupted story's
        // test case taken out).
        let between = try #require(Self.without(story: "slow", lines))
        #expect(between.count < lines.count - 3)
        try Data((between.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/between.ndjson"))
        let merge = try await Binary.run(["merge", "between.ndjson", "--messages", "merged.ndjson"], in: folder, timeout: 60)
        #expect(merge.status == 1, "\(merge.output)\(merge.errorOutput)")
        #expect(merge.output.contains(" not run"), "\(merge.output)")
        let again = try await Binary.run(["merge", "merged.ndjson"], in: folder, timeout: 60)
        #expect(again.status == 1, "a merge of the merge: \(again.output)")
    }

    /// The stream without the test case of the story with this name: its
    /// `testCase`, its `testCaseStarted` and every envelope of that start.
    static func without(story name: String, _ lines: [String]) -> [String]? {
        let envelopes = lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
        func body(_ envelope: [String: Any]) -> [String: Any] { envelope.values.first as? [String: Any] ?? [:] }
        guard let pickleID = envelopes.compactMap({ $0["pickle"] as? [String: Any] }).first(where: { $0["name"] as? String == name })?["id"] as? String,
            let caseID = envelopes.compactMap({ $0["testCase"] as? [String: Any] }).first(where: { $0["pickleId"] as? String == pickleID })?["id"] as? String,
            let startID = envelopes.compactMap({ $0["testCaseStarted"] as? [String: Any] }).first(where: { $0["testCaseId"] as? String == caseID })?["id"] as? String
        else { return nil }
        return zip(lines, envelopes).filter { _, envelope in
            let fields = body(envelope)
            let isCase = envelope["testCase"] != nil && fields["id"] as? String == caseID
            let isStart = envelope["testCaseStarted"] != nil && fields["id"] as? String == startID
            return !isCase && !isStart && fields["testCaseStartedId"] as? String != startID
        }.map(\.0)
    }
}

extension MergeOfFailedRunsEndToEndTests {
    /// Cucumber JSON has no place for a run failure outside the stories, so
    /// a merge of it cannot fail for one: it says so, once, on standard error.
    @Test("A merge of Cucumber JSON notes once that run failures are not in it; a merge of Messages streams does not")
    func jsonMergeNote() async throws {
        let folder = try Binary.temporaryFolder("merge-note")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (file, text) in Self.files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file)) }
        for shard in 1...2 {
            let run = try await Binary.run(
                ["--shard", "\(shard)/2", "good.stories", "order.stories", "--json", "s\(shard).json", "--messages", "s\(shard).ndjson"],
                in: folder, timeout: 60, environment: Self.faults)
            #expect(run.status == 2, "\(run.output)")
        }
        let json = try await Binary.run(["merge", "s1.json", "s2.json"], in: folder, timeout: 60, environment: Self.faults)
        #expect(json.errorOutput.components(separatedBy: "Cucumber JSON cannot carry run hooks, rejected story files or stories not run").count == 2,
                "\(json.errorOutput)")
        #expect(json.errorOutput.contains("merge the shards' --messages streams instead, which is lossless"))
        #expect(json.status == 0, "the JSON does not say the file was rejected: \(json.output)")
        let messages = try await Binary.run(["merge", "s1.ndjson", "s2.ndjson"], in: folder, timeout: 60, environment: Self.faults)
        #expect(!messages.errorOutput.contains("Cucumber JSON"), "\(messages.errorOutput)")
        #expect(messages.status == 2, "\(messages.output)")
    }
}
