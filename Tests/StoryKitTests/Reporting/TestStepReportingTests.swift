import Foundation
import Testing
@testable import StoryKit

/// Every report tells the same truth about hooks, retries and attachments:
/// a story whose hook failed is failed everywhere, with the hook and its
/// reason; a flaky story is flaky everywhere; attachments reach every
/// format that has a place for them.
@Suite(.timeLimit(.minutes(10))) struct TestStepReportingTests {
    static let file = Golden.fixture("stories/control/hooks.stories")
    static let hookPlace = StoryKit.SourceLocation(file: "Sources/Shop/ShopSteps.swift", line: 21)

    static func step(_ text: String, line: Int, _ status: StepStatus, error: StepError? = nil, attachments: [StoryKit.Attachment] = []) -> StepResult {
        let step = Step(keyword: "Given", kind: .context, text: text, location: StoryKit.SourceLocation(file: file, line: line))
        var result = StepResult(step: step, status: status, duration: 1_000, error: error, match: nil, alsoMatched: [])
        result.attachments = attachments
        return result
    }

    static func hook(_ kind: String, _ status: StepStatus, attachments: [StoryKit.Attachment] = []) -> HookResult {
        let error = status == .failed
            ? StepError(message: "the \(kind) hook at Sources/Shop/ShopSteps.swift:21 failed: the database is down", location: StoryKit.SourceLocation(file: "Sources/Shop/ShopSteps.swift", line: 23))
            : nil
        return HookResult(kind: kind, location: hookPlace, status: status, error: error, duration: 500, attachments: attachments)
    }

    /// Three stories: a before hook fails; passes on its second attempt
    /// with attachments; an after hook fails.
    static var results: [StoryResult] {
        let story1 = Story(name: "A failing before hook", location: StoryKit.SourceLocation(file: file, line: 11), steps: [])
        let failedBefore = StoryResult(story: story1, status: .failed, testSteps: [
            .hook(hook("before story", .failed)), .step(step("an empty basket", line: 12, .skipped)),
        ], duration: 1_500)
        let story2 = Story(name: "Flaky with attachments", location: StoryKit.SourceLocation(file: file, line: 1), steps: [])
        let log = StoryKit.Attachment(body: "connected to the shop", encoding: .identity, mediaType: StoryKit.Attachment.logMediaType)
        let json = StoryKit.Attachment(body: #"{"total": 3}"#, encoding: .identity, mediaType: "application/json", name: "response")
        let png = StoryKit.Attachment(body: "iVBORw0KGgo=", encoding: .base64, mediaType: "image/png", name: "screen.png")
        var flaky = StoryResult(story: story2, status: .passed, testSteps: [
            .hook(hook("before story", .passed, attachments: [log])),
            .step(step("an empty basket", line: 2, .passed, attachments: [json, png])),
        ], duration: 2_000)
        flaky.earlierAttempts = [StoryAttempt(status: .failed, testSteps: [
            .hook(hook("before story", .passed)),
            .step(step("an empty basket", line: 2, .failed, error: StepError(message: "timed out"))),
        ], duration: 2_000)]
        let story3 = Story(name: "A failing after hook", location: StoryKit.SourceLocation(file: file, line: 6), steps: [])
        let failedAfter = StoryResult(story: story3, status: .failed, testSteps: [
            .step(step("the after hook will fail", line: 7, .passed)), .hook(hook("after story", .failed)),
        ], duration: 1_500)
        return [failedBefore, flaky, failedAfter]
    }

    /// Every report of a run of these results, by format.
    static func reports() throws -> [String: String] {
        let folder = NSTemporaryDirectory() + "storyrun-teststeps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text: [String: [String]] = [:]
        let runHook = HookResult(kind: "before run", location: hookPlace, status: .failed, error: StepError(message: "the before run hook failed: no server", location: hookPlace), duration: 10)
        var reporters: [(String, any Reporter)] = [
            ("summary", TextReporter(style: .plain, write: { text["summary", default: []].append($0) })),
            ("progress", ProgressReporter(style: .plain, write: { text["progress", default: []].append($0) })),
            ("pretty", PrettyReporter(style: .plain, write: { text["pretty", default: []].append($0) })),
            ("github", GitHubReporter(write: { text["github", default: []].append($0) })),
            ("html", HTMLReporter(path: folder + "/r.html")),
            ("json", CucumberJSONReporter(path: folder + "/r.json")),
            ("junit", JUnitReporter(path: folder + "/r.xml")),
            ("messages", MessagesReporter(path: folder + "/r.ndjson", startTime: Date(timeIntervalSince1970: 0))),
        ]
        func emit(_ event: RunEvent) { for index in reporters.indices { reporters[index].1.handle(event) } }
        emit(.runStarted(fileCount: 1))
        emit(.runHookFinished(runHook))
        var summary = RunSummary()
        summary.failedHooks = 1
        for result in results {
            emit(.storyStarted(result.story))
            for step in result.steps { emit(.stepFinished(step)) }
            summary.add(result)
            emit(.storyFinished(result))
        }
        emit(.runFinished(summary))
        for index in reporters.indices { try reporters[index].1.finish() }
        var out = text.mapValues { $0.joined(separator: "\n") }
        for (name, ext) in [("html", "html"), ("json", "json"), ("junit", "xml"), ("messages", "ndjson")] {
            out[name] = try String(contentsOfFile: "\(folder)/r.\(ext)", encoding: .utf8)
        }
        return out
    }

    @Test("A failed before or after hook is a failure with its reason and Swift line in every format")
    func hookFailures() throws {
        let reports = try Self.reports()
        for format in ["summary", "progress", "pretty", "github", "html", "junit"] {
            #expect(reports[format]?.contains("the database is down") == true, "\(format) gives the hook's reason")
            #expect(reports[format]?.contains("ShopSteps.swift:23") == true, "\(format) gives the hook's Swift line")
        }
        let junit = reports["junit"] ?? ""
        #expect(junit.components(separatedBy: "<failure ").count - 1 == 3, "two stories and the run hook fail")
        #expect(junit.contains(#"<testcase classname="run hooks" name="before run hook""#))
        #expect(reports["github"]?.components(separatedBy: "::error ").count == 3, "one annotation per failed hook")
        #expect(reports["html"]?.contains(#"{"h":"Before story","s":"failed""#) == true)
        #expect(reports["html"]?.contains("Before run hook") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data((reports["json"] ?? "").utf8)) as? [[String: Any]])
        let elements = json[0]["elements"] as? [[String: Any]] ?? []
        let before = (elements[0]["before"] as? [[String: Any]])?.first?["result"] as? [String: Any]
        #expect(before?["status"] as? String == "failed")
        let after = (elements[2]["after"] as? [[String: Any]])?.first?["result"] as? [String: Any]
        #expect(after?["status"] as? String == "failed")
        let messages = reports["messages"] ?? ""
        #expect(messages.contains(#""type":"BEFORE_TEST_CASE""#))
        #expect(messages.contains(#""testRunHookFinished""#))
        #expect(messages.contains(#""hookId""#))
        // A failed hook's message is the error's (its hookId names the hook),
        // then where it threw and the hook's place, each once.
        #expect(messages.contains(#""message":"the database is down\nat Sources/Shop/ShopSteps.swift:23\nSources/Shop/ShopSteps.swift:21""#))
        #expect(!messages.contains(#"hook at Sources/Shop/ShopSteps.swift:21 failed"#))
        // A failed step's or hook's exception has a trace: the throw's place, then the hook's.
        #expect(messages.contains(#""stackTrace":"HookError: the database is down\n    at Sources/Shop/ShopSteps.swift:23\n    at Sources/Shop/ShopSteps.swift:21""#))
    }

    @Test("A story that passed on its second attempt is flaky in every format")
    func retries() throws {
        let reports = try Self.reports()
        #expect(try HTMLPageData.stories(in: reports["html"] ?? "").contains { $0["a"] as? Int == 2 && $0["fl"] as? Int == 1 })
        #expect(reports["junit"]?.contains("flaky: passed on attempt 2") == true)
        #expect(reports["pretty"]?.contains("flaky: passed on attempt 2") == true)
        let messages = reports["messages"] ?? ""
        #expect(messages.contains(#""attempt":1"#))
        #expect(messages.contains(#""willBeRetried":true"#))
    }

    @Test("Attachments reach HTML, Cucumber JSON, Messages and JUnit")
    func attachments() throws {
        let reports = try Self.reports()
        let html = reports["html"] ?? ""
        #expect(html.contains(#"{"k":"img","b":"data:image/png;base64,iVBORw0KGgo=""#))
        #expect(html.contains(#"{"k":"txt","l":"response (application/json)""#))
        #expect(html.contains("connected to the shop"))
        let json = reports["json"] ?? ""
        #expect(json.contains(#""output":["connected to the shop"]"#))
        #expect(json.contains(#""mime_type":"image/png","data":"iVBORw0KGgo=""#))
        #expect(reports["messages"]?.contains(#""attachment":{"body":"iVBORw0KGgo=","contentEncoding":"BASE64""#) == true)
        #expect(reports["junit"]?.contains("connected to the shop") == true)
    }

    @Test("Merging the Cucumber JSON keeps hooks, attachments and failures: nothing failed reads as passed")
    func mergeKeepsHooks() throws {
        let reports = try Self.reports()
        let input = try MergeCommandTests.temporaryFile(reports["json"] ?? "", name: "in.json")
        let merged = try CucumberJSONDecoder.decode(Data(contentsOf: URL(fileURLWithPath: input)), path: input)
        #expect(merged.map(\.status) == [.failed, .passed, .failed])
        #expect(merged[0].firstFailure?.hookResult?.error?.message.contains("the database is down") == true)
        #expect(merged[0].firstFailure?.hookResult?.error?.location?.line == 23)
        #expect(merged[1].isFlaky)
        #expect(merged[1].steps[0].attachments.count == 2)
        #expect(merged[2].firstFailure?.hookResult?.kind == "after story")
        var lines: [String] = []
        let status = MergeCommand.run(arguments: [input], output: { lines.append($0) })
        #expect(status == .storyFailed)
        #expect(lines.contains { $0.hasPrefix("FAILED  A failing before hook") })
    }

    @Test("Every envelope is valid against the official Messages schema (jsonschema, Draft 2020-12)", .conformance("messages"))
    func messagesSchema() async throws {
        var paths = Golden.files(in: "reporting", withExtension: "ndjson").map { Golden.fixture("reporting/" + $0) }
        let folder = NSTemporaryDirectory() + "storyrun-schema-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let own = folder + "/hooks.ndjson"
        try (try Self.reports()["messages"] ?? "").write(toFile: own, atomically: true, encoding: .utf8)
        paths.append(own)
        let feature = folder + "/feature.ndjson"
        _ = await StoryRun.run(
            arguments: ["--messages", feature, Golden.fixture("features/basket.feature"), Golden.fixture("cucumber-json/features/shop.feature")],
            steps: [], output: { _ in })
        paths.append(feature)
        let (status, output) = try Self.python([Golden.fixture("messages/validate.py"), Conformance.path("messages/messages.schema.json")] + paths)
        if status == 3 {
            Issue.record("python3 with jsonschema is needed: `make test` installs it (pip install jsonschema)")
            return
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains(" envelopes valid, 0 invalid"))
    }

    /// Runs python3 within a time limit: its exit status and what it
    /// printed (standard output, then standard error).
    static func python(_ arguments: [String]) throws -> (Int32, String) {
        let outcome = try Binary.tool("/usr/bin/env", ["python3"] + arguments, timeout: 120)
        try #require(!outcome.isTimedOut, "python3 did not finish within 120 seconds")
        return (outcome.status, outcome.output + outcome.errorOutput)
    }
}
