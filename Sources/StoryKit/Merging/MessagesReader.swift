/// Reads a Cucumber Messages stream (NDJSON, as `--messages FILE` writes
/// it) into envelopes, each with its line: every line must be one JSON
/// object whose parts merge reads have the schema's types.
enum MessagesReader {
    /// An envelope and the line it was on (its number in the stream).
    struct Line {
        var number: Int
        var envelope: MessagesEnvelope
    }

    /// Whether a file's bytes look like a Messages stream rather than
    /// Cucumber JSON: its first non-blank byte opens an object, not an array.
    static func isMessages(_ bytes: [UInt8]) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "{")
    }

    /// Reads the envelopes of a stream, each line parsed by StoryKit's JSON
    /// reader where it is in the file's bytes.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - path: The file, for messages.
    /// - Throws: A ``Diagnostic`` at the line that is not an envelope.
    static func read(_ bytes: [UInt8], path: String) throws(Diagnostic) -> [Line] {
        var reader = JSONReader(bytes: bytes)
        var read: [Line] = []
        var firstLine = 1
        while true {
            reader.skipSpace()
            guard reader.index < bytes.count else { break }
            let number = reader.line
            if read.isEmpty { firstLine = number }
            let value: JSONValue
            do {
                value = try reader.jsonValue(depth: 0)
                try endOfLine(&reader, from: number)
            } catch {
                throw problem(path, line: number, error.line == number
                    ? "not a JSON object (column \(error.column): \(error.problem))"
                    : "not a JSON object: it goes on to line \(error.line) (each envelope is one line)")
            }
            do {
                read.append(Line(number: number, envelope: try MessagesEnvelope(value)))
            } catch {
                throw problem(path, line: number, error.description)
            }
        }
        // The schema puts `meta` first: without it, this is JSON of some other kind.
        guard read.first?.envelope.meta != nil else {
            throw Diagnostic(
                at: SourceLocation(file: path, line: firstLine),
                problem: "\(path) is not Cucumber JSON or a Cucumber Messages stream: its first line is no meta envelope",
                help: "merge the files storyrun wrote with --messages FILE (or --json FILE)")
        }
        return read
    }

    /// After a line's value: only spaces to the end of its line (one
    /// envelope a line, on one line).
    private static func endOfLine(_ reader: inout JSONReader, from line: Int) throws(JSONValue.SyntaxError) {
        guard reader.line == line else { throw reader.error("an envelope goes on to this line") }
        while reader.index < reader.bytes.count {
            switch reader.bytes[reader.index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): reader.index += 1
            case UInt8(ascii: "\n"): return
            default: throw reader.error("more text after the envelope on its line")
            }
        }
    }

    /// A problem at a line of a stream.
    static func problem(_ path: String, line: Int, _ what: String) -> Diagnostic {
        Diagnostic(
            at: SourceLocation(file: path, line: line), problem: what,
            help: "merge the Cucumber Messages streams storyrun wrote (--messages FILE, or --format message:FILE), unchanged")
    }
}
