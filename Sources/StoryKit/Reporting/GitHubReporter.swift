/// Writes GitHub Actions workflow commands, so failures show as annotations
/// on the pull request: one `::error` per failing step, one `::warning` per
/// undefined step, and one per diagnostic that has a place.
///
/// GitHub shows at most 10 error and 10 warning annotations of a step and
/// drops the rest silently, so the reporter writes the first 10 of each and
/// then one `::notice` that counts the others and says where they are. With
/// `$GITHUB_STEP_SUMMARY` set, every failure is also appended to the job
/// summary as a Markdown table.
///
/// Values are escaped as GitHub's workflow-command rules say: `%`, `\r` and
/// `\n` everywhere, and also `:` and `,` in properties.
public struct GitHubReporter: Reporter {
    /// How many annotations of one kind (error, warning) GitHub shows for a step.
    public static let annotationLimit = 10

    private let write: (String) -> Void
    private var summary: GitHubSummary?
    /// Annotations written, by kind.
    private var written: [String: Int] = [:]
    /// Annotations left out past the limit, by kind.
    private var leftOut: [String: Int] = [:]

    /// Creates a reporter that writes each workflow command as a line.
    /// - Parameters:
    ///   - summaryPath: The job summary file (`$GITHUB_STEP_SUMMARY`) to
    ///     append a table of every failure to; nil for none.
    ///   - write: Writes one line.
    public init(summaryPath: String? = nil, write: @escaping (String) -> Void) {
        self.write = write
        self.summary = summaryPath.map { GitHubSummary(path: $0) }
    }

    /// It reads each story whole, from `storyFinished`.
    public var readsStoryProgress: Bool { false }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .runFinished:
            finishRun()
        case .storyStarted, .stepStarted, .runStarted, .storyFileRejected:
            break  // a rejected file's problems come as diagnostics
        case .runHookFinished:
            break  // a failed run hook comes as a diagnostic, annotated below
        case .storyFinished(let result):
            annotate(result)
        case .diagnostic(let diagnostic):
            guard let location = diagnostic.location, diagnostic.severity != .note else { return }
            let message = diagnostic.problem + (diagnostic.help.map { "\nhelp: " + $0 } ?? "")
            annotate(diagnostic.severity.rawValue, at: location, title: "storyrun", message: message)
            if diagnostic.severity == .error {
                summary?.add(story: "", at: location, step: "", message: diagnostic.problem)
            }
        case .stepFinished:
            break
        }
    }

    private mutating func annotate(_ result: StoryResult) {
        let story = result.story.name
        for hook in result.hooks where hook.status == .failed {
            let text = ReportText.cut(TestStepResult.hook(hook).failureText)
            annotate("error", at: result.story.location, title: "\(story): \(hook.kind) hook failed", message: text)
            summary?.add(story: story, at: result.story.location, step: "\(hook.kind) hook", message: text)
        }
        if result.status == .failed, result.firstFailure == nil {
            let text = result.wasInterrupted ? "the run was interrupted" : "failed"
            annotate("error", at: result.story.location, title: "\(story): failed", message: text)
            summary?.add(story: story, at: result.story.location, step: "", message: text)
        }
        for step in result.steps {
            switch step.status {
            case .failed, .ambiguous:
                var message = step.step.line
                if let error = step.error {
                    message += "\n" + ReportText.cut(error.message)
                    if let place = error.location { message += "\nat \(place.displayFileAndLine)" }
                }
                annotate("error", at: step.step.location, title: "\(story): step \(step.status.rawValue)", message: message)
                let why = step.error?.message ?? step.status.rawValue
                summary?.add(story: story, at: step.step.location, step: step.step.line, message: why)
            case .undefined:
                annotate("warning", at: step.step.location, title: "\(story): step undefined", message: "no step definition matches \"\(step.step.line)\"")
            case .pending:
                let reason = step.error.map { ": " + ReportText.cut($0.message) } ?? ""
                annotate("warning", at: step.step.location, title: "\(story): step pending", message: "\(step.step.line) is pending\(reason)")
            case .skipped:
                if let error = step.error {
                    annotate("notice", at: step.step.location, title: "\(story): skipped", message: ReportText.cut(error.message))
                }
            case .passed:
                break
            }
        }
    }

    /// Writes an annotation, or counts it when GitHub would drop it.
    private mutating func annotate(_ kind: String, at location: SourceLocation, title: String, message: String) {
        guard kind != "notice" else { return write(Self.command(kind, at: location, title: title, message: message)) }
        guard written[kind, default: 0] < Self.annotationLimit else {
            leftOut[kind, default: 0] += 1
            return
        }
        written[kind, default: 0] += 1
        write(Self.command(kind, at: location, title: title, message: message))
    }

    /// Counts what was left out, where to see it, and writes the summary.
    private mutating func finishRun() {
        let counts = ["error", "warning"].compactMap { kind in
            leftOut[kind].map { "\($0) more \(kind == "error" ? "failure" : "warning")\($0 == 1 ? "" : "s")" }
        }
        if !counts.isEmpty {
            let whereToLook =
                summary == nil
                ? "see them in this step's log or the run's --junit or --html report"
                : "every failure is in the job summary"
            write(
                "::notice title=storyrun::\(counts.joined(separator: " and ")) not annotated: GitHub shows "
                    + "\(Self.annotationLimit) annotations of a kind per step; \(whereToLook)")
        }
        if let problem = summary?.write() {
            write("::warning title=storyrun::\(Self.escapeData(problem))")
        }
        leftOut = [:]
    }

    /// A workflow command: `::error file=…,line=…,title=…::message`.
    static func command(_ name: String, at location: SourceLocation, title: String, message: String) -> String {
        var properties = ["file=\(escapeProperty(location.displayPath))", "line=\(location.line)"]
        if location.column > 0 { properties.append("col=\(location.column)") }
        properties.append("title=\(escapeProperty(title))")
        return "::\(name) \(properties.joined(separator: ","))::\(escapeData(message))"
    }

    /// Escapes a command's message.
    static func escapeData(_ text: String) -> String {
        escape(text, also: [:])
    }

    /// Escapes a command's property value.
    static func escapeProperty(_ text: String) -> String {
        escape(text, also: [":": "%3A", ",": "%2C"])
    }

    private static func escape(_ text: String, also extra: [Unicode.Scalar: String]) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if let replacement = extra[scalar] { out += replacement } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
