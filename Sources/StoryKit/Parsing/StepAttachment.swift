/// A block of data written under a step: a doc string or a data table.
public enum StepAttachment: Hashable, Sendable, Codable {
    /// A doc string between `"""` fences or fences of three backticks.
    case docString(DocString)
    /// A table of `|`-separated cells.
    case dataTable(DataTable)
}

/// A multi-line text argument written under a step between fences.
public struct DocString: Hashable, Sendable, Codable {
    /// The text, with the fence's indentation removed.
    public var content: String
    /// The media type written after the opening fence, if any.
    public var mediaType: String?
    /// The fence as written: `"""` or three backticks.
    public var delimiter: String
    /// Where the opening fence is.
    public var location: SourceLocation

    /// Creates a doc string.
    public init(content: String, mediaType: String? = nil, delimiter: String = "\"\"\"", location: SourceLocation) {
        self.content = content
        self.mediaType = mediaType
        self.delimiter = delimiter
        self.location = location
    }
}

/// A table written under a step, one row a line, cells between `|`.
public struct DataTable: Hashable, Sendable, Codable {
    /// The cells, row by row, with escapes (`\|`, `\\`, `\n`) resolved.
    public var rows: [[String]]
    /// Where the first row is.
    public var location: SourceLocation

    /// Creates a data table.
    public init(rows: [[String]], location: SourceLocation) {
        self.rows = rows
        self.location = location
    }

    /// The first row: the column names when the table has a header.
    public var header: [String] { rows.first ?? [] }

    /// The rows after the header, each as a dictionary keyed by the header.
    public var hashes: [[String: String]] {
        let header = self.header
        return rows.dropFirst().map { row in
            Dictionary(zip(header, row).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The table as a dictionary from the first column to the second, for
    /// two-column tables with no header.
    public var rowsHash: [String: String] {
        Dictionary(rows.compactMap { $0.count >= 2 ? ($0[0], $0[1]) : nil }, uniquingKeysWith: { first, _ in first })
    }
}
