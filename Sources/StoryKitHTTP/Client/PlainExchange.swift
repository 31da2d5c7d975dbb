import Foundation

/// One HTTP/1.1 request and its response over a connection of its own
/// (`Connection: close`): the body by Content-Length, by chunks, or up to
/// the end of the connection; what arrives short or malformed is an error.
struct PlainExchange {
    let request: HTTPClient.Request
    let deadline: Deadline

    /// The largest response head and body the client reads.
    static let headBytes = 1024 * 1024
    static let bodyBytes = 64 * 1024 * 1024

    func run() throws -> HTTPClient.Response {
        guard let host = request.url.host, !host.isEmpty else { throw HTTPClientError("\(request.url.absoluteString) has no host") }
        let port = request.url.port ?? 80
        guard let port16 = UInt16(exactly: port) else { throw HTTPClientError("the port \(port) is out of range") }
        let socket = try ClientSocket(host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port16, deadline: deadline)
        try socket.send(requestBytes(host: host, port: request.url.port))
        var reader = ResponseReader(isHead: request.method == "HEAD")
        while true {
            if let response = try reader.response(url: request.url) { return response }
            let open = try socket.receive(into: &reader.buffer, doing: reader.waitingFor)
            if !open {
                reader.isClosed = true
                if let response = try reader.response(url: request.url) { return response }
                throw HTTPClientError("the server closed the connection before the response ended (\(reader.waitingFor))")
            }
        }
    }

    /// The request line, the headers and the body.
    func requestBytes(host: String, port: Int?) throws -> [UInt8] {
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        var head = "\(request.method) \(target) HTTP/1.1\r\n"
        if request.header("Host") == nil { head += "Host: \(host)\(port.map { ":\($0)" } ?? "")\r\n" }
        for (name, value) in request.headers {
            guard !["content-length", "connection", "transfer-encoding"].contains(name.lowercased()) else { continue }
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw HTTPClientError("the header \(name) may not hold a line break")
            }
            head += "\(name): \(value)\r\n"
        }
        if request.header("Accept") == nil { head += "Accept: */*\r\n" }
        if request.header("User-Agent") == nil { head += "User-Agent: storyrun\r\n" }
        let body = request.body ?? Data()
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }
}

/// Reads a response from the bytes as they arrive: skips 1xx answers,
/// then the head, then the body.
struct ResponseReader {
    var buffer: [UInt8] = []
    var isClosed = false
    let isHead: Bool
    private var head: (status: Int, headers: [(String, String)], end: Int)?

    init(isHead: Bool) { self.isHead = isHead }

    /// What the reader waits for, for messages.
    var waitingFor: String { head == nil ? "waiting for the response head" : "reading the response body" }

    /// The whole response once it has arrived, else nil.
    mutating func response(url: URL) throws -> HTTPClient.Response? {
        while head == nil {
            guard let end = Connection.find([13, 10, 13, 10], in: buffer, from: 0) else {
                if buffer.count > PlainExchange.headBytes { throw HTTPClientError("the response head is longer than \(PlainExchange.headBytes) bytes") }
                return nil
            }
            let parsed = try Self.parseHead(buffer[..<end])
            if (100..<200).contains(parsed.status) {
                buffer.removeFirst(end + 4)
                continue
            }
            head = (parsed.status, parsed.headers, end + 4)
        }
        guard let head, let body = try body(head) else { return nil }
        return HTTPClient.Response(status: head.status, headers: head.headers, body: Data(body), url: url)
    }

    private func body(_ head: (status: Int, headers: [(String, String)], end: Int)) throws -> [UInt8]? {
        let header = { (name: String) in head.headers.first { $0.0.lowercased() == name }?.1 }
        if isHead || head.status == 204 || head.status == 304 { return [] }
        if let encoding = header("transfer-encoding") {
            guard encoding.lowercased().hasSuffix("chunked") else {
                throw HTTPClientError("the response's transfer encoding \(encoding) is not supported")
            }
            switch ChunkedBody.decode(buffer, from: head.end, limit: PlainExchange.bodyBytes) {
            case .done(let body, _): return body
            case .bad(let problem): throw HTTPClientError("the response's chunked body is malformed: \(problem)")
            case .needMore: return nil
            }
        }
        if let text = header("content-length") {
            guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
                throw HTTPClientError("the response's Content-Length \"\(text)\" is not a number")
            }
            guard length <= PlainExchange.bodyBytes else { throw HTTPClientError("the response body of \(length) bytes is too large") }
            if buffer.count - head.end >= length { return Array(buffer[head.end..<head.end + length]) }
            if isClosed {
                throw HTTPClientError("the server closed the connection after \(buffer.count - head.end) of the \(length) bytes of its Content-Length")
            }
            return nil
        }
        guard buffer.count - head.end <= PlainExchange.bodyBytes else { throw HTTPClientError("the response body is too large") }
        return isClosed ? Array(buffer[head.end...]) : nil
    }

    /// The status and headers of a response head.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws -> (status: Int, headers: [(String, String)]) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw HTTPClientError("the response does not begin with a status line: \"\(lines[0].prefix(80))\"")
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPClientError("bad response header line \"\(line.prefix(80))\"") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers)
    }
}
