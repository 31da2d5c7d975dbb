import Foundation

/// The HTTP client of ``HTTPSteps``: HTTP/1.1 on the project's own sockets
/// for `http://` URLs, URLSession's completion-handler API for `https://`,
/// each request on a thread of its own, never on the Swift concurrency
/// pool, and within a time limit the client enforces itself.
///
/// (URLSession's async API, `data(for:)`, can deadlock inside
/// swift-corelibs-foundation and wedge the cooperative pool: issue 34.)
///
/// ```swift
/// let request = HTTPClient.Request(method: "GET", url: URL(string: "http://127.0.0.1:8080/orders/7")!)
/// let response = try await HTTPClient.send(request, timeLimit: 10)
/// ```
public enum HTTPClient {
    /// A request to send.
    public struct Request: Sendable {
        public var method: String
        public var url: URL
        public var headers: [(String, String)]
        public var body: Data?

        public init(method: String, url: URL, headers: [(String, String)] = [], body: Data? = nil) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        /// The value of a header, names compared ignoring case.
        func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    /// A response: the last one, after redirects.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: Data
        /// The URL that answered (after redirects).
        public var url: URL

        /// The value of a header, names compared ignoring case.
        public func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    /// Redirects followed before the client gives up (as URLSession: 16).
    static let redirectLimit = 16

    /// Sends a request on a thread of its own and waits for the answer
    /// without holding a thread of the Swift concurrency pool.
    /// - Throws: ``HTTPClientError`` when no response came within `timeLimit` seconds,
    ///   the connection failed or closed early, or the response could not be read.
    public static func send(_ request: Request, timeLimit: Double) async throws -> Response {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result { try sendBlocking(request, timeLimit: timeLimit) })
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    /// Sends a request on the calling thread, which it blocks: follows
    /// redirects as URLSession does (301 and 302 turn POST into GET, 303
    /// turns every method but HEAD into GET, 307 and 308 keep it), all
    /// within one deadline.
    public static func sendBlocking(_ request: Request, timeLimit: Double) throws -> Response {
        let deadline = Deadline(seconds: timeLimit)
        var request = request
        for _ in 0...redirectLimit {
            let response = try exchange(request, deadline: deadline)
            guard let next = redirect(request, after: response) else { return response }
            request = next
        }
        throw HTTPClientError("more than \(redirectLimit) redirects, the last to \(request.url.absoluteString)")
    }

    /// One request and its response, without redirects.
    static func exchange(_ request: Request, deadline: Deadline) throws -> Response {
        switch request.url.scheme?.lowercased() {
        case "http": return try PlainExchange(request: request, deadline: deadline).run()
        case "https": return try TLSExchange.run(request, deadline: deadline)
        default: throw HTTPClientError("\(request.url.absoluteString) is neither an http:// nor an https:// URL")
        }
    }

    /// The request a redirect asks for, or nil when the response is not one.
    static func redirect(_ request: Request, after response: Response) -> Request? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location"),
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        let becomesGET = response.status == 303 ? request.method != "HEAD" : (response.status <= 302 && request.method == "POST")
        if becomesGET {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { ["content-type", "content-length"].contains($0.0.lowercased()) }
        }
        return next
    }
}

/// A request that got no response, with the reason.
public struct HTTPClientError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The moment a request must be answered by.
struct Deadline {
    let seconds: Double
    let end: Date

    init(seconds: Double) {
        self.seconds = seconds
        end = Date().addingTimeInterval(seconds)
    }

    /// Milliseconds left, for poll(2); 0 once past.
    var millisecondsLeft: Int32 {
        Int32(clamping: max(0, Int((end.timeIntervalSinceNow * 1000).rounded(.up))))
    }

    /// The error for a request not answered in time.
    func expired(_ doing: String) -> HTTPClientError {
        HTTPClientError("no response within the time limit of \(Self.format(seconds)) s (\(doing))")
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
