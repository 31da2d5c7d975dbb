import Foundation

/// A command that finished: what it printed and how it ended.
struct CommandResult {
    /// The command line as the story wrote it.
    var commandLine: String
    var stdout: String
    var stderr: String
    var termination: Termination
    /// Whether it overran its time limit and was stopped.
    var timedOut: Bool
    /// Its time limit, in seconds.
    var timeLimit: Double
    var seconds: Double

    /// The stream a step names: `stdout`, `stderr` or `the output` (both).
    func stream(_ name: String) -> String {
        switch name {
        case "stdout": stdout
        case "stderr": stderr
        default: stdout + stderr
        }
    }

    /// Says how it ended, and what it printed last, for a failure message.
    var summary: String {
        var text = timedOut
            ? "`\(commandLine)` did not finish within its time limit of \(Self.format(timeLimit)) s and was stopped with its process group"
            : "`\(commandLine)` \(termination)"
        for (name, output) in [("stdout", stdout), ("stderr", stderr)] where !output.isEmpty {
            text += "\n\(name) (last lines):\n" + Self.tail(output)
        }
        return text
    }

    /// The last lines of a text, at most 20 lines and 2,000 characters.
    static func tail(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
        return lines.count > 2000 ? "…" + String(lines.suffix(2000)) : lines
    }

    /// A number of seconds without a needless `.0`.
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
