import Foundation

/// Writes JUnit XML, the test report every CI system reads: one
/// `<testsuite>` per story file and one `<testcase>` per story.
///
/// A failed story has a `<failure>` (an `<error>` when the failing step was
/// ambiguous under `--strict`) whose text names the step, the error and both
/// places; undefined stories and dry-run stories are `<skipped>` with the
/// reason as text (the JUnit 4 schema Jenkins uses allows no attribute on
/// it). The output validates against that schema.
public struct JUnitReporter: Reporter {
    private let path: String
    private var files: [String] = []
    private var results: [String: [StoryResult]] = [:]
    private var summary = RunSummary()

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String) {
        self.path = path
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result):
            let file = result.story.location.displayPath
            if results[file] == nil { files.append(file) }
            results[file, default: []].append(result)
        case .runFinished(let summary):
            self.summary = summary
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .diagnostic, .runHookFinished:
            break
        }
    }

    public mutating func finish() throws {
        try AtomicFile.write(document, to: path)
    }

    /// The whole XML document.
    var document: String {
        let all = files.flatMap { results[$0] ?? [] }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"storyrun\" \(Self.counts(all, withSkipped: false)) time=\"\(Self.seconds(summary.duration))\">\n"
        for file in files {
            let stories = results[file] ?? []
            let time = stories.reduce(0) { $0 &+ $1.duration }
            xml += "  <testsuite name=\(Self.attribute(file)) \(Self.counts(stories, withSkipped: true)) time=\"\(Self.seconds(time))\">\n"
            for result in stories { xml += testCase(result, file: file) }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private func testCase(_ result: StoryResult, file: String) -> String {
        var xml = "    <testcase classname=\(Self.attribute(file)) name=\(Self.attribute(result.story.name)) time=\"\(Self.seconds(result.duration))\">\n"
        switch result.status {
        case .passed:
            break
        case .skipped:
            xml += "      <skipped>dry run</skipped>\n"
        case .undefined:
            let undefined = result.steps.filter { $0.status == .undefined }.map(\.step.line)
            xml += "      <skipped>" + ("undefined steps: " + undefined.joined(separator: "; ")).xmlEscaped() + "</skipped>\n"
        case .failed:
            if let failing = result.steps.first(where: { $0.status == .failed || $0.status == .ambiguous }) {
                let element = failing.status == .ambiguous ? "error" : "failure"
                let message = failing.error?.message.split(separator: "\n").first.map(String.init) ?? failing.status.rawValue
                xml += "      <\(element) message=\(Self.attribute(message)) type=\"\(failing.status.rawValue)\">"
                xml += Self.failureText(failing).xmlEscaped() + "</\(element)>\n"
            }
        }
        let steps = result.steps.map { "\($0.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.step.line)" }
        xml += "      <system-out>" + steps.joined(separator: "\n").xmlEscaped() + "</system-out>\n"
        return xml + "    </testcase>\n"
    }

    /// The failing step, the error, where it was raised and the step's place.
    static func failureText(_ step: StepResult) -> String {
        var lines = [step.step.line]
        if let error = step.error {
            lines.append(error.message)
            if let place = error.location { lines.append("at \(place.displayFileAndLine)") }
        }
        lines.append(step.step.location.displayFileAndLine)
        return lines.joined(separator: "\n")
    }

    /// `tests="…" failures="…" errors="…"` and, for a suite, `skipped="…"`.
    private static func counts(_ stories: [StoryResult], withSkipped: Bool) -> String {
        let errors = stories.filter { $0.status == .failed && $0.steps.contains { $0.status == .ambiguous } }.count
        let failures = stories.filter { $0.status == .failed }.count - errors
        let skipped = stories.filter { $0.status == .skipped || $0.status == .undefined }.count
        return "tests=\"\(stories.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
            + (withSkipped ? " skipped=\"\(skipped)\"" : "")
    }

    private static func attribute(_ text: String) -> String {
        "\"" + text.xmlEscaped(isAttribute: true) + "\""
    }

    /// Nanoseconds as seconds with three decimals.
    static func seconds(_ nanoseconds: UInt64) -> String {
        String(format: "%.3f", Double(nanoseconds) / 1_000_000_000)
    }
}
