import Foundation
import Testing
@testable import StoryKit

/// Allure results, checked by Allure's own Python model
/// (`allure-python-commons`) and against what allure-behave writes for the
/// same feature.
@Suite(.timeLimit(.minutes(10))) struct AllureReporterTests {
    /// Whether python3 can load allure-python-commons (`make test-tools` installs it).
    static let hasAllure: Bool = {
        let outcome = try? Binary.run(
            ["python3", "-c", "import allure_commons.model2"], in: NSTemporaryDirectory(), executable: "/usr/bin/env", timeout: 30)
        return outcome?.status == 0
    }()
    /// Whether allure-behave and behave are there too.
    static let hasBehave: Bool = {
        let outcome = try? Binary.run(
            ["python3", "-c", "import allure_behave, behave"], in: NSTemporaryDirectory(), executable: "/usr/bin/env", timeout: 30)
        return outcome?.status == 0
    }()

    static let feature = """
        @shop
        Feature: Shop

          Scenario Outline: an outline row
            Given step <n> passes
            And step 3 attaches

            Examples:
              | n |
              | 1 |
              | 2 |

          @slow
          Scenario: a failure
            Given step 4 fails

          Scenario: a flaky one
            Given step 5 passes on attempt 2

        """

    struct Validated: Decodable {
        struct Result: Decodable {
            var name: String
            var status: String
            var historyId: String
            var testCaseId: String
            var flaky: Bool
            var message: String?
            var parameters: [String: String]
            var labels: [String]
            var steps: [[Value]]
        }
        enum Value: Decodable, Equatable {
            case text(String), number(Int)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Int.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
            }
        }
        var results: [Result]
        var errors: [String]
        var missing: [String]
    }

    /// Runs the feature with `--allure`, then validates the folder.
    static func runAndValidate(in folder: String, results: String, behave: String? = nil) async throws -> Validated {
        let run = try await Binary.run(
            ["shop.feature", "--retry", "1", "--allure", results], in: folder, timeout: 60,
            environment: ["STORYRUN_FIXTURE_STEPS": "consistency"])
        #expect(run.status == 1, "\(run.output)\(run.errorOutput)")
        let script = Golden.root + "/Tests/Allure/validate_allure.py"
        let validated = try await Binary.run(
            ["python3", script, folder + "/" + results] + (behave.map { ["--behave", $0] } ?? []), in: folder,
            executable: "/usr/bin/env", timeout: 60)
        #expect(validated.status == 0, "\(validated.output)\(validated.errorOutput)")
        return try JSONDecoder().decode(Validated.self, from: Data(validated.output.utf8))
    }

    @Test("Every result loads into allure-python-commons' model, with its steps, attachments, labels and row",
          .enabled(if: hasAllure, "allure-python-commons is not installed (make test-tools installs it)"))
    func loadsIntoAllureModel() async throws {
        let folder = try Binary.temporaryFolder("allure")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.feature.write(toFile: folder + "/shop.feature", atomically: true, encoding: .utf8)
        let first = try await Self.runAndValidate(in: folder, results: "allure-results")
        #expect(first.errors.isEmpty, "\(first.errors)")
        // Two rows, a failure run twice, a flaky story run twice.
        #expect(first.results.count == 6, "\(first.results.map(\.name))")
        let rows = first.results.filter { $0.name == "an outline row" }
        #expect(Set(rows.map(\.parameters)) == [["n": "1"], ["n": "2"]])
        #expect(Set(rows.map(\.historyId)).count == 2 && Set(rows.map(\.testCaseId)).count == 1)
        #expect(rows.allSatisfy { $0.status == "passed" && $0.steps.count == 2 && $0.steps[1] == [.text("And step 3 attaches"), .text("passed"), .number(2)] })
        let row = try #require(rows.first)
        for label in ["feature=Shop", "story=an outline row", "suite=Shop", "parentSuite=.", "tag=shop", "framework=storyrun", "language=swift"] {
            #expect(row.labels.contains(label), "\(row.labels)")
        }
        #expect(row.labels.contains { $0.hasPrefix("host=") } && row.labels.contains { $0.hasPrefix("thread=") })
        let failures = first.results.filter { $0.name == "a failure" }
        #expect(failures.count == 2 && failures.allSatisfy { $0.status == "failed" && $0.labels.contains("tag=slow") })
        #expect(Set(failures.map(\.historyId)).count == 1, "retries share a historyId, so Allure shows them as retries")
        #expect(failures.first?.message?.contains("step 4 was told to fail") == true)
        let flaky = first.results.filter { $0.name == "a flaky one" }
        #expect(flaky.map(\.status).sorted() == ["failed", "passed"])
        #expect(flaky.first { $0.status == "passed" }?.flaky == true)

        // Another run: the same historyIds, in new files.
        try? FileManager.default.removeItem(atPath: folder + "/.attempts")
        let second = try await Self.runAndValidate(in: folder, results: "again")
        #expect(Set(second.results.map(\.historyId)) == Set(first.results.map(\.historyId)))
    }

    @Test("Every field allure-behave writes for the same feature, storyrun writes too",
          .enabled(if: hasAllure && hasBehave, "allure-behave is not installed (make test-tools installs it)"))
    func sameFieldsAsAllureBehave() async throws {
        let folder = try Binary.temporaryFolder("allure-behave")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/features/steps", withIntermediateDirectories: true)
        try Self.feature.write(toFile: folder + "/features/shop.feature", atomically: true, encoding: .utf8)
        try Self.feature.write(toFile: folder + "/shop.feature", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Golden.root + "/Tests/Allure/behave_steps.py", toPath: folder + "/features/steps/steps.py")
        let behave = try await Binary.run(
            ["python3", "-m", "behave", "-f", "allure_behave.formatter:AllureFormatter", "-o", folder + "/behave-results", "features"],
            in: folder, executable: "/usr/bin/env", timeout: 60)
        #expect(behave.status == 1, "behave runs the failing scenario: \(behave.output)\(behave.errorOutput)")
        let validated = try await Self.runAndValidate(in: folder, results: "allure-results", behave: folder + "/behave-results")
        #expect(validated.errors.isEmpty, "\(validated.errors)")
        // allure-behave's default severity label is its own: storyrun has no severities.
        #expect(validated.missing == ["label.severity"], "\(validated.missing)")
    }

    @Test("--allure naming a file is a usage error that leaves the file; a folder's earlier results stay")
    func folderOnly() async throws {
        let folder = try Binary.temporaryFolder("allure-folder")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.feature.write(toFile: folder + "/shop.feature", atomically: true, encoding: .utf8)
        try "keep me".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let environment = ["STORYRUN_FIXTURE_STEPS": "consistency"]
        let file = try await Binary.run(["shop.feature", "--allure", "notes.txt"], in: folder, timeout: 60, environment: environment)
        #expect(file.status == 2, "\(file.output)\(file.errorOutput)")
        #expect((file.output + file.errorOutput).contains("--allure notes.txt is a file, not a folder"))
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "keep me")

        try FileManager.default.createDirectory(atPath: folder + "/results", withIntermediateDirectories: true)
        try "{}".write(toFile: folder + "/results/earlier-result.json", atomically: true, encoding: .utf8)
        let run = try await Binary.run(["shop.feature", "--allure", "results"], in: folder, timeout: 60, environment: environment)
        #expect(run.status == 1, "\(run.output)\(run.errorOutput)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/results")
        #expect(names.contains("earlier-result.json"))
        #expect(names.filter { $0.hasSuffix("-result.json") }.count == 5, "\(names)")
    }

    /// A result with every kind of field: optional ones set and left out,
    /// text that needs escaping (quotes, a slash, control characters).
    static let sampleResult = AllureResult(
        uuid: "u-1", historyId: "h", testCaseId: "t", fullName: "a/b.feature: \"Pay\"", name: "Pay\\now\n\ttab\u{01}\u{7f}é😀",
        status: .failed, statusDetails: AllureStatusDetails(message: "expected 1/2", trace: nil, flaky: true),
        start: 1_700_000_000_123, stop: -5,
        steps: [
            AllureStep(name: "Given a", status: .passed, statusDetails: nil, start: 0, stop: 9_223_372_036_854_775_807, attachments: []),
            AllureStep(
                name: "Then b", status: .broken, statusDetails: AllureStatusDetails(message: nil, trace: "at x:1", flaky: nil),
                start: 1, stop: 2, attachments: [AllureAttachment(name: "log", source: "s-attachment.txt", type: "text/plain")]),
        ],
        attachments: [AllureAttachment(name: "shot", source: "p.png", type: "image/png")],
        parameters: [AllureParameter(name: "n", value: "")], labels: [AllureLabel(name: "tag", value: "@a")], titlePath: ["a", "b/c"])

    @Test("A result file's bytes: every field in order, optional ones left out when unset, text escaped")
    func resultBytes() throws {
        let text = String(decoding: AllureReporter.encoded(Self.sampleResult), as: UTF8.self)
        #expect(text == Self.expectedResult)
    }

    static let expectedResult = #"{"uuid":"u-1","historyId":"h","testCaseId":"t","fullName":"a/b.feature: \"Pay\"","name":"Pay\\now\n\ttab\u0001\#u{7f}é😀","status":"failed","statusDetails":{"message":"expected 1/2","flaky":true},"stage":"finished","start":1700000000123,"stop":-5,"steps":[{"name":"Given a","status":"passed","stage":"finished","start":0,"stop":9223372036854775807,"attachments":[]},{"name":"Then b","status":"broken","statusDetails":{"trace":"at x:1"},"stage":"finished","start":1,"stop":2,"attachments":[{"name":"log","source":"s-attachment.txt","type":"text/plain"}]}],"attachments":[{"name":"shot","source":"p.png","type":"image/png"}],"parameters":[{"name":"n","value":""}],"labels":[{"name":"tag","value":"@a"}],"titlePath":["a","b/c"]}"#
}

