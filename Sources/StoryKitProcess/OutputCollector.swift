import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes a command writes to one pipe, read by a thread of their own
/// until the pipe closes, so a command that prints megabytes never blocks.
final class OutputCollector: Sendable {
    /// How many bytes are kept; the rest are counted and dropped.
    static let limit = 32 * 1024 * 1024

    private struct State {
        var bytes: [UInt8] = []
        var dropped = 0
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Starts reading a pipe's read end, which the collector closes at its end.
    init(reading descriptor: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                state.withLock { state in
                    let room = max(0, Self.limit - state.bytes.count)
                    state.bytes.append(contentsOf: buffer[0..<min(room, count)])
                    state.dropped += count - min(room, count)
                }
            }
            close(descriptor)
            state.withLock { $0.isClosed = true }
        }
        thread.start()
    }

    /// What was read so far, as UTF-8 text (invalid bytes replaced).
    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// How many bytes were read so far, kept or not.
    var byteCount: Int { state.withLock { $0.bytes.count + $0.dropped } }

    /// How many bytes past ``limit`` were dropped.
    var dropped: Int { state.withLock { $0.dropped } }

    /// Whether every writer closed the pipe.
    var isClosed: Bool { state.withLock { $0.isClosed } }
}
