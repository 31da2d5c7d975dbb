import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 and an ephemeral port that answers as a
/// story says: POSIX sockets, a thread per connection, keep-alive,
/// Content-Length and chunked bodies, 400 for what it cannot read.
///
/// ```swift
/// let server = try StubServer(name: "payment")
/// server.answer(StubRule(method: "POST", path: "/charges", status: 201, body: #"{"id":"ch_1"}"#))
/// // … http://127.0.0.1:\(server.port) …
/// server.stop()
/// ```
public final class StubServer: Sendable {
    /// The name the story gives the service (`payment`), for messages.
    public let name: String
    /// The port it listens on.
    public let port: UInt16
    /// Its base URL, such as `http://127.0.0.1:40123`.
    public var url: String { "http://127.0.0.1:\(port)" }
    /// The limits that keep a bad client from holding the server.
    let limits: Limits

    /// The bounds of what the server reads from one client.
    public struct Limits: Sendable {
        /// Seconds a connection may wait for bytes before it is closed.
        public var readTimeout: Double = 5
        /// The largest request head (request line and headers), in bytes.
        public var headBytes = 64 * 1024
        /// The largest request body, in bytes.
        public var bodyBytes = 16 * 1024 * 1024
        /// The most connections served at once; more are closed at once.
        public var connections = 512
        public init() {}
    }

    struct State {
        var rules: [(rule: StubRule, uses: Int)] = []
        var received: [ReceivedRequest] = []
        var connections: Set<Int32> = []
        var isStopped = false
        var isAccepting = true
    }

    let state = Mutex(State())
    private let listener: Int32

    /// Starts the server on 127.0.0.1 and a port the system picks.
    /// - Throws: ``StubServerError`` when no socket can be opened.
    public init(name: String, limits: Limits = Limits()) throws {
        self.name = name
        self.limits = limits
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw StubServerError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 256) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw StubServerError("cannot listen on 127.0.0.1: \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        listener = socket
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptConnections() }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Adds a rule; rules are tried in the order added.
    public func answer(_ rule: StubRule) {
        state.withLock { $0.rules.append((rule, 0)) }
    }

    /// Every request received so far, in order of arrival.
    public var received: [ReceivedRequest] { state.withLock { $0.received } }

    /// The rules, as a story names them.
    var ruleNames: [String] { state.withLock { $0.rules.map(\.rule.name) } }

    /// Stops listening, closes every connection and waits (up to 2 s) until
    /// every connection thread has ended; the port is then free.
    public func stop() {
        // Under the lock: a connection closes its descriptor under it too,
        // so no descriptor number is shut down after another socket reused it.
        // Once only: the listener's descriptor number may belong to another
        // socket after the first stop closed it.
        let wasStopped = state.withLock { state in
            defer { state.isStopped = true }
            for descriptor in state.connections { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return state.isStopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, state.withLock({ $0.isAccepting || !$0.connections.isEmpty }) {
            usleep(2_000)
        }
    }

    deinit {
        stop()
    }

    /// Accepts connections until stopped, a thread for each.
    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if state.withLock({ $0.isStopped }) { break }
                if errno == EINTR || errno == ECONNABORTED { continue }
                usleep(10_000)  // out of descriptors: let connections end
                continue
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            let admitted = state.withLock { state -> Bool in
                guard !state.isStopped, state.connections.count < limits.connections else { return false }
                state.connections.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                if state.withLock({ $0.isStopped }) { break }
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { state in
                    state.connections.remove(connection)
                    close(connection)
                }
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        close(listener)
        state.withLock { $0.isAccepting = false }
    }

    /// The answer to a request: the first rule that matches (a once-only
    /// rule only until used), else a 404 naming the request and the rules.
    func respond(to request: ReceivedRequest) -> (rule: StubRule?, status: Int, headers: [(String, String)], body: String) {
        state.withLock { state in
            var request = request
            if let index = state.rules.indices.first(where: {
                !(state.rules[$0].rule.isOnce && state.rules[$0].uses > 0) && state.rules[$0].rule.matches(request)
            }) {
                state.rules[index].uses += 1
                request.wasExpected = true
                state.received.append(request)
                let rule = state.rules[index].rule
                return (rule, rule.status, rule.headers, rule.body)
            }
            state.received.append(request)
            let known = state.rules.map(\.rule.name)
            let body = "the \(name) service stub has no answer for \(request.method) \(request.target)"
                + (known.isEmpty ? " (the story gave it no answers)" : " (it answers: \(known.joined(separator: "; ")))")
            return (nil, 404, [("Content-Type", "text/plain; charset=utf-8")], body + "\n")
        }
    }

    /// Records a request that could not be read.
    func recordBadRequest(_ problem: String) {
        state.withLock {
            $0.received.append(ReceivedRequest(method: "", target: "", headers: [], body: "", wasExpected: false, problem: problem))
        }
    }

    var isStopped: Bool { state.withLock { $0.isStopped } }
}

/// A stub server that could not start.
public struct StubServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
