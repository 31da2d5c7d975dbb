import Foundation

/// Writes JUnit XML, the test report every CI system reads: one
/// `<testsuite>` per story file and one `<testcase>` per story.
///
/// A failed story has a `<failure>` (an `<error>` when the failing step was
/// ambiguous under `--strict`) whose text names the step, the error and both
/// places, and whose `type` is the kind of error (the Swift error's type,
/// `StoryKit.ExpectationFailure` for a failed expectation); undefined
/// stories and skipped ones are `<skipped>` with the reason as text (the
/// JUnit 4 schema Jenkins uses allows no attribute on it): a dry run only
/// when it was one. An outline's rows named alike get their row appended,
/// as cucumber-ruby does. The output validates against that schema.
public struct JUnitReporter: Reporter {
    private let path: String
    /// The story files in the order their first story finished.
    private var suites: [Suite] = []
    private var suiteIndex: [String: Int] = [:]
    /// The file of the last story, as the story names it, and its index in ``suites``.
    private var lastFile: (path: String, index: Int)?
    /// Each story's `<testcase>`, written as it finishes.
    private var spill: ReportSpill?
    private var summary = RunSummary()
    private var runHooks: [HookResult] = []
    /// Story files the run rejected: an `<error>` test case each.
    private var rejectedFiles: [RejectedFile] = []
    private let isStrict: Bool
    /// Whether the run was a dry run (`--dry-run`): only then is a story
    /// skipped without a reason a dry run's.
    var isDryRun = false
    /// Whether each test case gets `file` and `line` attributes
    /// (`--junit-places`): GitHub's JUnit actions read them, the strict
    /// JUnit 4 schema forbids them.
    var writesPlaces = false
    /// The story files, for the rows of outlines.
    var fileInfos = StoryFileInfo.Recent().reader()

    /// One story file's `<testsuite>`: its test cases and their totals.
    private struct Suite {
        var file: String
        /// ``file`` as the `classname` attribute of its test cases, quoted
        /// and escaped once for them all.
        var classname: [UInt8] = []
        var testCases: [ReportSpill.Place] = []
        var tally = Tally()
        var time: UInt64 = 0
    }

    /// The counts in a `<testsuite>`'s or `<testsuites>`' attributes.
    private struct Tally {
        var tests = 0
        var failures = 0
        var errors = 0
        var skipped = 0

        static func + (lhs: Tally, rhs: Tally) -> Tally {
            Tally(tests: lhs.tests + rhs.tests, failures: lhs.failures + rhs.failures,
                  errors: lhs.errors + rhs.errors, skipped: lhs.skipped + rhs.skipped)
        }
    }

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
            let index = suite(of: result.story.location)
            let classname = suites[index].classname
            if spill == nil { spill = ReportSpill(near: path) }
            let name = testCaseName(result.story)
            suites[index].testCases.append(spill!.append { testCase(result, name: name, classname: classname, into: &$0) })
            suites[index].tally = suites[index].tally + tally(result)
            suites[index].time = suites[index].time &+ result.duration
        case .runFinished(let summary):
            self.summary = summary
            // An interrupted run's reports all end where it stopped: only
            // a run that chose to stop (--fail-fast) or could not go on
            // lists the stories it left out.
            if !summary.wasInterrupted {
                for location in summary.notRunStories { notRun(location, reason: Self.notRunReason(summary)) }
            }
        case .runHookFinished(let hook):
            if hook.status == .failed { runHooks.append(hook) }
        case .storyFileRejected(let file):
            rejectedFiles.append(file)
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .diagnostic:
            break
        }
    }

    public mutating func finish() throws {
        let spill = spill ?? ReportSpill(near: path)
        try AtomicFile.write(to: path) { file throws(Diagnostic) in
            let all = suites.reduce(Tally()) { $0 + $1.tally }
            let hookFailures = runHooks.count
            let rejected = rejectedFiles.count
            let total = Tally(
                tests: all.tests + hookFailures + rejected, failures: all.failures + hookFailures, errors: all.errors + rejected, skipped: 0)
            try file.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuites name=\"storyrun\" \(counts(total, withSkipped: false)) time=\"\(Self.seconds(summary.duration))\">\n")
            for suite in suites {
                try file.write("  <testsuite name=\(Self.attribute(suite.file)) \(counts(suite.tally, withSkipped: true)) time=\"\(Self.seconds(suite.time))\">\n")
                try spill.copy(suite.testCases, to: file)
                try file.write("  </testsuite>\n")
            }
            try file.write(rejectedSuites + runHookSuite + "</testsuites>\n")
        }
    }

    /// A failed before-run or after-run hook fails the run: a test case of its own.
    private var runHookSuite: String {
        guard !runHooks.isEmpty else { return "" }
        let hookFailures = runHooks.count
        let time = runHooks.reduce(0) { $0 &+ $1.duration }
        var xml = "  <testsuite name=\"run hooks\" tests=\"\(hookFailures)\" failures=\"\(hookFailures)\" errors=\"0\" skipped=\"0\" time=\"\(Self.seconds(time))\">\n"
        for hook in runHooks {
            let step = TestStepResult.hook(hook)
            xml += "    <testcase classname=\"run hooks\" name=\(Self.attribute(step.title)) time=\"\(Self.seconds(hook.duration))\">\n"
            xml += "      <failure message=\(Self.attribute(step.shortReason)) type=\"failed\">" + Self.cut(step.failureText).xmlEscaped() + "</failure>\n"
            xml += Self.systemOut([step], note: nil)
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    /// A rejected story file is an error: a suite of its own, named after
    /// it, with a test case that names each problem's place.
    private var rejectedSuites: String {
        var xml = ""
        for rejected in rejectedFiles {
            let file = rejected.path.isEmpty ? "story paths" : SourceLocation.relativePath(rejected.path)
            let places = rejected.problems.map { problem in
                problem.location.map { "\($0.displayPath):\($0.line)\($0.column > 0 ? ":\($0.column)" : ""): " } ?? ""
            }
            let first = places.first.map { $0 + (rejected.problems.first?.problem ?? "") } ?? "rejected"
            let text = zip(places, rejected.problems).map { $0 + $1.problem + ($1.help.map { "\nhelp: " + $0 } ?? "") }
            xml += "  <testsuite name=\(Self.attribute(file)) tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n"
            xml += "    <testcase classname=\(Self.attribute(file)) name=\(rejected.path.isEmpty ? "\"a story path is rejected\"" : "\"the story file is rejected\"") time=\"0.000\">\n"
            xml += "      <error message=\(Self.attribute(first)) type=\"rejected\">"
                + Self.cut(text.joined(separator: "\n")).xmlEscaped() + "</error>\n"
            xml += "    </testcase>\n  </testsuite>\n"
        }
        return xml
    }

    /// Appends a story's `<testcase>`.
    /// `classname`: `file` as ``Array/xmlAttribute(_:)`` writes it.
    private func testCase(_ result: StoryResult, name: String, classname: [UInt8], into xml: inout [UInt8]) {
        xml.literal("    <testcase classname=")
        xml += classname
        xml.literal(" name=")
        xml.xmlAttribute(name)
        if writesPlaces { place(result.story.location, into: &xml) }
        xml.literal(" time=\"")
        xml.text(Self.seconds(result.duration))
        xml.literal("\">\n")
        /// `<element message="…" type="…">text</element>`.
        func failure(_ element: StaticString, message: String, type: String, text: String) {
            xml.literal("      <")
            xml.literal(element)
            xml.literal(" message=")
            xml.xmlAttribute(message)
            xml.literal(" type=\"")
            xml.text(type)
            xml.literal("\">")
            xml.xmlEscaped(Self.cut(text))
            xml.literal("</")
            xml.literal(element)
            xml.literal(">\n")
        }
        func skipped(_ text: String) {
            xml.literal("      <skipped>")
            xml.xmlEscaped(text)
            xml.literal("</skipped>\n")
        }
        switch result.status {
        case .passed:
            break
        case .skipped:
            // skip(_:) from a step or hook gives the reason; else a dry run.
            let reason = result.testSteps.first { $0.status == .skipped && $0.error != nil }?.error?.message
            skipped(reason ?? (isDryRun ? "dry run" : "skipped: every step was skipped"))
        case .pending:
            // As Cucumber-JVM's JUnit formatter: skipped, or a failure under
            // --strict (the run exits 1 then, and the file must agree).
            let pending = result.testSteps.filter { $0.status == .pending }
            let text = "pending: " + pending.map { testStep in
                testStep.title + (testStep.error.map { " (\($0.message))" } ?? "")
            }.joined(separator: "; ")
            if isStrict {
                failure("failure", message: text, type: "pending", text: text)
            } else {
                skipped(text)
            }
        case .undefined:
            let undefined = "undefined steps: " + result.steps.filter { $0.status == .undefined }.map(\.step.line).joined(separator: "; ")
            if isStrict {
                failure("failure", message: undefined, type: "undefined", text: undefined)
            } else {
                skipped(undefined)
            }
        case .failed:
            // A failed story always has a failure, even when no test step
            // says why (an interrupted run, a worker that died).
            let failing = result.firstFailure
            let message = failing?.shortReason ?? (result.wasInterrupted ? "the run was interrupted" : "failed")
            failure(
                failing?.status == .ambiguous ? "error" : "failure", message: message,
                type: failing?.error?.kind ?? failing?.status.rawValue ?? (result.wasInterrupted ? "interrupted" : "failed"),
                text: failing?.failureText ?? message)
        }
        Self.systemOut(result.testSteps, note: result.attemptsNote, into: &xml)
        xml.literal("    </testcase>\n")
    }

    /// The index in ``suites`` of a story's file, its suite made when new.
    private mutating func suite(of location: SourceLocation) -> Int {
        if let last = lastFile, last.path == location.file {
            // The file of the story before (nearly always): its path
            // not made relative again, nor looked up by its hash.
            return last.index
        }
        let file = location.displayPath
        let index: Int
        if let known = suiteIndex[file] {
            index = known
        } else {
            index = suites.count
            suiteIndex[file] = index
            var classname: [UInt8] = []
            classname.xmlAttribute(file)
            suites.append(Suite(file: file, classname: classname))
        }
        lastFile = (location.file, index)
        return index
    }

    /// A story the run chose and did not run: a skipped test case that
    /// says why, so the file lists every story the run was to run.
    private mutating func notRun(_ location: SourceLocation, reason: String) {
        let index = suite(of: location)
        let isFeature = FeatureFile.isFeature(location.file)
        let name = (isFeature ? fileInfos.info(location.file).place(atLine: location.line)?.pickle.name : nil) ?? "the story at line \(location.line)"
        var xml: [UInt8] = []
        xml.literal("    <testcase classname=")
        xml += suites[index].classname
        xml.literal(" name=")
        xml.xmlAttribute(name)
        if writesPlaces { place(location, into: &xml) }
        xml.literal(" time=\"0.000\">\n      <skipped>")
        xml.xmlEscaped(reason)
        xml.literal("</skipped>\n    </testcase>\n")
        if spill == nil { spill = ReportSpill(near: path) }
        suites[index].testCases.append(spill!.append(xml))
        suites[index].tally = suites[index].tally + Tally(tests: 1, skipped: 1)
    }

    /// ` file="…" line="…"`: where the story is.
    private func place(_ location: SourceLocation, into xml: inout [UInt8]) {
        xml.literal(" file=")
        xml.xmlAttribute(location.displayPath)
        xml.literal(" line=\"")
        xml.text(String(location.line))
        xml.literal("\"")
    }

    /// Why the run left stories out.
    static func notRunReason(_ summary: RunSummary) -> String {
        if let error = summary.runErrors.first { return "not run: \(error)" }
        if summary.failedHooks > 0 { return "not run: a before-run hook failed" }
        return "not run: --fail-fast stopped the run after a failure"
    }

    /// A story's test case name: its own, or for an outline row whose name
    /// has no placeholder (every row named alike), the row appended as
    /// cucumber-ruby's JUnit formatter does: ` (outline example : | a | b |)`.
    private func testCaseName(_ story: Story) -> String {
        // Only rows need their file read; past any other story, the files
        // other reports read may go (see ``StoryFileInfo/Recent``).
        guard story.isOutlineRow, FeatureFile.isFeature(story.location.file) else {
            fileInfos.passed(story.location.file)
            return story.name
        }
        guard let place = fileInfos.info(story.location.file).place(of: story), let row = place.row,
            story.name == place.scenario.name
        else { return story.name }
        return story.name + " (outline example : | " + row.cells.joined(separator: " | ") + " |)"
    }

    /// Each test step's status and title, what it attached, and a note
    /// (the attempts of a story run more than once).
    static func systemOut(_ testSteps: [TestStepResult], note: String?) -> String {
        var xml: [UInt8] = []
        systemOut(testSteps, note: note, into: &xml)
        return String(decoding: xml, as: UTF8.self)
    }

    /// ``systemOut(_:note:)`` appended to bytes: the lines escaped one by
    /// one, with escaped line ends between them.
    static func systemOut(_ testSteps: [TestStepResult], note: String?, into xml: inout [UInt8]) {
        xml.literal("      <system-out>")
        var isFirst = true
        func line(_ text: String) {
            if !isFirst { xml.append(UInt8(ascii: "\n")) }
            isFirst = false
            xml.xmlEscaped(text)
        }
        if let note {
            line(note)
            line("")
        }
        // By index, each part read alone: a `for` loop, or a `switch`,
        // would copy every step's whole result, and its title would be a
        // String of its own.
        for index in testSteps.indices {
            if testSteps[index].hookResult.map({ $0.status == .passed && $0.attachments.isEmpty }) == true { continue }
            let status = testSteps[index].status.rawValue  // padded to 10 characters
            if !isFirst { xml.append(UInt8(ascii: "\n")) }
            isFirst = false
            xml.text(status)
            for _ in status.utf8.count..<max(status.utf8.count, 10) { xml.append(UInt8(ascii: " ")) }
            xml.append(UInt8(ascii: " "))
            if let (keyword, text) = testSteps[index].keywordAndText {
                // ``TestStepResult/title``, escaped piece by piece (XML escapes each scalar alone).
                xml.xmlEscaped(keyword)
                if !text.isEmpty {
                    xml.append(UInt8(ascii: " "))
                    xml.xmlEscaped(text)
                }
            } else {
                xml.xmlEscaped(testSteps[index].title)
            }
            for attachment in testSteps[index].attachments { line(attachment.plainText(indent: "           ")) }
        }
        xml.literal("</system-out>\n")
    }

    /// A failure's text cut, as attachments are, at
    /// ``Attachment/reportLimit`` bytes with a note: libxml2 readers
    /// (xmllint, Nokogiri) refuse a text node of 10 MB or more.
    static func cut(_ text: String) -> String {
        let size = text.utf8.count
        guard size > Attachment.reportLimit else { return text }
        return Attachment.withinLimit(text) + "\n(failure cut: \(size) bytes, reports keep the first \(Attachment.reportLimit))"
    }

    /// The failing step, the error, where it was raised and the step's place.
    static func failureText(_ step: StepResult) -> String {
        TestStepResult.step(step).failureText
    }

    /// What one story adds to its suite's counts.
    private func tally(_ story: StoryResult) -> Tally {
        var tally = Tally(tests: 1)
        switch story.status {
        case .failed:
            if story.firstFailure?.status == .ambiguous { tally.errors = 1 } else { tally.failures = 1 }
        case .undefined, .pending:
            if isStrict { tally.failures = 1 } else { tally.skipped = 1 }
        case .skipped:
            tally.skipped = 1
        case .passed:
            break
        }
        return tally
    }

    /// `tests="…" failures="…" errors="…"` and, for a suite, `skipped="…"`.
    private func counts(_ tally: Tally, withSkipped: Bool) -> String {
        "tests=\"\(tally.tests)\" failures=\"\(tally.failures)\" errors=\"\(tally.errors)\""
            + (withSkipped ? " skipped=\"\(tally.skipped)\"" : "")
    }

    private static func attribute(_ text: String) -> String {
        "\"" + text.xmlEscaped(isAttribute: true) + "\""
    }

    /// Nanoseconds as seconds with three decimals.
    static func seconds(_ nanoseconds: UInt64) -> String {
        DecimalText.fixed(nanoseconds, unit: 1_000_000_000, digits: 3) ?? String(format: "%.3f", Double(nanoseconds) / 1_000_000_000)
    }
}
