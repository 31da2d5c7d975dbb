import Foundation

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

    /// Reads the envelopes of a stream.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - path: The file, for messages.
    /// - Throws: A ``Diagnostic`` at the line that is not an envelope.
    static func read(_ bytes: [UInt8], path: String) throws(Diagnostic) -> [Line] {
        var lines: [(number: Int, bytes: ArraySlice<UInt8>)] = []
        var number = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            lines.append((number, line))
        }
        // One decoding of the whole stream as an array; only when it fails,
        // line by line, to name the line.
        var array: [UInt8] = [UInt8(ascii: "[")]
        array.reserveCapacity(bytes.count + lines.count + 2)
        for (index, line) in lines.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            array += line.bytes
        }
        array.append(UInt8(ascii: "]"))
        if let envelopes = try? JSONDecoder().decode([MessagesEnvelope].self, from: Data(array)) {
            // The schema puts `meta` first: without it, this is JSON of some other kind.
            guard envelopes.first?.meta != nil else {
                throw Diagnostic(
                    at: SourceLocation(file: path, line: lines.first?.number ?? 1),
                    problem: "\(path) is not Cucumber JSON or a Cucumber Messages stream: its first line is no meta envelope",
                    help: "merge the files storyrun wrote with --messages FILE (or --json FILE)")
            }
            return zip(lines, envelopes).map { Line(number: $0.number, envelope: $1) }
        }
        var read: [Line] = []
        for line in lines {
            do {
                read.append(Line(number: line.number, envelope: try JSONDecoder().decode(MessagesEnvelope.self, from: Data(line.bytes))))
            } catch {
                throw problem(path, line: line.number, describe(error))
            }
        }
        // Each line alone is an envelope: lines together were not (a line
        // that is two objects?).
        throw problem(path, line: lines.last?.number ?? 1, "the lines do not read as one envelope each")
    }

    /// A problem at a line of a stream.
    static func problem(_ path: String, line: Int, _ what: String) -> Diagnostic {
        Diagnostic(
            at: SourceLocation(file: path, line: line), problem: what,
            help: "merge the Cucumber Messages streams storyrun wrote (--messages FILE, or --format message:FILE), unchanged")
    }

    private static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error as? DecodingError {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(describe(type)) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) has no \(describe(type))"
        case .keyNotFound(let key, let context):
            let place = path(context.codingPath)
            return "\(place.isEmpty ? "the envelope" : place) has no \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not a JSON object" : "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "not an envelope: \(error)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Bool.Type: "true or false"
        case is Array<Any>.Type: "a list"
        default: "an object"
        }
    }
}
