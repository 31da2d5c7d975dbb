import Foundation

extension JSONValue {
    /// A whole number of the protocol (a line, a column, a version).
    static func number(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// The whole number, if this is one (the protocol's lines, columns and versions).
    var integer: Int? { intValue.map { Int($0) } }
}

/// JSON-RPC 2.0 over a pair of file descriptors, framed as the Language
/// Server Protocol frames it: `Content-Length: N`, a blank line, N bytes.
struct LSPConnection {
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []

    /// Creates a connection that reads `input` and writes `output`.
    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Reads the next message; nil at the end of the input, or when the
    /// input cannot be read on (see ``failure``).
    ///
    /// A frame whose body is not a JSON object, or whose header has no
    /// length a body can have, is answered with a JSON-RPC parse error
    /// (`-32700`, id null) and skipped.
    mutating func read() -> JSONValue? {
        while true {
            guard let body = readFrame() else { return nil }
            guard let body else { continue }
            do {
                let message = try JSONValue(parsingUTF8: body)
                if case .object = message { return message }
                answerParseError("a message is not a JSON object")
            } catch {
                answerParseError("a message is not a JSON object (\(error))")
            }
        }
    }

    /// Why the input was given up before its end (a header or body larger
    /// than a client sends), or nil.
    private(set) var failure: String?

    /// The most bytes of a header, and of a body: far more than any editor
    /// sends, and each taken whole into memory.
    static let headerLimit = 64 << 10
    static let bodyLimit = 256 << 20

    /// How far the buffer was searched for the end of a header.
    private var searched = 0

    /// Reads one frame's body: nil at the end of the input (or when it is
    /// given up), `.some(nil)` for a frame whose header was answered with an
    /// error and skipped.
    private mutating func readFrame() -> [UInt8]?? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = Self.find(separator, in: buffer, from: max(0, searched - separator.count + 1)) {
                searched = 0
                guard end <= Self.headerLimit else { return giveUp("a message header longer than \(Self.headerLimit) bytes") }
                let bodyStart = end + separator.count
                let length: Int
                switch Self.contentLength(String(decoding: buffer[..<end], as: UTF8.self)) {
                case .success(let value): length = value
                case .failure(let problem):
                    buffer.removeFirst(bodyStart)
                    answerParseError(problem.message)
                    return .some(nil)
                }
                guard length <= Self.bodyLimit else {
                    return giveUp("a message of \(length) bytes is more than the \(Self.bodyLimit) storyrun lsp takes")
                }
                while buffer.count < bodyStart + length {
                    guard fill() else { return nil }
                }
                let body = Array(buffer[bodyStart..<(bodyStart + length)])
                buffer.removeFirst(bodyStart + length)
                return .some(body)
            }
            searched = buffer.count
            guard buffer.count <= Self.headerLimit else {
                return giveUp("a message header longer than \(Self.headerLimit) bytes")
            }
            guard fill() else { return nil }
        }
    }

    /// A problem with a frame's header.
    struct HeaderProblem: Error {
        let message: String
    }

    /// The `Content-Length` of a header: digits only, none negative.
    static func contentLength(_ header: String) -> Result<Int, HeaderProblem> {
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return .failure(HeaderProblem(message: "Content-Length \(value.prefix(40)) is not a number of bytes"))
            }
            return .success(Int(value) ?? Int.max)
        }
        return .failure(HeaderProblem(message: "a message header has no Content-Length"))
    }

    /// Answers a message that cannot be read with a JSON-RPC parse error.
    private func answerParseError(_ problem: String) {
        write(["id": .null, "error": ["code": -32700, "message": "storyrun lsp: \(problem)"]])
    }

    /// Gives the input up: answers with the problem, keeps it in
    /// ``failure``, and ends the messages.
    private mutating func giveUp(_ problem: String) -> [UInt8]?? {
        answerParseError(problem + "; the server stops")
        failure = problem
        buffer = []
        return nil
    }

    /// Reads more bytes into the buffer; false at the end of the input.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Where `needle` first is in `haystack`, looking from `from` on (the
    /// bytes before were searched already).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        for start in from...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// Writes a message, framed.
    func write(_ message: JSONValue) {
        var body: [UInt8] = []
        JSONValue.object([("jsonrpc", "2.0")] + (message.objectMembers ?? [])).write(into: &body)
        var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        bytes += body
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
