#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads lines from a descriptor.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var isAtEnd = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// What `body` makes of the next whole line's bytes (without its end);
    /// nil at the end of input.
    mutating func nextLine<Value>(_ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let value = buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<newline])) }
                start = newline + 1
                return value
            }
            if isAtEnd { return nil }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            // Read straight onto the end of the buffer.
            let old = buffer.count
            buffer += repeatElement(0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, 65_536) }
            buffer.removeSubrange((old + max(0, count))...)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { isAtEnd = true }
        }
    }
}
