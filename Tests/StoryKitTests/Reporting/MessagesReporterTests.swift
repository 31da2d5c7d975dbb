import Foundation
import Testing
@testable import StoryKit

/// The Cucumber Messages stream conforms to the protocol's schema and tells
/// the story of the run in the order readers expect.
@Suite(.timeLimit(.minutes(10))) struct MessagesReporterTests {
    static let goldens = Golden.files(in: "reporting", withExtension: "ndjson")

    @Test("Every envelope of every messages golden has the schema's required fields and types", .conformance("messages"), arguments: goldens)
    func conformsToSchema(name: String) throws {
        let checker = try SchemaChecker(path: Conformance.path("messages/messages.schema.json"))
        let text = try String(contentsOfFile: Golden.fixture("reporting/" + name), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty)
        for (number, line) in lines.enumerated() {
            let envelope = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let problems = checker.problems(in: envelope)
            #expect(problems.isEmpty, "line \(number + 1): \(problems.joined(separator: "; "))")
        }
    }

    @Test("The checker finds a missing field, a wrong type, a bad enum value and an unknown message", .conformance("messages"), arguments: [
        (#"{"testRunFinished":{"timestamp":{"seconds":0,"nanos":0}}}"#, #"missing required "success""#),
        (#"{"testRunFinished":{"success":"yes","timestamp":{"seconds":0,"nanos":0}}}"#, "expected boolean"),
        (#"{"testRunStarted":{"timestamp":{"seconds":0.5,"nanos":0}}}"#, "expected integer"),
        (#"{"testStepFinished":{"testCaseStartedId":"1","testStepId":"2","timestamp":{"seconds":0,"nanos":0},"testStepResult":{"status":"passed","duration":{"seconds":0,"nanos":0}}}}"#, "is not one of"),
        (#"{"story":{}}"#, #"unknown property "story""#),
    ])
    func checkerFindsProblems(line: String, expected: String) throws {
        let checker = try SchemaChecker(path: Conformance.path("messages/messages.schema.json"))
        let problems = checker.problems(in: try JSONSerialization.jsonObject(with: Data(line.utf8)))
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }

    @Test("The stream refers only to IDs it has defined, in order")
    func references() async throws {
        let run = try await ReportGoldenTests.run(["failing.stories", "ambiguous.stories", "unicode-and-markup.stories"])
        var defined: Set<String> = []
        var kinds: [String] = []
        for line in run["ndjson"].split(separator: "\n") {
            let envelope = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]])
            let (kind, message) = try #require(envelope.first)
            kinds.append(kind)
            for key in ["pickleId", "testCaseId", "testCaseStartedId", "testStepId", "testRunStartedId"] {
                if let id = message[key] as? String { #expect(defined.contains(id), "\(kind).\(key) \(id) is not defined before") }
            }
            for step in message["testSteps"] as? [[String: Any]] ?? [] {
                for id in [step["pickleStepId"] as? String].compactMap({ $0 }) + (step["stepDefinitionIds"] as? [String] ?? []) {
                    #expect(defined.contains(id), "\(id) is not defined before")
                }
                if let id = step["id"] as? String { defined.insert(id) }
            }
            for step in message["steps"] as? [[String: Any]] ?? [] { if let id = step["id"] as? String { defined.insert(id) } }
            if let id = message["id"] as? String { #expect(defined.insert(id).inserted, "\(id) defined twice") }
        }
        #expect(kinds.first == "meta")
        #expect(kinds.last == "testRunFinished")
        #expect(kinds.filter { $0 == "source" }.count == 3)
        #expect(kinds.filter { $0 == "pickle" }.count == 9)
        #expect(kinds.filter { $0 == "testCaseFinished" }.count == 9)
        #expect(run["ndjson"].contains(#""testRunFinished":{"success":false"#))
        #expect(run["ndjson"].contains(#""status":"UNDEFINED""#))
    }
}
