import Foundation

/// A JSON object as JSONSerialization reads and writes it.
typealias JSONObject = [String: Any]

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

    /// Reads the next message; nil at the end of the input.
    ///
    /// A frame whose body is not a JSON object is skipped.
    mutating func read() -> JSONObject? {
        while true {
            guard let body = readFrame() else { return nil }
            if let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? JSONObject { return object }
        }
    }

    /// Reads one frame's body; nil at the end of the input.
    private mutating func readFrame() -> [UInt8]? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = Self.find(separator, in: buffer) {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                var length = 0
                for line in header.split(separator: "\r\n") {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
                let bodyStart = end + separator.count
                while buffer.count < bodyStart + length {
                    guard fill() else { return nil }
                }
                let body = Array(buffer[bodyStart..<(bodyStart + length)])
                buffer.removeFirst(bodyStart + length)
                return body
            }
            guard fill() else { return nil }
        }
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

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// Writes a message, framed.
    func write(_ message: JSONObject) {
        var object = message
        object["jsonrpc"] = "2.0"
        guard let body = try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]) else {
            return
        }
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
