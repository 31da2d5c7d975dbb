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
    private var runHooks: [HookResult] = []
    private let isStrict: Bool

    /// Creates a reporter that writes to a path when the run is over.
    /// - Parameters:
    ///   - path: The file to write.
    ///   - isStrict: Whether undefined stories fail the run (`--strict`), so
    ///     the file calls them failures as the exit status does.
    public init(path: String, isStrict: Bool = false) {
        self.path = path
        self.isStrict = isStrict
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result):
            let file = result.story.location.displayPath
            if results[file] == nil { files.append(file) }
            results[file, default: []].append(result)
        case .runFinished(let summary):
            self.summary = summary
        case .runHookFinished(let hook):
            if hook.status == .failed { runHooks.append(hook) }
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .diagnostic:
            break
        }
    }

    public mutating func finish() throws {
        try AtomicFile.write(document, to: path)
    }

    /// The whole XML document.
    var document: String {
        let all = files.flatMap { results[$0] ?? [] }
        let hookFailures = runHooks.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"storyrun\" \(counts(all, withSkipped: false, hookFailures: hookFailures)) time=\"\(Self.seconds(summary.duration))\">\n"
        for file in files {
            let stories = results[file] ?? []
            let time = stories.reduce(0) { $0 &+ $1.duration }
            xml += "  <testsuite name=\(Self.attribute(file)) \(counts(stories, withSkipped: true)) time=\"\(Self.seconds(time))\">\n"
            for result in stories { xml += testCase(result, file: file) }
            xml += "  </testsuite>\n"
        }
        if !runHooks.isEmpty {
            // A failed before-run or after-run hook fails the run: a test case of its own.
            let time = runHooks.reduce(0) { $0 &+ $1.duration }
            xml += "  <testsuite name=\"run hooks\" tests=\"\(hookFailures)\" failures=\"\(hookFailures)\" errors=\"0\" skipped=\"0\" time=\"\(Self.seconds(time))\">\n"
            for hook in runHooks {
                let step = TestStepResult.hook(hook)
                xml += "    <testcase classname=\"run hooks\" name=\(Self.attribute(step.title)) time=\"\(Self.seconds(hook.duration))\">\n"
                xml += "      <failure message=\(Self.attribute(step.shortReason)) type=\"failed\">" + step.failureText.xmlEscaped() + "</failure>\n"
                xml += Self.systemOut([step], note: nil)
                xml += "    </testcase>\n"
            }
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
            // skip(_:) from a step or hook gives the reason; else a dry run.
            let reason = result.testSteps.first { $0.status == .skipped && $0.error != nil }?.error?.message
            if let reason {
                xml += "      <skipped message=\(Self.attribute(reason))>" + reason.xmlEscaped() + "</skipped>\n"
            } else {
                xml += "      <skipped>dry run</skipped>\n"
            }
        case .pending:
            // As Cucumber-JVM's JUnit formatter: skipped, or a failure under
            // --strict (the run exits 1 then, and the file must agree).
            let pending = result.testSteps.filter { $0.status == .pending }
            let text = "pending: " + pending.map { testStep in
                testStep.title + (testStep.error.map { " (\($0.message))" } ?? "")
            }.joined(separator: "; ")
            if isStrict {
                xml += "      <failure message=\(Self.attribute(text)) type=\"pending\">" + text.xmlEscaped() + "</failure>\n"
            } else {
                xml += "      <skipped message=\(Self.attribute(text))>" + text.xmlEscaped() + "</skipped>\n"
            }
        case .undefined:
            let undefined = "undefined steps: " + result.steps.filter { $0.status == .undefined }.map(\.step.line).joined(separator: "; ")
            if isStrict {
                xml += "      <failure message=\(Self.attribute(undefined)) type=\"undefined\">" + undefined.xmlEscaped() + "</failure>\n"
            } else {
                xml += "      <skipped>" + undefined.xmlEscaped() + "</skipped>\n"
            }
        case .failed:
            // A failed story always has a failure, even when no test step
            // says why (an interrupted run, a worker that died).
            let failing = result.firstFailure
            let element = failing?.status == .ambiguous ? "error" : "failure"
            let message = failing?.shortReason ?? (result.wasInterrupted ? "the run was interrupted" : "failed")
            let text = failing?.failureText ?? message
            xml += "      <\(element) message=\(Self.attribute(message)) type=\"\(failing?.status.rawValue ?? "failed")\">"
            xml += text.xmlEscaped() + "</\(element)>\n"
        }
        xml += Self.systemOut(result.testSteps, note: result.attemptsNote)
        return xml + "    </testcase>\n"
    }

    /// Each test step's status and title, what it attached, and a note
    /// (the attempts of a story run more than once).
    static func systemOut(_ testSteps: [TestStepResult], note: String?) -> String {
        var lines: [String] = note.map { [$0, ""] } ?? []
        for testStep in testSteps {
            if case .hook(let hook) = testStep, hook.status == .passed, hook.attachments.isEmpty { continue }
            lines.append("\(testStep.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(testStep.title)")
            for attachment in testStep.attachments { lines.append(attachment.plainText(indent: "           ")) }
        }
        return "      <system-out>" + lines.joined(separator: "\n").xmlEscaped() + "</system-out>\n"
    }

    /// The failing step, the error, where it was raised and the step's place.
    static func failureText(_ step: StepResult) -> String {
        TestStepResult.step(step).failureText
    }

    /// `tests="…" failures="…" errors="…"` and, for a suite, `skipped="…"`.
    private func counts(_ stories: [StoryResult], withSkipped: Bool, hookFailures: Int = 0) -> String {
        let errors = stories.filter { $0.status == .failed && $0.firstFailure?.status == .ambiguous }.count
        let undefinedFailures = isStrict ? stories.filter { $0.status == .undefined || $0.status == .pending }.count : 0
        let failures = stories.filter { $0.status == .failed }.count - errors + undefinedFailures + hookFailures
        let skipped = stories.filter { $0.status == .skipped || (($0.status == .undefined || $0.status == .pending) && !isStrict) }.count
        return "tests=\"\(stories.count + hookFailures)\" failures=\"\(failures)\" errors=\"\(errors)\""
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
