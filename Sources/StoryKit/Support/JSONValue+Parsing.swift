/// Reading JSON text into a ``JSONValue``: the one JSON reader of StoryKit
/// and its step libraries (asked to, it notes each value's line and
/// column beside it: ``JSONPlaces``, for a config file's messages).
extension JSONValue {
    /// Where text stops being JSON (line and column, from 1) and why.
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        /// The line of the first byte that is not JSON, from 1.
        public var line: Int
        /// Its column in bytes, from 1.
        public var column: Int
        /// What is wrong there, in words.
        public var problem: String

        /// `line:column: problem`, to follow a file's path in a message.
        public var description: String { "\(line):\(column): \(problem)" }
    }

    /// Parses a whole JSON document (RFC 8259, any value at the top level,
    /// no extensions, at most 200 levels deep).
    /// - Throws: A ``SyntaxError`` at the first place that is not JSON.
    public init(parsing text: String) throws(SyntaxError) {
        try self.init(parsingUTF8: Array(text.utf8))
    }

    /// Parses a whole JSON document from its UTF-8 bytes, as
    /// ``init(parsing:)`` parses its text (a message read from a pipe,
    /// without making a String of it first).
    /// - Throws: A ``SyntaxError`` at the first place that is not JSON.
    public init(parsingUTF8 bytes: [UInt8]) throws(SyntaxError) {
        var reader = JSONReader(bytes: bytes)
        self = try reader.document()
    }
}
