import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking TCP socket whose every wait is a poll(2) bounded by the
/// request's deadline: connecting, sending and receiving.
struct ClientSocket: ~Copyable {
    private let descriptor: Int32
    let deadline: Deadline

    /// Connects to `host:port` (each address the name resolves to, in turn).
    init(host: String, port: UInt16, deadline: Deadline) throws {
        self.deadline = deadline
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw HTTPClientError("cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            switch Self.connect(address.pointee, deadline: deadline) {
            case .success(let socket):
                descriptor = socket
                return
            case .failure(let error):
                if error.description.hasPrefix("no response") { throw error }
                reason = error.description
            }
            entry = address.pointee.ai_next
        }
        throw HTTPClientError("cannot connect to \(host):\(port): \(reason)")
    }

    private static func connect(_ address: addrinfo, deadline: Deadline) -> Result<Int32, HTTPClientError> {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let socket = Glibc.socket(address.ai_family, flags, 0)
        guard socket >= 0 else { return .failure(HTTPClientError("cannot open a socket: \(String(cString: strerror(errno)))")) }
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0, errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            close(socket)
            return .failure(HTTPClientError(reason))
        }
        guard wait(socket, for: Int16(POLLOUT), deadline: deadline) else {
            close(socket)
            return .failure(deadline.expired("connecting"))
        }
        var problem: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &problem, &length)
        guard problem == 0 else {
            close(socket)
            return .failure(HTTPClientError(String(cString: strerror(problem))))
        }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return .success(socket)
    }

    deinit { close(descriptor) }

    /// Whether the socket is ready for `events` before the deadline.
    private static func wait(_ socket: Int32, for events: Int16, deadline: Deadline) -> Bool {
        while true {
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.millisecondsLeft)
            if ready > 0 { return true }
            if ready < 0, errno == EINTR { continue }
            return false
        }
    }

    /// Sends every byte before the deadline.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0, errno == EINTR { continue }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK else {
                throw HTTPClientError("the server closed the connection while the request was sent (\(String(cString: strerror(errno))))")
            }
            guard Self.wait(descriptor, for: Int16(POLLOUT), deadline: deadline) else { throw deadline.expired("sending the request") }
        }
    }

    /// Appends what arrives to `buffer`; false when the server closed the
    /// connection.
    func receive(into buffer: inout [UInt8], doing: String) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw HTTPClientError("cannot read the response: \(String(cString: strerror(errno)))")
            }
            guard Self.wait(descriptor, for: Int16(POLLIN), deadline: deadline) else { throw deadline.expired(doing) }
        }
    }
}
