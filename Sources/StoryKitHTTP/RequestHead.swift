/// A request line and its headers, checked strictly enough that whatever
/// the server cannot read is answered with 400, never guessed at.
struct RequestHead {
    var method: String
    var target: String
    var version: String
    var headers: [(String, String)]

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The value of a header, names compared ignoring case.
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Whether the client asked for `100 Continue` before sending its body.
    var expectsContinue: Bool { header("Expect")?.lowercased() == "100-continue" }

    /// Whether the connection stays open after the answer.
    var keepsAlive: Bool {
        let connection = header("Connection")?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// Parses the bytes before the blank line.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<RequestHead, Problem> {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Problem(description: "the request head is not UTF-8"))
        }
        var lines = text.components(separatedBy: "\r\n")
        // Clients may send empty lines before a request (RFC 9112, 2.2).
        while lines.first == "" { lines.removeFirst() }
        guard let requestLine = lines.first else { return .failure(Problem(description: "the request line is missing")) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
            parts[1].hasPrefix("/") || parts[1].hasPrefix("http://"), !parts[1].contains(where: { $0.isWhitespace }),
            parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
        else {
            let shown = requestLine.count > 80 ? String(requestLine.prefix(80)) + "…" : requestLine
            return .failure(Problem(description: "bad request line \"\(shown)\" (expected METHOD /path HTTP/1.1)"))
        }
        var target = String(parts[1])
        if target.hasPrefix("http://"), let slash = target.dropFirst(7).firstIndex(of: "/") {
            target = String(target[slash...])
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else {
                return .failure(Problem(description: "bad header line \"\(line.prefix(80))\""))
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            if headers.count > 200 { return .failure(Problem(description: "more than 200 headers")) }
        }
        let lengths = Set(headers.filter { $0.0.lowercased() == "content-length" }.map(\.1))
        guard lengths.count <= 1 else { return .failure(Problem(description: "Content-Length headers disagree")) }
        return .success(RequestHead(method: String(parts[0]), target: target, version: String(parts[2]), headers: headers))
    }
}

/// A chunked body (RFC 9112, 7.1) decoded from the bytes that arrived.
enum ChunkedBody {
    enum Result: Equatable {
        case needMore
        case bad(String)
        /// The body and the index just past its last chunk and trailers.
        case done([UInt8], Int)
    }

    static func decode(_ bytes: [UInt8], from start: Int, limit: Int) -> Result {
        var index = start
        var body: [UInt8] = []
        while true {
            guard let lineEnd = Connection.find([13, 10], in: bytes, from: index) else {
                return bytes.count - index > 1024 ? .bad("a chunk size line is longer than 1024 bytes") : .needMore
            }
            let line = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(sizeText, radix: 16), size >= 0 else {
                return .bad("bad chunk size \"\(line.prefix(40))\"")
            }
            index = lineEnd + 2
            if size == 0 {
                var trailers = 0
                while true {
                    guard let end = Connection.find([13, 10], in: bytes, from: index) else { return .needMore }
                    if end == index { return .done(body, end + 2) }
                    trailers += 1
                    if trailers > 100 { return .bad("more than 100 trailer lines") }
                    index = end + 2
                }
            }
            guard body.count + size <= limit else { return .bad("the chunked body is larger than \(limit) bytes") }
            guard bytes.count >= index + size + 2 else { return .needMore }
            guard bytes[index + size] == 13, bytes[index + size + 1] == 10 else { return .bad("a chunk does not end with CRLF") }
            body.append(contentsOf: bytes[index..<index + size])
            index += size + 2
        }
    }
}
