/// Writes GitHub Actions workflow commands, so failures show as annotations
/// on the pull request: one `::error` per failing step, one `::warning` per
/// undefined step, and one per diagnostic that has a place.
///
/// Values are escaped as GitHub's workflow-command rules say: `%`, `\r` and
/// `\n` everywhere, and also `:` and `,` in properties.
public struct GitHubReporter: Reporter {
    private let write: (String) -> Void

    /// Creates a reporter that writes each workflow command as a line.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// It reads each story whole, from `storyFinished`.
    public var readsStoryProgress: Bool { false }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyStarted, .stepStarted, .runStarted, .runFinished, .storyFileRejected:
            break  // a rejected file's problems come as diagnostics
        case .runHookFinished:
            break  // a failed run hook comes as a diagnostic, annotated below
        case .storyFinished(let result):
            for hook in result.hooks where hook.status == .failed {
                write(Self.command("error", at: result.story.location, title: "\(result.story.name): \(hook.kind) hook failed", message: ReportText.cut(TestStepResult.hook(hook).failureText)))
            }
            if result.status == .failed, result.firstFailure == nil {
                write(Self.command("error", at: result.story.location, title: "\(result.story.name): failed", message: result.wasInterrupted ? "the run was interrupted" : "failed"))
            }
            for step in result.steps {
                switch step.status {
                case .failed, .ambiguous:
                    var message = step.step.line
                    if let error = step.error {
                        message += "\n" + ReportText.cut(error.message)
                        if let place = error.location { message += "\nat \(place.displayFileAndLine)" }
                    }
                    write(Self.command("error", at: step.step.location, title: "\(result.story.name): step \(step.status.rawValue)", message: message))
                case .undefined:
                    write(Self.command("warning", at: step.step.location, title: "\(result.story.name): step undefined", message: "no step definition matches \"\(step.step.line)\""))
                case .pending:
                    let reason = step.error.map { ": " + ReportText.cut($0.message) } ?? ""
                    write(Self.command("warning", at: step.step.location, title: "\(result.story.name): step pending", message: "\(step.step.line) is pending\(reason)"))
                case .skipped:
                    if let error = step.error {
                        write(Self.command("notice", at: step.step.location, title: "\(result.story.name): skipped", message: ReportText.cut(error.message)))
                    }
                case .passed:
                    break
                }
            }
        case .diagnostic(let diagnostic):
            guard let location = diagnostic.location, diagnostic.severity != .note else { return }
            let message = diagnostic.problem + (diagnostic.help.map { "\nhelp: " + $0 } ?? "")
            write(Self.command(diagnostic.severity.rawValue, at: location, title: "storyrun", message: message))
        case .stepFinished:
            break
        }
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
