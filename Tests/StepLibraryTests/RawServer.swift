import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server on 127.0.0.1 that answers each connection with what a test
/// scripts, byte for byte: to send what no well-behaved server would (a
/// silence, an early close). ``stop()`` ends every thread it started.
final class RawServer: Sendable {
    let port: UInt16
    var url: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let state = Mutex<(connections: [Int32], requests: [String], threads: Int)>(([], [], 0))

    /// `reply` gets the connection's socket and the request head; the
    /// server closes the connection when `reply` returns.
    init(reply: @escaping @Sendable (_ socket: Int32, _ request: String) -> Void) throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        start { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                state.withLock { $0.connections.append(connection) }
                start { [self] in
                    let request = Self.readHead(connection)
                    state.withLock { $0.requests.append(request) }
                    reply(connection, request)
                    shutdown(connection, Int32(SHUT_RDWR))
                }
            }
        }
    }

    /// The request heads received, in order.
    var requests: [String] { state.withLock { $0.requests } }

    private func start(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.threads += 1 }
        Thread.detachNewThread { [self] in
            body()
            state.withLock { $0.threads -= 1 }
        }
    }

    /// Closes the listener and every connection, and waits (up to 5 s) for
    /// every thread to end; false when one did not.
    @discardableResult
    func stop() -> Bool {
        shutdown(listener, Int32(SHUT_RDWR))
        state.withLock { state in state.connections.forEach { shutdown($0, Int32(SHUT_RDWR)) } }
        let end = Date().addingTimeInterval(5)
        while state.withLock({ $0.threads > 0 }), Date() < end { usleep(1_000) }
        close(listener)
        state.withLock { state in state.connections.forEach { close($0) } }
        return state.withLock { $0.threads == 0 }
    }

    static func send(_ socket: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Waits until the client closes or the server stops.
    static func waitForClose(_ socket: Int32) {
        var byte: UInt8 = 0
        while recv(socket, &byte, 1, 0) > 0 {}
    }

    private static func readHead(_ socket: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while recv(socket, &byte, 1, 0) == 1 {
            bytes.append(byte)
            if bytes.count >= 4, bytes.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
