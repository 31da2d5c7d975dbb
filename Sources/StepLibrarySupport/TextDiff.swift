import Foundation

/// A line-by-line diff of an expected and an actual text, for failure
/// messages: `-` lines are expected and missing, `+` lines are actual and
/// unexpected, unchanged lines are shown around each change.
package enum TextDiff {
    /// Renders the differences between two texts, or nil when they are equal.
    /// - Parameters:
    ///   - expected: The text the story expects.
    ///   - actual: The text the program produced.
    ///   - context: How many unchanged lines to show around a change.
    package static func render(expected: String, actual: String, context: Int = 2) -> String? {
        guard expected != actual else { return nil }
        let old = lines(expected), new = lines(actual)
        // An LCS table costs old × new cells: past that, show the first difference only.
        guard old.count * new.count <= 4_000_000 else {
            let index = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
            return "the texts differ from line \(index + 1) (\(old.count) lines expected, \(new.count) lines given)\n"
                + "-" + (index < old.count ? old[index] : "<end of text>") + "\n"
                + "+" + (index < new.count ? new[index] : "<end of text>")
        }
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [(Character, String)] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                edits.append((" ", old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
                edits.append(("-", old[i])); i += 1
            } else {
                edits.append(("+", new[j])); j += 1
            }
        }
        let changed = edits.indices.filter { edits[$0].0 != " " }
        var output = ["--- expected", "+++ actual"]
        var last = -1
        for index in edits.indices where changed.contains(where: { abs($0 - index) <= context }) {
            if last >= 0, index > last + 1 { output.append("  …") }
            output.append("\(edits[index].0)\(visible(edits[index].1))")
            last = index
        }
        return output.joined(separator: "\n")
    }

    /// Splits a text into lines, keeping a final empty line apart from none.
    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Shows trailing spaces and carriage returns, which are otherwise invisible.
    private static func visible(_ line: String) -> String {
        var line = line.replacingOccurrences(of: "\r", with: "\\r")
        if line.last == " " || line.last == "\t" { line += "⏎" }
        return line
    }
}
