import Foundation
import Testing

@testable import StoryKit

/// Runs the official Cucumber Gherkin test data: every good file must
/// compile to the official pickles, every bad file must give the official errors.
@Suite(.timeLimit(.minutes(10)), .conformance("gherkin")) struct GherkinConformanceTests {
    @Test("The official test data is there")
    func fixturesArePresent() {
        #expect(GherkinFixtures.features(in: "good").count == 40)
        #expect(GherkinFixtures.features(in: "bad").count == 9)
    }

    @Test("Good feature files compile to the official pickles", arguments: GherkinFixtures.features(in: "good"))
    func goodFile(name: String) throws {
        let text = try GherkinFixtures.read("good", name)
        let expected = try GherkinFixtures.ndjson("good", name + ".pickles.ndjson").map(GherkinFixtures.canonical)
        let (lines, diagnostics) = FeatureFile.pickleLines(text, uri: "../testdata/good/" + name)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.problem))")
        let actual = lines.map(GherkinFixtures.canonical)
        #expect(actual.count == expected.count)
        for (mine, theirs) in zip(actual, expected) {
            #expect(mine == theirs)
        }
    }

    @Test("Bad feature files give the official errors", arguments: GherkinFixtures.features(in: "bad"))
    func badFile(name: String) throws {
        let text = try GherkinFixtures.read("bad", name)
        let expected = try GherkinFixtures.ndjson("bad", name + ".errors.ndjson").map(Self.officialError)
        let (lines, diagnostics) = FeatureFile.pickleLines(text, uri: "../testdata/bad/" + name)
        #expect(lines.isEmpty)
        let actual = diagnostics.map { diagnostic in
            let line = diagnostic.location?.line ?? 0
            let column = diagnostic.location?.column ?? 0
            return "(\(line):\(column)): \(diagnostic.problem) @\(line):\(column) \(diagnostic.severity)"
        }
        #expect(actual == expected)
    }

    /// Reads an official `parseError` line as `message @line:column error`.
    static func officialError(_ json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let error = object["parseError"] as? [String: Any],
            let message = error["message"] as? String,
            let source = error["source"] as? [String: Any],
            let location = source["location"] as? [String: Any]
        else { return "unreadable: " + json }
        let line = (location["line"] as? Int) ?? 0
        let column = (location["column"] as? Int) ?? 0
        return "\(message) @\(line):\(column) error"
    }
}
