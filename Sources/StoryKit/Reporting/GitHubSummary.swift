import Foundation

/// Every failure of a run as a Markdown table, appended to GitHub's job
/// summary (`$GITHUB_STEP_SUMMARY`) when the run finishes: the annotations
/// stop at GitHub's limit, the table does not.
///
/// GitHub takes at most 1 MiB of summary from a step, so rows stop before
/// that and a last line counts those left out.
struct GitHubSummary {
    /// The summary file, appended to.
    let path: String
    /// The table's bytes GitHub takes with room for the heading and last line.
    static let byteLimit = 1_000_000
    /// The longest message a row keeps, in characters.
    static let messageLimit = 300

    private var rows: [String] = []
    private var size = 0
    private var leftOut = 0

    init(path: String) {
        self.path = path
    }

    /// Adds a failure: its story (empty for a problem outside any story),
    /// place, step (empty for none) and message, cut to one line.
    mutating func add(story: String, at location: SourceLocation, step: String, message: String) {
        let cells = [story, location.displayFileAndLine, step, Self.oneLine(message)].map(Self.cell)
        let row = "| " + cells.joined(separator: " | ") + " |\n"
        guard size + row.utf8.count <= Self.byteLimit else {
            leftOut += 1
            return
        }
        size += row.utf8.count
        rows.append(row)
    }

    /// The table, with a heading; empty when nothing failed.
    var markdown: String {
        guard !rows.isEmpty else { return "" }
        var text = "### storyrun: \(rows.count + leftOut) failure\(rows.count + leftOut == 1 ? "" : "s")\n\n"
        text += "| Story | Place | Step | Message |\n|---|---|---|---|\n"
        text += rows.joined()
        if leftOut > 0 {
            text += "\n\(leftOut) more not listed: GitHub takes 1 MiB of summary; see the run's --junit or --html report.\n"
        }
        return text + "\n"
    }

    /// Appends the table to the summary file (creating it), once.
    /// - Returns: Why it could not be written, or nil.
    mutating func write() -> String? {
        let text = markdown
        rows = []
        leftOut = 0
        guard !text.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                return "could not create the job summary \(path)"
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return "could not open the job summary \(path)" }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            return "could not write the job summary \(path): \(error.localizedDescription)"
        }
        return nil
    }

    /// The first line of a message, cut to ``messageLimit`` characters;
    /// ` …` says more lines followed.
    static func oneLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return "" }
        let cut = first.count > messageLimit ? String(first.prefix(messageLimit)) + "…" : first
        return lines.count > 1 ? cut + " …" : cut
    }

    /// A table cell: `|` escaped, line breaks made spaces, `<` and `&`
    /// written as entities so text never becomes markup.
    static func cell(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "|": out += "\\|"
            case "\\": out += "\\\\"
            case "<": out += "&lt;"
            case "&": out += "&amp;"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out.isEmpty ? "—" : out
    }
}
