/// A place in a source file: a story file, or the Swift file where a step
/// definition was registered.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The path of the file, as the user named it.
    public var file: String
    /// The line, counted from 1.
    public var line: Int
    /// The column, counted from 1; 0 when only the line is known.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location as `file:line`, or `file:line:column` when the column is known.
    public var description: String {
        column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }

    /// The location as `file:line`, without the column.
    public var fileAndLine: String { "\(file):\(line)" }
}
