import Foundation

/// Comparing a table written in a story with the rows the code produced.
extension DataTable {
    /// Fails the step unless the actual rows equal the table's, with a
    /// readable diff of the two tables: rows only the story has are marked
    /// `-`, rows only the code produced `+`.
    ///
    /// ```swift
    /// step.expression("the basket shows:") { (steps: ShopSteps, expected: DataTable) in
    ///     try expected.diff(against: [["item", "count"]] + steps.basket.map { [$0.name, String($0.count)] })
    /// }
    /// ```
    /// - Throws: ``ExpectationFailure`` at the caller's Swift line.
    public func diff(against actual: [[String]], file: String = #filePath, line: Int = #line) throws {
        guard actual != rows else { return }
        let lines = Self.diffLines(expected: rows, actual: actual)
        throw ExpectationFailure(
            "the table at \(location.displayFileAndLine) differs (- in the story only, + from the code only):\n" + lines.joined(separator: "\n"),
            location: SourceLocation(file: file, line: line))
    }

    /// Fails the step unless another table's rows equal this table's; see
    /// ``diff(against:file:line:)-([[String]],_,_)``.
    public func diff(against actual: DataTable, file: String = #filePath, line: Int = #line) throws {
        try diff(against: actual.rows, file: file, line: line)
    }

    /// The rows of both tables, aligned in columns, each marked `  `, `- `
    /// or `+ ` by a longest common subsequence of rows.
    static func diffLines(expected: [[String]], actual: [[String]]) -> [String] {
        let n = expected.count, m = actual.count
        var common = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] = expected[i] == actual[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var marked: [(String, [String])] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, expected[i] == actual[j] {
                marked.append(("  ", expected[i])); i += 1; j += 1
            } else if i < n, j == m || common[i + 1][j] >= common[i][j + 1] {
                marked.append(("- ", expected[i])); i += 1
            } else {
                marked.append(("+ ", actual[j])); j += 1
            }
        }
        let columns = marked.map(\.1.count).max() ?? 0
        let widths = (0..<columns).map { column in marked.map { column < $0.1.count ? $0.1[column].count : 0 }.max() ?? 0 }
        return marked.map { mark, row in
            "    " + mark + "| " + (0..<columns).map { column in
                let cell = column < row.count ? row[column] : ""
                return cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: " | ") + " |"
        }
    }
}
