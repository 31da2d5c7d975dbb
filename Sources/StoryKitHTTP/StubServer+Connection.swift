import Foundation
import StoryKit

#if canImport(Glibc)
    import Glibc
#endif

extension StubServer {
    /// Serves the requests of one connection until it closes, asks to close,
    /// sends something unreadable, or is idle past the read timeout.
    func serve(_ socket: Int32) {
        var timeout = timeval(tv_sec: Int(limits.readTimeout), tv_usec: Int((limits.readTimeout.truncatingRemainder(dividingBy: 1)) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var connection = Connection(socket: socket)
        while !isStopped {
            switch readRequest(&connection) {
            case .closed:
                return
            case .bad(let status, let problem):
                recordBadRequest(problem)
                connection.send(Self.response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: problem + "\n", keepAlive: false, isHead: false))
                return
            case .request(let request, let keepAlive):
                let answer = respond(to: request)
                if let delay = answer.rule?.delay, delay > 0 {
                    let end = Date().addingTimeInterval(delay)
                    while Date() < end, !isStopped { usleep(10_000) }
                }
                let sent = connection.send(
                    Self.response(status: answer.status, headers: answer.headers, body: answer.body, keepAlive: keepAlive, isHead: request.method == "HEAD"))
                if !sent || !keepAlive { return }
            }
        }
    }

    enum ReadResult {
        case request(ReceivedRequest, keepAlive: Bool)
        case bad(status: Int, problem: String)
        case closed
    }

    /// What a part of a request read gave: the value, or what ends the connection.
    private enum Reading<Value> {
        case value(Value)
        case stop(ReadResult)
    }

    /// Reads one request: its head, then its body by Content-Length or chunks.
    private func readRequest(_ connection: inout Connection) -> ReadResult {
        let head: RequestHead
        let headEnd: Int
        switch readHead(&connection) {
        case .value(let read): (head, headEnd) = read
        case .stop(let result): return result
        }
        let bodyStart = headEnd + 4
        let body: [UInt8]
        let bodyEnd: Int
        let reading: Reading<(body: [UInt8], end: Int)>
        if let encoding = head.header("Transfer-Encoding") {
            guard encoding.lowercased() == "chunked" else {
                return .bad(status: 400, problem: "the transfer encoding \(encoding) is not supported")
            }
            guard head.header("Content-Length") == nil else {
                return .bad(status: 400, problem: "a request may not have both Content-Length and Transfer-Encoding")
            }
            reading = readChunkedBody(&connection, of: head, from: bodyStart)
        } else if let lengthText = head.header("Content-Length") {
            reading = readSizedBody(&connection, of: head, from: bodyStart, lengthText: lengthText)
        } else {
            reading = .value((body: [], end: bodyStart))
        }
        switch reading {
        case .value(let read): (body, bodyEnd) = read
        case .stop(let result): return result
        }
        connection.buffer.removeFirst(bodyEnd)
        let request = ReceivedRequest(
            method: head.method, target: head.target, headers: head.headers,
            body: String(decoding: body, as: UTF8.self), wasExpected: false, problem: nil)
        return .request(request, keepAlive: head.keepsAlive)
    }

    /// Reads until the blank line that ends a request's head, and parses the
    /// head; gives it with the index of that blank line.
    private func readHead(_ connection: inout Connection) -> Reading<(RequestHead, Int)> {
        var headEnd: Int?
        var searched = 0
        while true {
            headEnd = Connection.find([13, 10, 13, 10], in: connection.buffer, from: max(0, searched - 3))
            if headEnd != nil { break }
            searched = connection.buffer.count
            if connection.buffer.count > limits.headBytes {
                return .stop(.bad(status: 431, problem: "the request head is longer than \(limits.headBytes) bytes"))
            }
            switch connection.receive() {
            case .data: continue
            case .timedOut where !connection.buffer.isEmpty:
                return .stop(.bad(status: 408, problem: "the request head did not arrive within \(limits.readTimeout) s"))
            default: return .stop(.closed)
            }
        }
        guard let headEnd else { return .stop(.closed) }
        if headEnd > limits.headBytes {
            return .stop(.bad(status: 431, problem: "the request head is longer than \(limits.headBytes) bytes"))
        }
        switch RequestHead.parse(connection.buffer[..<headEnd]) {
        case .success(let parsed): return .value((parsed, headEnd))
        case .failure(let problem): return .stop(.bad(status: 400, problem: problem.description))
        }
    }

    /// Reads a chunked body starting at `bodyStart`, sending 100 Continue
    /// once if the client waits for it; gives the body and where it ends.
    private func readChunkedBody(
        _ connection: inout Connection, of head: RequestHead, from bodyStart: Int
    ) -> Reading<(body: [UInt8], end: Int)> {
        var sentContinue = false
        while true {
            switch ChunkedBody.decode(connection.buffer, from: bodyStart, limit: limits.bodyBytes) {
            case .done(let decoded, let end):
                return .value((body: decoded, end: end))
            case .bad(let problem):
                return .stop(.bad(status: 400, problem: problem))
            case .needMore:
                if head.expectsContinue, !sentContinue {
                    sentContinue = true
                    connection.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
                switch connection.receive() {
                case .data: continue
                case .timedOut: return .stop(.bad(status: 408, problem: "the chunked body did not arrive within \(limits.readTimeout) s"))
                case .closed: return .stop(.closed)
                }
            }
        }
    }

    /// Reads a body of the Content-Length `lengthText` starting at
    /// `bodyStart`; gives the body and where it ends.
    private func readSizedBody(
        _ connection: inout Connection, of head: RequestHead, from bodyStart: Int, lengthText: String
    ) -> Reading<(body: [UInt8], end: Int)> {
        guard !lengthText.isEmpty, lengthText.allSatisfy(\.isASCII), lengthText.allSatisfy(\.isNumber),
            lengthText.count <= 12, let length = Int(lengthText)
        else { return .stop(.bad(status: 400, problem: "the Content-Length \"\(lengthText)\" is not a number")) }
        guard length <= limits.bodyBytes else {
            return .stop(.bad(status: 413, problem: "the body of \(length) bytes is larger than \(limits.bodyBytes) bytes"))
        }
        if head.expectsContinue, connection.buffer.count < bodyStart + length {
            connection.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while connection.buffer.count < bodyStart + length {
            switch connection.receive() {
            case .data: continue
            case .timedOut:
                return .stop(.bad(status: 408, problem: "the body is shorter than its Content-Length of \(length) bytes (\(connection.buffer.count - bodyStart) arrived within \(limits.readTimeout) s)"))
            case .closed: return .stop(.closed)
            }
        }
        return .value((body: Array(connection.buffer[bodyStart..<bodyStart + length]), end: bodyStart + length))
    }

    /// The bytes of a response.
    static func response(status: Int, headers: [(String, String)], body: String, keepAlive: Bool, isHead: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        var hasType = false
        for (name, value) in headers {
            let lowered = name.lowercased()
            if lowered == "content-length" || lowered == "connection" || lowered == "transfer-encoding" { continue }
            if lowered == "content-type" { hasType = true }
            text += "\(name): \(value)\r\n"
        }
        if !hasType, !body.isEmpty {
            text += "Content-Type: " + ((try? JSONValue(parsing: body)) != nil ? "application/json" : "text/plain; charset=utf-8") + "\r\n"
        }
        text += "Content-Length: \(body.utf8.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8) + (isHead ? [] : Array(body.utf8))
    }

    static func reason(_ status: Int) -> String {
        let reasons = [
            200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
            304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            408: "Request Timeout", 409: "Conflict", 413: "Content Too Large", 422: "Unprocessable Content",
            429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return reasons[status] ?? "Status \(status)"
    }
}

/// One client connection: its socket and the bytes read but not yet used.
struct Connection {
    let socket: Int32
    var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(socket: Int32) { self.socket = socket }

    enum Received { case data, timedOut, closed }

    /// Reads what has arrived into the buffer.
    mutating func receive() -> Received {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return .data
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return .timedOut }
            return .closed
        }
    }

    /// Sends every byte; false when the client is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// The index of the first occurrence of `needle` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
