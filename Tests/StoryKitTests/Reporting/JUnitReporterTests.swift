import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import StoryKit

/// The JUnit report is XML that CI systems read: valid against the JUnit 4
/// schema and readable by an XML parser, whatever the stories hold.
@Suite(.timeLimit(.minutes(10))) struct JUnitReporterTests {
    /// The JUnit goldens, each written by a fixture run.
    static let goldens = Golden.files(in: "reporting", withExtension: "junit.xml")

    /// Where xmllint is installed, if it is.
    static let xmllint: String? = ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Validates a JUnit file against the JUnit 4 schema with xmllint:
    /// its exit status and what it said.
    static func validate(_ path: String) throws -> (status: Int32, message: String) {
        let outcome = try Binary.tool(
            try #require(xmllint), ["--noout", "--schema", Conformance.path("junit/junit-4.xsd"), path], timeout: 120)
        try #require(!outcome.isTimedOut, "xmllint did not finish within 120 seconds")
        return (outcome.status, outcome.errorOutput)
    }

    @Test("Every JUnit golden validates against the JUnit 4 schema",
          .enabled(if: xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils)"), .conformance("junit"),
          arguments: goldens)
    func validatesAgainstSchema(name: String) throws {
        let (status, message) = try Self.validate(Golden.fixture("reporting/" + name))
        #expect(status == 0, "\(message)")
    }

    @Test("There is a JUnit golden for every fixture story file")
    func everyFixtureHasAGolden() {
        let expected = ReportGoldenTests.inputs.map { $0 + ".junit.xml" } + ["dry-run.junit.xml", "rejected-file.junit.xml"]
        #expect(Set(Self.goldens) == Set(expected))
    }

    @Test("XMLParser reads the suites, cases, failures and skips of a run")
    func parses() async throws {
        let run = try await ReportGoldenTests.run(["failing.stories", "undefined.stories", "unicode-and-markup.stories"])
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(run["junit.xml"].utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let suites = collector.elements.filter { $0.name == "testsuite" }
        #expect(suites.map { $0.attributes["name"] } == [
            "Fixtures/stories/good/failing.stories", "Fixtures/stories/good/undefined.stories",
            "Fixtures/stories/good/unicode-and-markup.stories",
        ])
        #expect(suites.map { $0.attributes["tests"] } == ["4", "1", "4"])
        #expect(suites.map { $0.attributes["failures"] } == ["4", "0", "2"])
        #expect(suites.map { $0.attributes["skipped"] } == ["0", "1", "1"])
        let root = try #require(collector.elements.first)
        #expect(root.name == "testsuites")
        #expect(root.attributes["tests"] == "9")
        #expect(root.attributes["failures"] == "6")
        let cases = collector.elements.filter { $0.name == "testcase" }
        #expect(cases.contains { $0.attributes["name"] == #"Zoë's "<script>alert('x')</script>" receipt — 50% off, 2 × 3"# })
        let failures = collector.elements.filter { $0.name == "failure" }
        let jam = try #require(failures.first { $0.attributes["message"]?.contains("printer") == true })
        #expect(jam.attributes["message"] == "the printer jammed on <img src=x onerror=alert(1)> & ]]> ]]> </pre> 100%, 'done'")
        #expect(jam.text.contains("When the printer prints"))
        #expect(jam.text.hasSuffix("Fixtures/stories/good/unicode-and-markup.stories:11"))
        let skipped = try #require(collector.elements.first { $0.name == "skipped" && $0.text.contains("tip") })
        #expect(skipped.text == #"undefined steps: When I tip 5 € to "Zoë & <Co>""#)
    }

    @Test("XML escaping escapes markup and drops characters XML 1.0 forbids", arguments: [
        ("a<b>&c", false, "a&lt;b&gt;&amp;c"),
        ("say \"hi\"", true, "say &quot;hi&quot;"),
        ("say \"hi\"", false, "say \"hi\""),
        ("line\nbreak\ttab", true, "line&#10;break&#9;tab"),
        ("line\nbreak", false, "line\nbreak"),
        ("bell\u{07}null\u{0}esc\u{1B}", false, "bellnullesc"),
        ("\u{FFFE}ok\u{FFFF} 🍎 ü", false, "ok 🍎 ü"),
    ])
    func escapes(text: String, isAttribute: Bool, expected: String) {
        #expect(text.xmlEscaped(isAttribute: isAttribute) == expected)
    }
}

/// Collects each element's name, attributes and text.
final class ElementCollector: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    var elements: [Element] = []
    private var open: [Int] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }
}

extension JUnitReporterTests {
    /// Before, a failure message of 10 MB or more on one line went whole
    /// into the `message` attribute and the failure's text: xmllint (and
    /// every libxml2 reader: Nokogiri, GitLab) refused the report.
    @Test("A failure with a 12 MB message makes a report xmllint reads, the message cut with a note",
          .enabled(if: xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils)"), .conformance("junit"))
    func hugeFailureMessage() async throws {
        let folder = try Binary.temporaryFolder("junit")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Story: huge\n  Given the step fails with a 12 MB message on one line\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/h.stories"))
        let outcome = try await Binary.run(["h.stories", "--junit", "out.xml"], in: folder, timeout: 120, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(outcome.status == 1, "\(outcome.errorOutput)")
        let (status, message) = try Self.validate(folder + "/out.xml")
        #expect(status == 0, "\(message.prefix(2000))")
        let report = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(report.contains("(failure cut: ") && report.contains("reports keep the first 1048576)"), "the note")
        #expect(report.utf8.count < 3 << 20, "\(report.utf8.count) bytes")
    }

    @Test("Outline rows named alike get their row, as cucumber-ruby writes; a failure's type is its kind; a skip says why",
          .enabled(if: xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils)"), .conformance("junit"))
    func rowsTypesAndSkips() async throws {
        let folder = try Binary.temporaryFolder("junit-rows")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let feature = """
            Feature: Basket

              Scenario Outline: adding apples
                Given an empty basket
                When I add <n> apples to the basket
                Then the basket is empty

                Examples:
                  | n |
                  | 0 |
                  | 1 |

              Scenario Outline: adding <n> more
                Given an empty basket
                When I add <n> apples to the basket

                Examples:
                  | n |
                  | 2 |

            """
        try feature.write(toFile: folder + "/b.feature", atomically: true, encoding: .utf8)
        let run = try await Binary.run(["b.feature", "--junit", "out.xml"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1"])
        #expect(run.status == 1, "\(run.output)")
        let (status, message) = try Self.validate(folder + "/out.xml")
        #expect(status == 0, "\(message)")
        let report = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(report.contains(#"name="adding apples (outline example : | 0 |)""#), "\(report)")
        #expect(report.contains(#"name="adding apples (outline example : | 1 |)""#), "\(report)")
        #expect(report.contains(#"name="adding 2 more""#), "\(report)")
        #expect(report.contains(#"type="StoryKit.ExpectationFailure""#), "\(report)")
        #expect(!report.contains(#"type="failed""#), "\(report)")

        // A skip is a dry run's only when the run was a dry run.
        let dry = try await Binary.run(["b.feature", "--dry-run", "--junit", "dry.xml"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1"])
        #expect(dry.status == 0, "\(dry.output)")
        #expect(try String(contentsOfFile: folder + "/dry.xml", encoding: .utf8).contains("<skipped>dry run</skipped>"))
    }

    @Test("Stories --fail-fast left out are skipped test cases that say so, by name",
          .enabled(if: xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils)"), .conformance("junit"))
    func notRunAfterFailFast() async throws {
        let folder = try Binary.temporaryFolder("junit-fail-fast")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let feature = """
            Feature: Stop early

              Scenario: first fails
                Given step 1 fails

              Scenario: second never runs
                Given step 2 passes

              Scenario: third never runs
                Given step 3 passes

            """
        try feature.write(toFile: folder + "/stop.feature", atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            ["stop.feature", "--fail-fast", "--junit", "out.xml"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "consistency"])
        #expect(run.status == 1, "\(run.output)")
        let (status, message) = try Self.validate(folder + "/out.xml")
        #expect(status == 0, "\(message)")
        let report = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        let notRun = report.components(separatedBy: "<skipped>not run: --fail-fast stopped the run after a failure</skipped>").count - 1
        #expect(run.output.contains("\(notRun) not run") && notRun >= 1, "\(run.output)\n\(report)")
        #expect(report.contains(#"tests="3""#) && report.contains(#"name="third never runs""#), "\(report)")
        #expect(report.contains(#"skipped="\#(notRun)""#), "\(report)")
    }

    @Test("--junit-places gives each test case its file and line; without it the file keeps to the JUnit 4 schema")
    func places() async throws {
        let folder = try Binary.temporaryFolder("junit-places")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "Feature: Places\n\n  Scenario: here\n    Given step 1 fails\n".write(toFile: folder + "/p.feature", atomically: true, encoding: .utf8)
        let environment = ["STORYRUN_FIXTURE_STEPS": "consistency"]
        let with = try await Binary.run(["p.feature", "--junit-places", "--junit", "with.xml"], in: folder, timeout: 60, environment: environment)
        #expect(with.status == 1, "\(with.output)")
        let collector = ElementCollector()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: folder + "/with.xml")))
        parser.delegate = collector
        #expect(parser.parse())
        let testCase = try #require(collector.elements.first { $0.name == "testcase" })
        #expect(testCase.attributes["file"] == "p.feature" && testCase.attributes["line"] == "3", "\(testCase.attributes)")
        let without = try await Binary.run(["p.feature", "--junit", "without.xml"], in: folder, timeout: 60, environment: environment)
        #expect(without.status == 1)
        #expect(try !String(contentsOfFile: folder + "/without.xml", encoding: .utf8).contains(" file="))
    }
}
